package gctune

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// While a layout runs, the soft limit follows what is live: a note
// parsed whole holds its whole tree until the layout ends, and under a
// limit fitted only then the collector ran without pause.
func TestFollowMemoryRaisesTheLimitWhileALayoutRuns(t *testing.T) {
	v, restore := ForViewer(1<<20, func(string) string { return "" })
	defer restore()
	before := debug.SetMemoryLimit(-1)
	done := v.Layout()
	var keep [][]byte
	for range 96 {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.GC()
	time.Sleep(10 * followEvery)
	done()
	if after := debug.SetMemoryLimit(-1); after < 96<<20 {
		t.Fatalf("with 96 MB live the limit stayed at %d MB (it was %d MB)", after>>20, before>>20)
	}
	runtime.KeepAlive(keep)
}

// A limit the user set with GOMEMLIMIT is left alone, and so is the
// process's limit once the session that set it has restored it.
func TestViewerLeavesTheUsersLimitAlone(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	v, restore := ForViewer(1<<20, func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	})
	v.Layout()()
	restore()
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Fatalf("with GOMEMLIMIT set the limit went from %d to %d", before, after)
	}
	_, restore = ForViewer(1<<20, func(string) string { return "" })
	if debug.SetMemoryLimit(-1) == before {
		t.Fatal("a viewer session left the limit as it was")
	}
	restore()
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Fatalf("restore left the limit at %d, not %d", after, before)
	}
}

// Only this package changes the collector's settings for the process,
// and only the program's entry points (main and cli) call it: a library
// package that wants another setting takes it as an option.
func TestOnlyTheEntryPointsSetTheCollector(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const self = "github.com/markii/markii/internal/gctune"
	setters := map[string]bool{"SetGCPercent": true, "SetMemoryLimit": true}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		dir := filepath.ToSlash(filepath.Dir(rel))
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == self && dir != "." && dir != "cli" {
				t.Errorf("%s imports gctune: only main and cli decide the collector's settings", rel)
			}
		}
		if dir == "internal/gctune" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && setters[sel.Sel.Name] {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "debug" {
					t.Errorf("%s: debug.%s outside internal/gctune", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not at %s: %v", root, err)
	}
}
