//go:build linux

package isolate

import (
	"encoding/binary"
	"testing"

	seccomparch "github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// TestArchFilterRefusesForeignConventions runs the architecture filter in
// a BPF interpreter over seccomp_data records: a native call passes, a call
// made through the 32-bit convention is refused.
func TestArchFilterRefusesForeignConventions(t *testing.T) {
	raw, err := archFilter()
	if err != nil {
		t.Fatal(err)
	}
	prog, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatal("the filter does not disassemble")
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	native, _ := seccomparch.GetInfo("")
	data := func(nr int32, arch uint32) []byte {
		b := make([]byte, 64) // struct seccomp_data
		binary.NativeEndian.PutUint32(b[0:], uint32(nr))
		binary.BigEndian.PutUint32(b[4:], arch) // the VM loads big-endian
		return b
	}
	verdict := func(b []byte) uint32 {
		// The VM returns the accepted length; a filter's return value is
		// its verdict, which the VM reports as that length.
		n, err := vm.Run(b)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(n)
	}
	if got := verdict(data(39, uint32(native.ID))); got&unix.SECCOMP_RET_ACTION_FULL != unix.SECCOMP_RET_ALLOW {
		t.Errorf("native call: verdict %#x, want allow", got)
	}
	for _, foreign := range []uint32{uint32(seccomparch.I386.ID), uint32(seccomparch.ARM.ID)} {
		if foreign == uint32(native.ID) {
			continue
		}
		if got := verdict(data(20, foreign)); got&unix.SECCOMP_RET_ACTION_FULL != unix.SECCOMP_RET_ERRNO {
			t.Errorf("call through arch %#x: verdict %#x, want errno", foreign, got)
		}
	}
}
