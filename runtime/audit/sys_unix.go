//go:build unix

package audit

import "golang.org/x/sys/unix"

// openFlags refuse a symbolic link at the trail's path and never wait on
// a pipe.
const openFlags = unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
