//go:build unix && !linux

package isolate

import (
	"os"
	"syscall"
)

func executable() (string, error) { return os.Executable() }

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the worker's whole process group.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// pipeTransport reports whether the worker's protocol pipes can be passed
// as extra descriptors.
const pipeTransport = true

func exitUsageOf(ps *os.ProcessState) exitUsage {
	u := exitUsage{cpu: ps.UserTime() + ps.SystemTime()}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
		u.signaled = ws.Signaled()
	}
	return u
}

// awaitExit returns at once here: without waitid's WNOWAIT the group kill
// keeps a small window in which a reaped worker's pid could be reused.
func awaitExit(int) {}

// residentBytes is not read on this platform.
func residentBytes(int) int64 { return 0 }
