// Package procmem measures memory for the tests that bound markii's
// against a note's size or against a peer such as less: a process's peak
// resident memory from the kernel, and this process's live Go heap.
package procmem

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Peak returns the peak resident memory (VmHWM) of process pid in bytes;
// pid 0 is the calling process. It reads /proc, so it fails where there
// is none.
func Peak(pid int) (int64, error) {
	path := "/proc/self/status"
	if pid != 0 {
		path = fmt.Sprintf("/proc/%d/status", pid)
	}
	status, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: VmHWM %q: %w", path, f[1], err)
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New(path + " has no VmHWM line")
}

// LiveHeap returns the bytes of Go heap in use after two full
// collections: what the calling process still holds, without garbage or
// the memory a collection has yet to free.
func LiveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
