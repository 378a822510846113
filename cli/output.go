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
	info, err := os.Stat(path) // follows symbolic links
	if errors.Is(err, fs.ErrNotExist) {
		return t.missing()
	}
	if err != nil {
		return t, cannotWrite(path, osReason(err))
	}
	if input != "-" {
		if in, err := os.Stat(input); err == nil && os.SameFile(in, info) {
			return t, failf("could not export this note: -o %s is the note itself; choose another file", path)
		}
	}
	return t.ofMode(info.Mode())
}

// cannotWrite is the error of an export that cannot write path.
func cannotWrite(path, reason string) error {
	return failf("could not export this note: cannot write %s: %s", path, reason)
}

// missing is the target when its path names nothing: a new file, unless
// it is a symbolic link to a file that does not exist.
func (t outputTarget) missing() (outputTarget, error) {
	if li, err := os.Lstat(t.path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		return t, cannotWrite(t.path, "it is a symbolic link to a file that does not exist")
	}
	t.kind = toNewFile
	return t, nil
}

// ofMode is the target when its path names a file of mode: a regular
// file (through its links), a character device or a named pipe.
func (t outputTarget) ofMode(mode fs.FileMode) (outputTarget, error) {
	switch {
	case mode.IsRegular():
		path, err := filepath.EvalSymlinks(t.path)
		if err != nil {
			return t, cannotWrite(t.named, osReason(err))
		}
		t.path, t.kind, t.perm = path, toRegularFile, mode.Perm()
	case mode&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		t.kind, t.pipe = inPlace, mode&fs.ModeNamedPipe != 0
	case mode.IsDir():
		return t, cannotWrite(t.named, "it is a directory")
	default:
		return t, cannotWrite(t.named, "it is not a regular file, a character device or a pipe")
	}
	return t, nil
}

// write writes data to the target: stdout through stdout; a device or a
// pipe in place; a regular file by writing a temporary sibling and
// renaming it over the target, so a failed export never leaves half a
// file. A new file's permissions follow the umask; a replaced file keeps
// its own.
func (t outputTarget) write(data []byte, stdout io.Writer) error {
	var err error
	switch t.kind {
	case toStdout:
		err = writeBuffered(stdout, data)
	case inPlace:
		err = t.writeInPlace(data)
	default:
		err = t.replace(data)
	}
	if err == nil {
		return nil
	}
	if t.kind == toStdout {
		return failf("could not export this note: %s", osReason(err))
	}
	return cannotWrite(t.named, osReason(err))
}

// writeBuffered writes data to w through a buffer.
func writeBuffered(w io.Writer, data []byte) error {
	bw := bufio.NewWriter(w)
	if _, err := bw.Write(data); err != nil {
		return err
	}
	return bw.Flush()
}

// replace writes data to a temporary sibling of the target and renames
// it over the target, a new file or a regular file whose permissions it
// keeps.
func (t outputTarget) replace(data []byte) error {
	perm := fs.FileMode(0o666) // less the umask, which the kernel applies
	if t.kind == toRegularFile {
		perm = t.perm
	}
	tmp, err := createSibling(t.path, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil && t.kind == toRegularFile {
		// Set exactly, past the umask the creation went through.
		err = tmp.Chmod(perm)
	}
	return closeThen(tmp, err, func() error { return os.Rename(tmp.Name(), t.path) })
}

// closeThen closes f after err, the outcome of writing it, and does then
// if both went well; it returns the first error.
func closeThen(f *os.File, err error, then func() error) error {
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && then != nil {
		err = then()
	}
	return err
}

// writeInPlace writes a character device or a named pipe without creating,
// truncating or replacing it. A pipe is opened without waiting for a
// reader, so an export to a pipe nobody reads fails at once instead of
// hanging; the file is checked again once open, so a path swapped for a
// regular file meanwhile is refused rather than overwritten in place.
func (t outputTarget) writeInPlace(data []byte) error {
	flag := os.O_WRONLY
	if t.pipe {
		flag |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(t.path, flag, 0)
	if t.pipe && errors.Is(err, syscall.ENXIO) {
		return errors.New("it is a pipe that no process is reading")
	}
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err == nil && info.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) == 0 {
		err = errors.New("it changed into something other than a device or a pipe")
	}
	if err == nil {
		_, err = f.Write(data)
	}
	return closeThen(f, err, nil)
}

// createSibling is safewrite.Sibling.
func createSibling(path string, perm fs.FileMode) (*os.File, error) {
	return safewrite.Sibling(path, perm)
}
