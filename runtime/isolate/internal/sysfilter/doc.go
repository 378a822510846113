// Package sysfilter is the isolate worker's system-call filter on Linux:
// the seccomp program that enforces the policy of package policy, the
// filter that refuses foreign system-call conventions, and loading both on
// every thread. On amd64 the program is assembled ahead of time (the tests
// check it against go-seccomp-bpf and regenerate it with -update), so a
// worker neither runs that library's package initialisation nor assembles
// anything when it starts; on other architectures it is assembled at start.
package sysfilter
