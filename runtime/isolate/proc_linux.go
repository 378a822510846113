//go:build linux

package isolate

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// executable is the binary the worker is started from: the running file
// itself, even if its path was replaced or the working directory changed.
func executable() (string, error) { return "/proc/self/exe", nil }

// sysProcAttr puts the worker in its own process group and kills it if the
// host dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// awaitExit blocks until the process has exited, without reaping it.
func awaitExit(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}

// residentBytes is a live process's resident size, or 0 if it cannot be
// read.
func residentBytes(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	defer f.Close()
	var buf [128]byte
	n, _ := f.Read(buf[:])
	fields := strings.Fields(string(buf[:n]))
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
