//go:build unix

package bundle

import (
	"errors"
	"io/fs"
	"syscall"
)

// Open flags: never follow a final symbolic link, insist on a directory,
// and never block on a FIFO.
const (
	openNoFollow  = syscall.O_NOFOLLOW
	openDirectory = syscall.O_DIRECTORY
	openNonBlock  = syscall.O_NONBLOCK
)

// linkCount is the number of directory entries naming the file.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// isLinkLoop reports whether err came from opening a symbolic link with
// openNoFollow.
func isLinkLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
