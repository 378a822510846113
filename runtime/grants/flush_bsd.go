//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package grants

import (
	"os"

	"golang.org/x/sys/unix"
)

// discardPending drops input the terminal has received but no one has
// read yet (tcflush TCIFLUSH, which is TIOCFLUSH with FREAD here). A file
// that is not a terminal is left alone.
func discardPending(f *os.File) {
	_ = unix.IoctlSetPointerInt(int(f.Fd()), unix.TIOCFLUSH, unix.TCIFLUSH)
}
