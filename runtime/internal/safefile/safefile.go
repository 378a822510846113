// Package safefile reads small files that markii keeps for the user (the
// settings, the device state) without ever blocking on or trusting what
// sits at the path: a named pipe, a device, a directory or a symbolic link
// where a regular file belongs is refused with an error naming the file,
// and a file over the caller's size cap is refused before it is read whole.
package safefile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Problem says why a file was refused.
type Problem int

// The reasons a file is refused.
const (
	// NotRegular: something other than a regular file is at the path.
	NotRegular Problem = iota + 1
	// Symlink: a symbolic link is at the path and Options.NoFollow is set.
	Symlink
	// TooLarge: the file is larger than the cap.
	TooLarge
	// ForeignOwner: the file belongs to another user and
	// Options.OwnedByMe is set.
	ForeignOwner
)

// Error is a refused file.
type Error struct {
	Path    string
	Problem Problem
	// Mode is the file's type (NotRegular, Symlink).
	Mode fs.FileMode
	// Limit is the cap that was exceeded (TooLarge).
	Limit int64
}

func (e *Error) Error() string {
	switch e.Problem {
	case Symlink:
		return fmt.Sprintf("%s is a symbolic link, not a regular file", e.Path)
	case TooLarge:
		return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Limit)
	case ForeignOwner:
		return fmt.Sprintf("%s belongs to another user", e.Path)
	}
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Describe(e.Mode))
}

// Describe names a file type for a message: "a named pipe", "a device", …
func Describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// Options adjust what ReadFile accepts.
type Options struct {
	// NoFollow refuses a symbolic link at the path itself.
	NoFollow bool
	// OwnedByMe refuses a file another user owns (Unix only).
	OwnedByMe bool
}

// ReadFile returns the contents of the regular file at path, at most max
// bytes. A missing file is an error matching fs.ErrNotExist; anything that
// is not a regular file, or is larger than max, is an *Error. It never
// blocks on a named pipe or a device: the type is checked before the open
// and again, on the open descriptor, after it (the open itself does not
// wait for a writer).
func ReadFile(path string, max int64, o Options) ([]byte, error) {
	f, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		return nil, &Error{Path: path, Problem: TooLarge, Limit: max}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &Error{Path: path, Problem: TooLarge, Limit: max}
	}
	return data, nil
}

// Open opens the regular file at path for reading with the checks of
// ReadFile.
func Open(path string, o Options) (*os.File, error) {
	stat := os.Stat
	if o.NoFollow {
		stat = os.Lstat
	}
	before, err := stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, before, o); err != nil {
		return nil, err
	}
	flags := os.O_RDONLY | openFlags
	if o.NoFollow {
		flags |= noFollowFlag
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if isLoop(err) {
			return nil, &Error{Path: path, Problem: Symlink, Mode: fs.ModeSymlink}
		}
		return nil, err
	}
	if err := sameCheckedFile(f, path, before, o); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// sameCheckedFile checks the opened f as before was checked, and that it
// is the file before described: not swapped between the check and the
// open.
func sameCheckedFile(f *os.File, path string, before fs.FileInfo, o Options) error {
	after, err := f.Stat()
	if err != nil {
		return err
	}
	if err := check(path, after, o); err != nil {
		return err
	}
	if !os.SameFile(before, after) {
		return fmt.Errorf("%s changed while it was being opened", path)
	}
	return nil
}

func check(path string, fi fs.FileInfo, o Options) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &Error{Path: path, Problem: Symlink, Mode: fi.Mode().Type()}
	}
	if !fi.Mode().IsRegular() {
		return &Error{Path: path, Problem: NotRegular, Mode: fi.Mode().Type()}
	}
	if o.OwnedByMe && !ownedByMe(fi) {
		return &Error{Path: path, Problem: ForeignOwner}
	}
	return nil
}
