//go:build linux

package isolate

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// probeConfinement tries, from inside a confined worker, everything the
// confinement must refuse, and reports each result as the error's text or
// "allowed". It also checks that the worker can still start threads.
func probeConfinement() map[string]string {
	res := map[string]string{}
	name := func(err error) string {
		if err == nil {
			return "allowed"
		}
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return errno.Error()
		}
		return err.Error()
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	res["socket"] = name(err)
	if err == nil {
		unix.Close(fd)
	}
	res["connect"] = name(unix.Connect(1, &unix.SockaddrInet4{Port: 80, Addr: [4]byte{127, 0, 0, 1}}))
	f, err := os.Open("/proc/self/status")
	res["open"] = name(err)
	if err == nil {
		f.Close()
	}
	fd, err = unix.Openat(unix.AT_FDCWD, "/", unix.O_RDONLY|unix.O_DIRECTORY, 0)
	res["openat"] = name(err)
	if err == nil {
		unix.Close(fd)
	}
	res["creat"] = name(os.WriteFile("/tmp/markii-isolate-probe", []byte("x"), 0o600))
	res["execve"] = name(syscall.Exec("/bin/true", []string{"true"}, nil))
	res["exec"] = name(exec.Command("/bin/true").Run())
	// A raw fork: should it ever succeed, the child leaves at once.
	pid, _, errno := syscall.RawSyscall(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0)
	switch {
	case errno != 0:
		res["fork"] = errno.Error()
	case pid == 0:
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	default:
		res["fork"] = "allowed"
	}
	res["kill-parent"] = name(unix.Kill(os.Getppid(), 0))
	res["tgkill-parent"] = name(unix.Tgkill(os.Getppid(), os.Getppid(), 0))
	// A goroutine locked to its thread and then ended retires that thread,
	// so the next locked goroutine needs a new one: clone for threads works.
	threads := make(chan string)
	for i := 0; i < 2; i++ {
		go func() {
			runtime.LockOSThread()
			threads <- "ok"
		}()
		res["thread"] = <-threads
	}
	return res
}
