package cli

import (
	"io"

	"github.com/markii/markii/internal/notefile"
)

// maxNoteBytes caps a single-file note (or stdin) before it is read.
const maxNoteBytes = notefile.MaxNoteBytes

// note is a note loaded for a command (notefile.Note).
type note = notefile.Note

// loadNote reads the note a command names (notefile.Load), as an exit-1
// error when it cannot.
func loadNote(path string, stdin io.Reader) (*note, error) {
	n, err := notefile.Load(path, stdin)
	if err != nil {
		return nil, failf("%w", err)
	}
	return n, nil
}

// loadNoteAsync is notefile.LoadAsync with loadNote's errors.
func loadNoteAsync(path string, stdin io.Reader) func() (*note, error) {
	wait := notefile.LoadAsync(path, stdin)
	return func() (*note, error) {
		n, err := wait()
		if err != nil {
			return nil, failf("%w", err)
		}
		return n, nil
	}
}

// osReason is an operating-system error without Go's "op path:" prefix.
func osReason(err error) string { return notefile.OSReason(err) }

// fileURL is the file:// URL of an absolute path.
func fileURL(abs string) string { return notefile.FileURL(abs) }
