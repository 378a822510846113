// Package isolate runs a note's scripts in a child process that the host
// can always kill.
//
// A worker is the markii binary started again with a hidden argument and
// dispatched by main before anything else (IsWorker, WorkerMain). It gets an
// empty environment, no descriptors but its two protocol pipes (fd 3 for
// the host's messages, fd 4 for its own), its own process group, and is
// killed if the host dies. Before it reads any input it confines itself:
// on Linux RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE 0, a Go
// memory limit, no_new_privs, Landlock with no rules where the kernel has
// it, and a seccomp filter that refuses the network, opening files, new
// processes, signals to others, ptrace, io_uring, bpf and every call made
// through a foreign architecture's convention (on amd64 the filter program
// is assembled ahead of time, see internal/sysfilter). MissingProtections
// says which of these a platform lacks. The worker then serves exactly one
// run, says "done" and waits for the host to end it (exiting by itself if
// the host does not); every capability a script uses (network, bundle
// files, the cache, module sources) is a request to the host, which
// performs it.
//
// Latency: a pool keeps one confined worker idle (Prewarm). Before it says
// it is ready, that worker runs a fixed script, encodes and decodes one
// message of each kind and touches the heap it will use, so a run does not
// pay a fresh process's first-use costs.
//
// The wire is length-prefixed JSON frames of at most MaxFrame bytes; a run
// request's script sources follow its JSON raw, up to MaxRunFrame. Every
// message carries ProtocolVersion, the run's id and its kind's tag; each
// kind is one Go type whose fields are its exact key allowlist, and a
// frame is read once, key by key, against its kind and direction (see
// kinds and decodeMessage); a message that fails is a protocol violation
// and the receiving side stops trusting its peer.
// Limits travel in the request already clamped; the worker refuses one
// outside the ceiling and the engine clamps again.
//
// On the host, Run (or Pool.Run) arms a wall-clock watchdog for the whole
// run, watches the worker's heartbeat, streams outcomes as they arrive,
// and settles exactly once. A run that is stopped keeps the outcomes that
// reached the host first; the other scripts get limit (timeout or memory)
// or crashed, decided from the host's own records: its timers, the
// protocol messages it accepted, the resident size it reads for the worker
// from the kernel during the run, and the kernel's account of the worker's
// exit. Capability refusals are recorded where the host made them.
package isolate
