//go:build !linux

package isolate

import (
	"time"
)

// confine applies what this platform offers: only the Go memory limit,
// which the program sets before the worker starts (WorkerMemoryLimit). The
// watchdog, the empty environment and the pipe-only protocol still hold.
func confine() error {
	_ = time.Now().Local()
	return nil
}

func lowerCPULimit(time.Duration) {}

// MissingProtections lists the protections of the isolate this platform
// cannot give. The caller prints the list once, plainly, so a weaker
// isolate is never presented as an equivalent one.
func MissingProtections() []string {
	if !pipeTransport {
		return []string{"the script isolate itself: scripts cannot run on this platform yet"}
	}
	return []string{
		"system-call filter: the script worker could reach the network and files if the Lua sandbox were broken",
		"kernel memory cap (RLIMIT_DATA): a runaway allocation is stopped only by the heap monitor and the watchdog",
		"CPU-time cap (RLIMIT_CPU): only the wall-clock watchdog ends a busy worker",
		"no-new-processes and no-new-privileges restrictions",
	}
}
