//go:build windows

package isolate

import (
	"os"
	"syscall"
)

func executable() (string, error) { return os.Executable() }

func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup has nothing to do: Windows has no process groups to signal.
func killGroup(int) {}

// pipeTransport reports whether the worker's protocol pipes can be passed
// as extra descriptors. Windows cannot pass them.
const pipeTransport = false

func exitUsageOf(ps *os.ProcessState) exitUsage {
	return exitUsage{cpu: ps.UserTime() + ps.SystemTime()}
}

func awaitExit(int) {}

// residentBytes is not read on this platform.
func residentBytes(int) int64 { return 0 }
