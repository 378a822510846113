//go:build windows

package state

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

const lockOpenFlags = 0

// tryLock takes an exclusive LockFileEx lock on f's first byte without
// waiting; ok is false when another handle holds it.
func tryLock(f *os.File) (bool, error) {
	ol := new(windows.Overlapped)
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return false, err
}

// syncDir is a no-op: Windows has no directory sync; MoveFileEx commits
// the rename.
func syncDir(string) error { return nil }

func ownedByMe(fs.FileInfo) bool { return true }
