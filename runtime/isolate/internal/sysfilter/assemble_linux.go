//go:build linux && !amd64

package sysfilter

import (
	"golang.org/x/sys/unix"

	"github.com/markii/markii/runtime/isolate/internal/sysfilter/policy"
)

// Program is the policy's seccomp program for the process with the given
// pid, assembled now: this architecture has no program assembled ahead of
// time.
func Program(pid uint32) ([]unix.SockFilter, error) {
	raw, err := policy.Assemble(pid)
	if err != nil {
		return nil, err
	}
	prog := make([]unix.SockFilter, len(raw))
	for i, in := range raw {
		prog[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	return prog, nil
}

// NativeArch is the AUDIT_ARCH value of this architecture.
func NativeArch() (uint32, error) { return policy.NativeArch() }
