//go:build unix && !linux

package isolate

import (
	"os"
	"syscall"
)

func executable() (string, error) { return os.Executable() }

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// awaitExit returns at once here: without waitid's WNOWAIT the group kill
// keeps a small window in which a reaped worker's pid could be reused.
func awaitExit(int) {}

// residentBytes is not read on this platform.
func residentBytes(int) int64 { return 0 }
