package snapshot

import (
	"errors"

	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/render"
)

// Screen is the viewer's final screen for a key script.
func Screen(n *notefile.Note, opt render.Options, height int, script string) ([]byte, error) {
	return nil, errors.New("viewer snapshots are not available yet")
}
