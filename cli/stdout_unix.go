//go:build unix

package cli

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// closedAtStart reports whether f is a standard stream that was closed
// when markii started. Go's runtime then opens /dev/null in its place,
// read-write, so writes would vanish without an error; a shell's own
// redirection to /dev/null opens it for writing only.
func closedAtStart(f *os.File) bool {
	fd := int(f.Fd())
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil || flags&unix.O_ACCMODE != unix.O_RDWR {
		return false
	}
	var st, null unix.Stat_t
	if unix.Fstat(fd, &st) != nil || unix.Stat(os.DevNull, &null) != nil {
		return false
	}
	return st.Rdev == null.Rdev && st.Mode&unix.S_IFMT == unix.S_IFCHR
}

// closedWriter is a standard stream that was closed: every write fails
// as it would have, with EBADF.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "standard output", Err: syscall.EBADF}
}
