//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openFlags keep an open from waiting for a pipe's writer or a device.
const openFlags = syscall.O_NONBLOCK | syscall.O_CLOEXEC

const noFollowFlag = syscall.O_NOFOLLOW

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
