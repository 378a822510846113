//go:build linux && amd64

package sysfilter

import "golang.org/x/sys/unix"

// Program is the policy's seccomp program for the process with the given
// pid: the program assembled ahead of time, with the pid written into its
// tgkill comparison.
func Program(pid uint32) ([]unix.SockFilter, error) {
	prog := make([]unix.SockFilter, len(assembled))
	copy(prog, assembled[:])
	for _, i := range pidSlots {
		prog[i].K = pid
	}
	return prog, nil
}

// NativeArch is the AUDIT_ARCH value of this architecture.
func NativeArch() (uint32, error) { return unix.AUDIT_ARCH_X86_64, nil }
