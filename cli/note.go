package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/markii/markii/internal/bigbuf"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/script"
)

// maxNoteBytes caps a single-file note (or stdin) before it is read.
const maxNoteBytes = script.MaxNoteBytes

// note is a note loaded for a command: a single .mk.md file, stdin, or a
// bundle (zip or directory).
type note struct {
	// Source is the document's bytes.
	Source []byte
	// Name is the name to show: the file or bundle's base name, or "stdin".
	Name string
	// Path is the absolute path on disk ("" for stdin).
	Path string
	// Key is the document key for device state: the file:// URL of Path
	// ("" for stdin, which has no identity to remember).
	Key string
	// Bundle is the opened bundle, or nil for a single file or stdin.
	Bundle *bundle.Bundle
	// Warnings are non-fatal problems to show on the diagnostics surface
	// (a bundle manifest's unknown keys and legacy names).
	Warnings []string
}

// loadNote reads the note a command names: "-" reads stdin; a directory
// is a directory bundle; a .mkz or .mkbundle file (any letter case) is a
// zip bundle; any other path is read as a plain .mk.md text. Errors are
// one line and exit 1: "cannot read PATH: …", "bundle has no
// manifest.json", "bundle has no <document>", "PATH is not a valid Markii
// bundle: …", "manifest.json is invalid: …" or "PATH looks like a binary
// file". The source is UTF-8 text: see decodeNoteText.
func loadNote(path string, stdin io.Reader) (*note, error) {
	if path == "-" {
		if stdin == nil {
			return nil, failf("cannot read stdin: there is no standard input")
		}
		src, err := io.ReadAll(io.LimitReader(stdin, maxNoteBytes+1))
		if err != nil {
			return nil, failf("cannot read stdin: %s", osReason(err))
		}
		if len(src) > maxNoteBytes {
			return nil, failf("cannot read stdin: the note is over the %d MiB limit", maxNoteBytes>>20)
		}
		return decoded(&note{Source: src, Name: "stdin"}, "stdin")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, failf("cannot read %s: %s", path, osReason(err))
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, failf("cannot read %s: %s", path, osReason(err))
	}
	n := &note{Name: filepath.Base(abs), Path: abs, Key: fileURL(abs)}
	if info.IsDir() || bundle.HasBundleExtension(path) {
		b, err := bundle.Open(path)
		if err != nil {
			return nil, bundleFailure(path, err)
		}
		n.Bundle, n.Source, n.Warnings = b, b.Document(), b.Warnings()
		return decoded(n, "the document of "+path)
	}
	if n.Source, err = readNoteFile(path); err != nil {
		return nil, failf("cannot read %s: %s", path, err)
	}
	return decoded(n, path)
}

// loadNoteAsync starts loading the note at path as loadNote does and
// returns the function that waits for it, so that reading a long note
// overlaps what the caller does meanwhile: asking the terminal for its
// background, which over a slow link takes a round trip. A note typed at
// the terminal (`-` on a terminal) is read only when waited for, so the
// note and the terminal's answer never take each other's bytes.
func loadNoteAsync(path string, stdin io.Reader) func() (*note, error) {
	if path == "-" && isTerminal(stdin) {
		return func() (*note, error) { return loadNote(path, stdin) }
	}
	type loaded struct {
		n   *note
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		n, err := loadNote(path, stdin)
		done <- loaded{n, err}
	}()
	return func() (*note, error) {
		l := <-done
		return l.n, l.err
	}
}

// decoded returns n with its source replaced by its UTF-8 text (see
// decodeNoteText), or refuses it as "NAME looks like a binary file".
func decoded(n *note, name string) (*note, error) {
	text, ok := decodeNoteText(n.Source)
	if !ok {
		return nil, failf("%s looks like a binary file", name)
	}
	n.Source = text
	return n, nil
}

// readNoteFile reads a note file: a regular file after checking its size on
// the open handle, or a pipe (such as a shell's process substitution) up to
// the same limit.
func readNoteFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.New(osReason(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, errors.New(osReason(err))
	}
	if info.Mode().Type()&^(fs.ModeNamedPipe|fs.ModeCharDevice) != 0 {
		return nil, errors.New("it is not a regular file or a pipe")
	}
	if info.Size() > maxNoteBytes {
		return nil, fmt.Errorf("it is %d bytes, over the %d MiB limit for a note", info.Size(), maxNoteBytes>>20)
	}
	// Sized from the file, so a long note is read into one buffer rather
	// than copied through ever larger ones, on huge pages where the
	// system gives them (a 10 MB note then reads several times faster).
	buf := bytes.NewBuffer(bigbuf.Make(int(info.Size()) + bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, maxNoteBytes+1)); err != nil {
		return nil, errors.New(osReason(err))
	}
	src := buf.Bytes()
	if len(src) > maxNoteBytes {
		return nil, fmt.Errorf("it grew over the %d MiB limit for a note while being read", maxNoteBytes>>20)
	}
	return src, nil
}

// bundleFailure turns a bundle.Open error into the one-line CLI message.
func bundleFailure(path string, err error) error {
	var (
		ae *bundle.ArchiveError
		me *bundle.ManifestError
		md *bundle.MissingDocumentError
	)
	switch {
	case errors.As(err, &ae), errors.As(err, &me), errors.As(err, &md), errors.Is(err, bundle.ErrNoManifest):
		return failf("%s", err.Error())
	}
	return failf("cannot read %s: %s", path, osReason(err))
}

// osReason is an operating-system error without Go's "op path:" prefix.
func osReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// fileURL is the file:// URL of an absolute path.
func fileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
