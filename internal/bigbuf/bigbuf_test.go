package bigbuf

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestMakeHasTheCapacityAskedForAndNoLength(t *testing.T) {
	for _, n := range []int{0, 1, threshold - 1, threshold, 3*threshold + 12345} {
		b := Make(n)
		if len(b) != 0 || cap(b) != n {
			t.Errorf("Make(%d): len %d cap %d", n, len(b), cap(b))
		}
		b = append(b, make([]byte, n)...)
		if len(b) != n {
			t.Errorf("Make(%d): appending %d bytes reallocated to len %d", n, n, len(b))
		}
	}
}

// TestLargeBuffersAreAdvisedForHugePages reads the kernel's map of this
// process: the range of a large buffer must carry the hugepage advice
// (the "hg" flag) on Linux when transparent huge pages can be asked for.
func TestLargeBuffersAreAdvisedForHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the advice is given on Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages are off on this machine")
	}
	b := Make(16 << 20)
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b[:1])))
	mid := addr + 8<<20
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var inRange bool
	for _, line := range strings.Split(string(smaps), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			var lo, hi uintptr
			if _, err := fmt.Sscanf(f[0], "%x-%x", &lo, &hi); err == nil {
				inRange = lo <= mid && mid < hi
			}
			continue
		}
		if inRange && strings.HasPrefix(line, "VmFlags:") {
			if !strings.Contains(line, " hg") {
				t.Fatalf("the buffer's mapping lacks the hugepage advice: %s", line)
			}
			runtime.KeepAlive(b)
			return
		}
	}
	t.Fatal("the buffer's mapping is not in /proc/self/smaps")
}
