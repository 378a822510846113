// Package codeshape holds tests of the shape of markii's own code: they
// read the source, not the program, and keep the house easy to change.
package codeshape

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// Complexity is counted as gocyclo counts it: 1, plus one for each if,
// for, range, non-default case or select case, && and ||; a function
// literal counts in the function that holds it. Test files, generated
// files, testdata and the bench module are not counted.
const (
	// maxAverage bounds the mean over every function.
	maxAverage = 4.2
	// maxComplexity bounds each function, except the exempt ones.
	maxComplexity = 15
)

// exempt are the files whose functions may go past maxComplexity, and why.
var exempt = map[string]string{
	"runtime/engine/internal/luapattern/match.go": "follows Lua's lstrlib.c matcher function for function",
}

func TestComplexityStaysLow(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	count, sum, over, most := 0, 0, 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "bench" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			c := complexity(fn)
			count++
			sum += c
			most = max(most, c)
			if c > maxComplexity {
				over++
			}
			if _, ok := exempt[rel]; c > maxComplexity && !ok {
				t.Errorf("%s: %s has complexity %d, over %d: split it into named steps or tables", fset.Position(fn.Pos()), fn.Name.Name, c, maxComplexity)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count < 1000 {
		t.Fatalf("counted only %d functions; is the walk reading the module?", count)
	}
	avg := float64(sum) / float64(count)
	t.Logf("%d functions: average %.2f, %d (%.2f%%) above %d, the most %d", count, avg, over, 100*float64(over)/float64(count), maxComplexity, most)
	if avg > maxAverage {
		t.Errorf("average complexity %.2f over %d functions, over %.1f", avg, count, maxAverage)
	}
}

// complexity is fn's cyclomatic complexity, as the package comment counts it.
func complexity(fn ast.Node) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// A sample with a known count, so the counter itself is checked.
func TestComplexityCountsAsGocyclo(t *testing.T) {
	src := `package p
func f(a, b bool, xs []int, ch chan int) {
	if a && b || a {
	}
	for range xs {
		switch {
		case a:
		case b:
		default:
		}
	}
	select {
	case <-ch:
	default:
	}
	_ = func() { for {} }
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 1 + if + && + || + range + 2 cases + 1 comm case + for in the literal.
	if got := complexity(f.Decls[0]); got != 9 {
		t.Errorf("complexity = %d, want 9", got)
	}
}
