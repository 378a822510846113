package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/markii/markii/internal/safewrite"
)

// maxSnapshotBytes caps a snapshot file read back.
const maxSnapshotBytes = 64 << 20

// slicesSort sorts strings.
func slicesSort(s []string) { slices.Sort(s) }

// errNotRegular is a path that holds something other than a regular file.
type notRegularError struct{ what string }

func (e *notRegularError) Error() string { return "it is " + e.what + ", not a regular file" }

// describe names a file type for a message.
func describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// readRegular reads the regular file at path, at most max bytes, never
// following a symbolic link at path and never opening a pipe or a
// device. A missing file is an error matching fs.ErrNotExist.
func readRegular(path string, max int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &notRegularError{describe(fi.Mode())}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(fi, after) {
		return nil, errors.New("it changed while it was being opened")
	}
	if after.Size() > max {
		return nil, fmt.Errorf("it is larger than %d bytes", max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("it is larger than %d bytes", max)
	}
	return data, err
}

// snapDir returns the snapshot folder of the note folder dir, creating it
// when create is set. It must be a real folder in dir: a symbolic link
// there (which could lead a write out of the folder) or any other kind of
// file is refused.
func snapDir(dir string, create bool) (string, bool, error) {
	path := filepath.Join(dir, Dir)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return path, false, nil
		}
		if err := os.Mkdir(path, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return path, false, fmt.Errorf("cannot create the snapshot folder %s: %w", path, err)
		}
		fi, err = os.Lstat(path)
	}
	if err != nil {
		return path, false, fmt.Errorf("cannot read the snapshot folder %s: %w", path, err)
	}
	if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
		return path, false, fmt.Errorf("the snapshot folder %s is %s, not a folder; nothing is written there", path, describe(fi.Mode()))
	}
	return path, true, nil
}

// writeSnapshot replaces (or creates) the file name in the snapshot
// folder dir with data, as a temporary sibling renamed over it. What is
// at the path must be nothing or a regular file: a symbolic link, a named
// pipe, a device or a folder is refused.
func writeSnapshot(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	if filepath.Dir(path) != filepath.Clean(dir) {
		return fmt.Errorf("cannot write %s: it is not directly in %s", path, dir)
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("cannot write %s: %w", path, &notRegularError{describe(fi.Mode())})
	}
	if err := safewrite.Replace(path, data, 0o666); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// removeSnapshot removes name from the snapshot folder dir if it is a
// regular file (a missing one is not an error).
func removeSnapshot(dir, name string) error {
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("cannot remove %s: %w", path, &notRegularError{describe(fi.Mode())})
	}
	return os.Remove(path)
}
