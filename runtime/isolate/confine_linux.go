//go:build linux

package isolate

import (
	"fmt"
	"os"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/markii/markii/runtime/isolate/internal/sysfilter"
	"github.com/markii/markii/runtime/script"
)

// Worker process limits. RLIMIT_AS cannot be used for a Go process (its
// address-space reservations exceed any useful cap), RLIMIT_DATA can.
const (
	dataLimit     = 256 << 20
	raceDataLimit = 64 << 30 // race-detector builds only
	fileLimit     = 32
)

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
	// The filter is assembled ahead of time where it can be (see
	// internal/sysfilter), so confinement costs two system calls.
	if err := sysfilter.Load(os.Getpid()); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	if err := sysfilter.LoadArchFilter(); err != nil {
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
	if !sysfilter.Supported() {
		missing = append(missing, "system-call filter (seccomp): the script worker could reach the network and files if the Lua sandbox were broken")
	}
	if landlockABI() == 0 {
		missing = append(missing, "Landlock: the kernel does not offer it, so the seccomp filter is the only filesystem and network barrier")
	}
	return missing
}
