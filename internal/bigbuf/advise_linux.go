package bigbuf

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the architectures Go
// supports on Linux that have them in common use (x86-64, arm64 with 4 KB
// base pages).
const hugePage = 2 << 20

// adviseHuge asks for huge pages over the whole huge pages inside b,
// before anything touches them. The advice is best-effort: an error (an
// old kernel, THP turned off) leaves the memory as it was.
func adviseHuge(b []byte) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from := int((start+hugePage-1)&^(hugePage-1) - start)
	to := len(b) - int((start+uintptr(len(b)))&(hugePage-1))
	if from < to {
		_ = unix.Madvise(b[from:to], unix.MADV_HUGEPAGE)
	}
}
