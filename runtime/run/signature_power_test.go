package run

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSignatureGrantsNoPower holds the rule that a signature shows
// provenance and decides nothing: in the run service, a request's
// signature status is read only where the audit record of the run is
// made, and no package that decides a grant, a tier or a request's fate
// imports the signature package. TestSignatureChangesNoDecision shows the
// same from the outside, scenario by scenario.
func TestSignatureGrantsNoPower(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	readers := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Signature" {
					readers[fn.Name.Name] = true
				}
				return true
			})
		}
	}
	for name := range readers {
		if name != "runRecord" {
			t.Errorf("%s reads a request's Signature; only the audit record (runRecord) may", name)
		}
	}
	if !readers["runRecord"] {
		t.Error("runRecord no longer records the signature: update this test with where it moved")
	}
	for _, dir := range []string{"../grants", "../host", "../isolate", "../engine", "../netclient", "../script", "../state", "../bundle"} {
		pkgs, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range pkgs {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				if strings.Contains(imp.Path.Value, "runtime/signature") {
					t.Errorf("%s imports the signature package: a signature must not reach a decision", filepath.Join(dir, e.Name()))
				}
			}
		}
	}
}
