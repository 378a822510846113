package cli

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/markii/markii/internal/safewrite"
)

// outputKind is what an -o path names.
type outputKind int

const (
	// toStdout is "-": the command's standard output.
	toStdout outputKind = iota
	// toNewFile is a path where nothing is yet: a regular file is created.
	toNewFile
	// toRegularFile is an existing regular file (perhaps through a symbolic
	// link): it is replaced as a whole and keeps its permissions.
	toRegularFile
	// inPlace is a character device or a named pipe: it is written as it
	// is, never replaced.
	inPlace
)

// outputTarget is the resolved destination of -o.
type outputTarget struct {
	kind outputKind
	// path is the file to write: for a regular file, the symbolic links'
	// final target, so that the link stays a link.
	path string
	// perm is an existing regular file's permission bits.
	perm fs.FileMode
	// pipe marks a named pipe written in place.
	pipe bool
	// named is the path as the user gave it, for messages.
	named string
}

// reachesTerminal reports whether what is written may be shown as it
// arrives (stdout, a device, a pipe), so text written there must carry no
// control character of its own.
func (t outputTarget) reachesTerminal() bool { return t.kind == toStdout || t.kind == inPlace }

// resolveOutput decides how -o path is written, refusing before anything
// is read or rendered what cannot be written safely: the input note itself
// (input is its path, "-" for stdin), a directory, a symbolic link to
// nothing, and anything that is not a regular file, a character device or
// a named pipe.
func resolveOutput(path, input string) (outputTarget, error) {
	t := outputTarget{named: path, path: path}
	if path == "-" {
		t.kind = toStdout
		return t, nil
	}
	cannot := func(reason string) error {
		return failf("could not export this note: cannot write %s: %s", path, reason)
	}
	info, err := os.Stat(path) // follows symbolic links
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := os.Lstat(path); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return t, cannot("it is a symbolic link to a file that does not exist")
		}
		t.kind = toNewFile
		return t, nil
	}
	if err != nil {
		return t, cannot(osReason(err))
	}
	if input != "-" {
		if in, err := os.Stat(input); err == nil && os.SameFile(in, info) {
			return t, failf("could not export this note: -o %s is the note itself; choose another file", path)
		}
	}
	switch mode := info.Mode(); {
	case mode.IsRegular():
		if t.path, err = filepath.EvalSymlinks(path); err != nil {
			return t, cannot(osReason(err))
		}
		t.kind, t.perm = toRegularFile, mode.Perm()
	case mode&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		t.kind, t.pipe = inPlace, mode&fs.ModeNamedPipe != 0
	case mode.IsDir():
		return t, cannot("it is a directory")
	default:
		return t, cannot("it is not a regular file, a character device or a pipe")
	}
	return t, nil
}

// write writes data to the target: stdout through stdout; a device or a
// pipe in place; a regular file by writing a temporary sibling and
// renaming it over the target, so a failed export never leaves half a
// file. A new file's permissions follow the umask; a replaced file keeps
// its own.
func (t outputTarget) write(data []byte, stdout io.Writer) error {
	fail := func(err error) error {
		if t.kind == toStdout {
			return failf("could not export this note: %s", osReason(err))
		}
		return failf("could not export this note: cannot write %s: %s", t.named, osReason(err))
	}
	switch t.kind {
	case toStdout:
		w := bufio.NewWriter(stdout)
		if _, err := w.Write(data); err != nil {
			return fail(err)
		}
		if err := w.Flush(); err != nil {
			return fail(err)
		}
		return nil
	case inPlace:
		return t.writeInPlace(data, fail)
	}
	perm := fs.FileMode(0o666) // less the umask, which the kernel applies
	if t.kind == toRegularFile {
		perm = t.perm
	}
	tmp, err := createSibling(t.path, perm)
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil && t.kind == toRegularFile {
		// Set exactly, past the umask the creation went through.
		err = tmp.Chmod(perm)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), t.path)
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// writeInPlace writes a character device or a named pipe without creating,
// truncating or replacing it. A pipe is opened without waiting for a
// reader, so an export to a pipe nobody reads fails at once instead of
// hanging; the file is checked again once open, so a path swapped for a
// regular file meanwhile is refused rather than overwritten in place.
func (t outputTarget) writeInPlace(data []byte, fail func(error) error) error {
	flag := os.O_WRONLY
	if t.pipe {
		flag |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(t.path, flag, 0)
	if t.pipe && errors.Is(err, syscall.ENXIO) {
		return fail(errors.New("it is a pipe that no process is reading"))
	}
	if err != nil {
		return fail(err)
	}
	info, err := f.Stat()
	if err == nil && info.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) == 0 {
		err = errors.New("it changed into something other than a device or a pipe")
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// createSibling is safewrite.Sibling.
func createSibling(path string, perm fs.FileMode) (*os.File, error) {
	return safewrite.Sibling(path, perm)
}
