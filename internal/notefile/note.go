// Package notefile loads notes from disk for every command that draws
// them (render, view, export, snapshot): a single .mk.md file, stdin, or a
// bundle, decoded to UTF-8 text; values files; and the local pictures a
// note draws (LoadPictures). Errors are one line, naming the file.
package notefile

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/charmbracelet/x/term"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/markii/markii/internal/bigbuf"
	"github.com/markii/markii/internal/oserr"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/script"
)

// MaxNoteBytes caps a single-file note (or stdin) before it is read.
const MaxNoteBytes = script.MaxNoteBytes

// Note is a note loaded for a command: a single .mk.md file, stdin, or a
// bundle (zip or directory).
type Note struct {
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

// Load reads the note a command names: "-" reads stdin; a directory
// is a directory bundle; a .mkz or .mkbundle file (any letter case) is a
// zip bundle; any other path is read as a plain .mk.md text. Errors are
// one line and exit 1: "cannot read PATH: …", "bundle has no
// manifest.json", "bundle has no <document>", "PATH is not a valid Markii
// bundle: …", "manifest.json is invalid: …" or "PATH looks like a binary
// file" (an *Error). The source is UTF-8 text: see DecodeText.
func Load(path string, stdin io.Reader) (*Note, error) {
	if path == "-" {
		return loadStdin(stdin)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, errorf("cannot read %s: %s", path, OSReason(err))
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, errorf("cannot read %s: %s", path, OSReason(err))
	}
	n := &Note{Name: filepath.Base(abs), Path: abs, Key: FileURL(abs)}
	if info.IsDir() || bundle.HasBundleExtension(path) {
		b, err := bundle.Open(path)
		if err != nil {
			return nil, bundleFailure(path, err)
		}
		n.Bundle, n.Source, n.Warnings = b, b.Document(), b.Warnings()
		return decoded(n, "the document of "+path)
	}
	if n.Source, err = readNoteFile(path); err != nil {
		return nil, errorf("cannot read %s: %s", path, err)
	}
	return decoded(n, path)
}

// loadStdin reads the note on stdin, for Load.
func loadStdin(stdin io.Reader) (*Note, error) {
	if stdin == nil {
		return nil, errorf("cannot read stdin: there is no standard input")
	}
	src, err := io.ReadAll(io.LimitReader(stdin, MaxNoteBytes+1))
	if err != nil {
		return nil, errorf("cannot read stdin: %s", OSReason(err))
	}
	if len(src) > MaxNoteBytes {
		return nil, errorf("cannot read stdin: the note is over the %d MiB limit", MaxNoteBytes>>20)
	}
	return decoded(&Note{Source: src, Name: "stdin"}, "stdin")
}

// LoadAsync starts loading the note at path as Load does and
// returns the function that waits for it, so that reading a long note
// overlaps what the caller does meanwhile: asking the terminal for its
// background, which over a slow link takes a round trip. A note typed at
// the terminal (`-` on a terminal) is read only when waited for, so the
// note and the terminal's answer never take each other's bytes.
func LoadAsync(path string, stdin io.Reader) func() (*Note, error) {
	if f, ok := stdin.(*os.File); path == "-" && ok && f != nil && term.IsTerminal(f.Fd()) {
		return func() (*Note, error) { return Load(path, stdin) }
	}
	type loaded struct {
		n   *Note
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		n, err := Load(path, stdin)
		done <- loaded{n, err}
	}()
	return func() (*Note, error) {
		l := <-done
		return l.n, l.err
	}
}

// decoded returns n with its source replaced by its UTF-8 text (see
// DecodeText). A note that is Latin-1 is refused as such; one that is
// UTF-8 but for a few bad byte sequences is read with each shown as
// U+FFFD and one warning (repairUTF8); what is mostly not text is
// refused as "NAME looks like a binary file".
func decoded(n *Note, name string) (*Note, error) {
	text, ok := DecodeText(n.Source)
	if !ok && looksLatin1(n.Source) {
		return nil, errorf("%s is not UTF-8 but reads as Latin-1 (ISO-8859-1) text; markii reads UTF-8: iconv -f latin1 -t utf-8 converts it", name)
	}
	if !ok {
		fixed, bad, isText := repairUTF8(n.Source)
		if !isText {
			return nil, errorf("%s looks like a binary file", name)
		}
		text = fixed
		n.Warnings = append(n.Warnings, fmt.Sprintf("%s has %d byte sequence(s) that are not UTF-8; they show as U+FFFD", name, bad))
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
		return nil, errors.New(OSReason(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, errors.New(OSReason(err))
	}
	if info.Mode().Type()&^(fs.ModeNamedPipe|fs.ModeCharDevice) != 0 {
		return nil, errors.New("it is not a regular file or a pipe")
	}
	if info.Size() > MaxNoteBytes {
		return nil, fmt.Errorf("it is %d bytes, over the %d MiB limit for a note", info.Size(), MaxNoteBytes>>20)
	}
	// Sized from the file, so a long note is read into one buffer rather
	// than copied through ever larger ones, on huge pages where the
	// system gives them (a 10 MB note then reads several times faster).
	buf := bytes.NewBuffer(bigbuf.Make(int(info.Size()) + bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxNoteBytes+1)); err != nil {
		return nil, errors.New(OSReason(err))
	}
	src := buf.Bytes()
	if len(src) > MaxNoteBytes {
		return nil, fmt.Errorf("it grew over the %d MiB limit for a note while being read", MaxNoteBytes>>20)
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
	case errors.Is(err, bundle.ErrNoManifest) && isDir(path):
		return errorf("%s is a folder without %s, not a bundle; markii view %s lists the notes in it", path, bundle.ManifestName, path)
	case errors.As(err, &ae), errors.As(err, &me), errors.As(err, &md), errors.Is(err, bundle.ErrNoManifest):
		return errorf("%s", err.Error())
	}
	return errorf("cannot read %s: %s", path, OSReason(err))
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// OSReason is an operating-system error without Go's "op path:" prefix.
func OSReason(err error) string { return oserr.Cause(err).Error() }

// FileURL is the file:// URL of an absolute path.
func FileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Error is a note or values file that could not be read: one line,
// naming the file. Err, when set, is the cause.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

func errorf(format string, a ...any) error {
	err := fmt.Errorf(format, a...)
	return &Error{Msg: err.Error(), Err: errors.Unwrap(err)}
}
