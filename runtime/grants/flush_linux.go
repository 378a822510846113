//go:build linux

package grants

import (
	"os"

	"golang.org/x/sys/unix"
)

// discardPending drops input the terminal has received but no one has
// read yet (tcflush TCIFLUSH). A file that is not a terminal is left
// alone.
func discardPending(f *os.File) {
	_ = unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH)
}
