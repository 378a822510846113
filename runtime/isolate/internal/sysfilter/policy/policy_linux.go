//go:build linux

package policy

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	seccomparch "github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// DeniedSyscalls are refused with EPERM once the worker is confined: every
// way to reach the network, the filesystem, another process or the kernel's
// wider attack surface. The Go runtime needs none of them after start-up.
// Besides these, clone is refused unless it creates a thread of this
// process, tgkill unless it signals this process, clone3 with ENOSYS (its
// flags are in memory a filter cannot read; the C library falls back to
// clone), and on amd64 every x32 call with ENOSYS.
var DeniedSyscalls = []string{
	// network
	"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
	"sendto", "sendmsg", "sendmmsg", "recvfrom", "recvmsg", "recvmmsg",
	// filesystem
	"open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
	"truncate", "unlink", "unlinkat", "rename", "renameat", "renameat2",
	"mkdir", "mkdirat", "rmdir", "link", "linkat", "symlink", "symlinkat",
	"chmod", "fchmodat", "chown", "lchown", "fchownat", "mknod", "mknodat",
	"chdir", "chroot", "pivot_root", "mount", "umount2",
	"memfd_create", "inotify_init", "inotify_init1", "fanotify_init",
	// processes
	"execve", "execveat", "fork", "vfork", "ptrace",
	"process_vm_readv", "process_vm_writev", "kill", "tkill",
	"pidfd_open", "pidfd_send_signal", "pidfd_getfd",
	// kernel surface
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
	"unshare", "setns", "kexec_load", "init_module", "finit_module",
	"setuid", "setgid",
}

// Assemble turns the policy into the seccomp program for the process with
// the given pid, for the architecture this binary runs on.
func Assemble(pid uint32) ([]bpf.RawInstruction, error) {
	p := seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Action: seccomp.ActionErrno, Names: DeniedSyscalls},
			{
				Action: seccomp.ActionErrno,
				NamesWithCondtions: []seccomp.NameWithConditions{
					// clone is allowed only for new threads of this process.
					{Name: "clone", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.BitsNotSet, Value: unix.CLONE_THREAD},
					}},
					// Signals only to this process's own threads.
					{Name: "tgkill", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.NotEqual, Value: uint64(pid)},
					}},
				},
			},
			// clone3 passes its flags in memory a filter cannot read;
			// ENOSYS makes the C library fall back to clone.
			{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
		},
	}
	insts, err := p.Assemble()
	if err != nil {
		return nil, err
	}
	return bpf.Assemble(insts)
}

// NativeArch is the AUDIT_ARCH value of the architecture this binary runs
// on.
func NativeArch() (uint32, error) {
	info, err := seccomparch.GetInfo("")
	if err != nil {
		return 0, err
	}
	return uint32(info.ID), nil
}
