// Package policy is the isolate worker's system-call policy on Linux and
// its assembly into a seccomp program with go-seccomp-bpf. The worker links
// it only on architectures without a program assembled ahead of time.
package policy
