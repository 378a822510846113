//go:build !unix

package cli

import (
	"errors"
	"os"
)

// closedAtStart is false where the runtime does not reopen closed
// standard streams.
func closedAtStart(*os.File) bool { return false }

// closedWriter is never used here.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }
