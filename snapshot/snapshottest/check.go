// Package snapshottest checks a Go project's notes against their markii
// snapshots from its own tests: the same files, matrix and configuration
// as `markii snapshot`, and the usual `go test -update` to write them.
package snapshottest

import (
	"context"
	"flag"
	"strings"
	"testing"

	"github.com/markii/markii/snapshot"
)

// The -update flag of `go test`, shared with any other golden helper that
// defines it first.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and markii snapshots instead of comparing with them")
	}
}

// updating reports whether the test run was given -update.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// CheckOptions configure Check.
type CheckOptions struct {
	// Matrix replaces axes of the note folder's matrix, as the command's
	// flags do.
	Matrix snapshot.Matrix
	// CheckDeterminism also renders each variant under a scrambled
	// environment.
	CheckDeterminism bool
}

// Check checks the notes under path (a note, a bundle or a folder) against
// their snapshots, exactly as `markii snapshot` does (the same files,
// matrix and configuration), and fails t with the readable diff of every
// snapshot that changed, is new or could not be checked. `go test -update`
// writes new and changed snapshots instead.
func Check(t testing.TB, path string, opt CheckOptions) {
	t.Helper()
	r, err := snapshot.Run(context.Background(), []string{path}, snapshot.Options{Matrix: opt.Matrix, Update: updating(), CheckDeterminism: opt.CheckDeterminism})
	if err != nil {
		t.Fatalf("markii snapshot %s: %v", path, err)
	}
	if r.OK() {
		return
	}
	var b strings.Builder
	_ = r.WriteText(&b)
	t.Errorf("markii snapshot %s (run go test -update to accept):\n%s", path, b.String())
}
