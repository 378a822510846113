package snapshottest_test

import (
	"os"
	"path/filepath"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/snapshot"
	"github.com/markii/markii/snapshot/snapshottest"
)

// A Go project keeps its notes' snapshots with its tests: Check renders
// every note under the folder in each variant of its matrix and fails the
// test with a readable diff when one changed; `go test -update` writes
// them.
func ExampleCheck() {
	t := &testing.T{} // in a real test, the test's own t
	dir, _ := os.MkdirTemp("", "notes")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "intro.mk.md"), []byte("# Intro\n\nHello.\n"), 0o644)

	snapshottest.Check(t, dir, snapshottest.CheckOptions{
		Matrix: snapshot.Matrix{Widths: []int{60}},
	})
}

// TestCheckFailsThenPasses: Check fails on new snapshots and passes once
// they are stored.
func TestCheckFailsThenPasses(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "n.mk.md"), []byte("# N\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t}
	snapshottest.Check(rec, dir, snapshottest.CheckOptions{})
	if !rec.failed {
		t.Fatal("Check passed without snapshots")
	}
	for _, p := range snapshot.Pending([]string{dir}) {
		if err := snapshot.Accept(p); err != nil {
			t.Fatal(err)
		}
	}
	rec = &recorder{TB: t}
	snapshottest.Check(rec, dir, snapshottest.CheckOptions{})
	if rec.failed {
		t.Fatal("Check failed on accepted snapshots")
	}
}

// recorder is a testing.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(string, ...any)     { r.failed = true }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = true }
