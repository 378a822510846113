package cli

import (
	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/value"
)

// loadValues reads a --values file (notefile.ReadValues), as an exit-1
// error when it cannot.
func loadValues(path string) (value.Values, error) {
	v, err := notefile.ReadValues(path)
	if err != nil {
		return nil, failf("%w", err)
	}
	return v, nil
}
