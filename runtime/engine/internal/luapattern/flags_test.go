package luapattern

import "flag"

// The golden files are rewritten with `go test ./... -update`; every test
// package accepts the flag so that the command works from the module root.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files (used by the goldens package)")
	}
}
