//go:build unix

package isolate

import (
	"os"
	"syscall"
)

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
