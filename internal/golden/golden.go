// Package golden is the one -update switch of markii's tests. Importing
// it defines the -update flag, so that `go test ./... -update` rewrites
// every package's golden files from the module root: a test binary that
// does not define a flag it is given fails. Every test package imports
// it, blank where it has no golden file; goldens'
// TestEveryTestPackageAcceptsUpdate keeps it so.
package golden

import "flag"

// The flag is defined only when no other package has: a library's own
// golden helper (charmbracelet's x/exp/golden, which the viewer's tests
// use) defines -update too, and it is initialized first (packages are
// initialized in import-path order), so both then read the same flag.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files instead of comparing with them (review the diff before committing)")
	}
}

// Update reports whether the test run was asked to rewrite golden files.
func Update() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}
