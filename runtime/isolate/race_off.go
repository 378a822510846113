//go:build !race

package isolate

// raceBuild is set in binaries built with the race detector, whose shadow
// memory needs far more address space than a worker's data limit allows.
const raceBuild = false
