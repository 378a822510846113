//go:build linux

package sysfilter

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Load installs the policy's filter on every thread of the calling
// process, for the process with the given pid (tgkill may signal only it).
// The caller has set no_new_privs.
func Load(pid int) error {
	prog, err := Program(uint32(pid))
	if err != nil {
		return err
	}
	return install(prog, "system-call filter")
}

// LoadArchFilter installs a filter that refuses every system call made
// through another architecture's calling convention (on amd64, the 32-bit
// int 0x80 entry). The policy's filter only matches the native
// architecture and lets others through, and their call numbers differ, so
// without this a native-code escape could reach denied calls by their
// 32-bit numbers.
func LoadArchFilter() error {
	prog, err := ArchProgram()
	if err != nil {
		return err
	}
	return install(prog, "architecture filter")
}

// ArchProgram is the filter LoadArchFilter installs.
func ArchProgram() ([]unix.SockFilter, error) {
	native, err := NativeArch()
	if err != nil {
		return nil, err
	}
	return []unix.SockFilter{
		{Code: bpfLdWAbs, K: archOffset},
		{Code: bpfJeqK, Jt: 1, Jf: 0, K: native},
		{Code: bpfRetK, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		{Code: bpfRetK, K: unix.SECCOMP_RET_ALLOW},
	}, nil
}

// Classic BPF opcodes and the seccomp_data offset the filters use.
const (
	bpfLdWAbs  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeqK    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfRetK    = unix.BPF_RET | unix.BPF_K
	archOffset = 4 // seccomp_data.arch
)

func install(prog []unix.SockFilter, what string) error {
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return fmt.Errorf("%s: %w", what, errno)
	}
	return nil
}

// Supported reports whether the kernel offers seccomp filters: strict mode
// with a non-zero flag is refused with EINVAL exactly when the call exists
// and is allowed.
func Supported() bool {
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_STRICT, 1, 0)
	return errno == unix.EINVAL
}
