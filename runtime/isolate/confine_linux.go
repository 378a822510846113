//go:build linux

package isolate

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	seccomparch "github.com/elastic/go-seccomp-bpf/arch"
	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/markii/markii/runtime/script"
)

// Worker process limits. RLIMIT_AS cannot be used for a Go process (its
// address-space reservations exceed any useful cap), RLIMIT_DATA can.
const (
	dataLimit     = 256 << 20
	raceDataLimit = 64 << 30 // race-detector builds only
	goMemoryLimit = 192 << 20
	fileLimit     = 32
)

// deniedSyscalls are refused with EPERM once the worker is confined: every
// way to reach the network, the filesystem, another process or the kernel's
// wider attack surface. The Go runtime needs none of them after start-up.
var deniedSyscalls = []string{
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

// confine applies every protection available on this platform to the
// calling process. It runs in the worker before the first request is read.
func confine() error {
	// time.Local is loaded lazily from /etc/localtime; load it while files
	// can still be opened.
	_ = time.Now().Local()

	runTimeSeconds := uint64(cpuSeconds(script.Ceiling.RunTime))
	data := uint64(dataLimit)
	if raceBuild {
		data = raceDataLimit
	}
	limits := []struct {
		resource int
		value    uint64
		name     string
	}{
		{unix.RLIMIT_DATA, data, "RLIMIT_DATA"},
		{unix.RLIMIT_CPU, runTimeSeconds, "RLIMIT_CPU"},
		{unix.RLIMIT_NOFILE, fileLimit, "RLIMIT_NOFILE"},
		{unix.RLIMIT_FSIZE, 0, "RLIMIT_FSIZE"},
		{unix.RLIMIT_CORE, 0, "RLIMIT_CORE"},
		{unix.RLIMIT_MEMLOCK, 0, "RLIMIT_MEMLOCK"},
	}
	for _, l := range limits {
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: l.value, Max: l.value}); err != nil {
			return fmt.Errorf("set %s: %w", l.name, err)
		}
	}
	debug.SetMemoryLimit(goMemoryLimit)

	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("clear dumpable: %w", err)
	}
	// Landlock with no rules: no file access and no TCP bind or connect at
	// all, plus signal and abstract-socket scoping where the kernel has them.
	if landlockABI() > 0 {
		if err := landlock.V11.BestEffort().Restrict(); err != nil {
			return fmt.Errorf("landlock: %w", err)
		}
	}
	if err := loadSeccomp(); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return nil
}

// lowerCPULimit tightens RLIMIT_CPU to the run's own budget once the request
// is known. It must run before the seccomp filter forbids setrlimit, so the
// worker calls prlimit, which stays allowed only for lowering its own limit.
func lowerCPULimit(runTime time.Duration) {
	seconds := uint64(cpuSeconds(runTime))
	_ = unix.Prlimit(0, unix.RLIMIT_CPU, &unix.Rlimit{Cur: seconds, Max: seconds}, nil)
}

func loadSeccomp() error {
	pid := uint64(os.Getpid())
	filter := seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, Names: deniedSyscalls},
				{
					Action: seccomp.ActionErrno,
					NamesWithCondtions: []seccomp.NameWithConditions{
						// clone is allowed only for new threads of this process.
						{Name: "clone", Conditions: seccomp.ArgumentConditions{
							{Argument: 0, Operation: seccomp.BitsNotSet, Value: unix.CLONE_THREAD},
						}},
						// Signals only to this process's own threads.
						{Name: "tgkill", Conditions: seccomp.ArgumentConditions{
							{Argument: 0, Operation: seccomp.NotEqual, Value: pid},
						}},
					},
				},
				// clone3 passes its flags in memory a filter cannot read;
				// ENOSYS makes the C library fall back to clone.
				{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
			},
		},
	}
	if err := seccomp.LoadFilter(filter); err != nil {
		return err
	}
	return loadArchFilter()
}

// archFilter refuses every system call made through another architecture's
// calling convention (on amd64, the 32-bit int 0x80 entry). The filter
// above only matches the native architecture and lets others through, and
// their call numbers differ, so without this a native-code escape could
// reach denied calls by their 32-bit numbers.
func archFilter() ([]bpf.RawInstruction, error) {
	native, err := seccomparch.GetInfo("")
	if err != nil {
		return nil, err
	}
	return bpf.Assemble([]bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(native.ID), SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW},
	})
}

func loadArchFilter() error {
	raw, err := archFilter()
	if err != nil {
		return err
	}
	filters := make([]unix.SockFilter, len(raw))
	for i, in := range raw {
		filters[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filters)), Filter: &filters[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filters)
	if errno != 0 {
		return fmt.Errorf("architecture filter: %w", errno)
	}
	return nil
}

func landlockABI() int {
	v, err := llsyscall.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// MissingProtections lists the protections of the isolate this platform
// cannot give. It is empty when every one is in place; the caller prints a
// non-empty list once, plainly, so a weaker isolate is never presented as
// an equivalent one.
func MissingProtections() []string {
	var missing []string
	if !seccomp.Supported() {
		missing = append(missing, "system-call filter (seccomp): the script worker could reach the network and files if the Lua sandbox were broken")
	}
	if landlockABI() == 0 {
		missing = append(missing, "Landlock: the kernel does not offer it, so the seccomp filter is the only filesystem and network barrier")
	}
	return missing
}
