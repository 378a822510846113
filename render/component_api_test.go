package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestStandardComponentsUseOnlyTheExportedAPI reads the standard
// components' source (components*.go) and fails when one of them reaches
// into Context's unexported fields or methods: whatever a standard
// component does, a component registered from outside the package can do
// too, through the same exported methods.
func TestStandardComponentsUseOnlyTheExportedAPI(t *testing.T) {
	fset := token.NewFileSet()
	api, err := parser.ParseFile(fset, "component.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	hidden := unexportedContextMembers(api)
	for _, want := range []string{"l", "children", "layoutChildren"} {
		if !hidden[want] {
			t.Fatalf("component.go no longer declares Context.%s; update this test's sanity list (found %v)", want, hidden)
		}
	}
	files, err := filepath.Glob("components*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if hidden[n.Sel.Name] {
					t.Errorf("%s: a standard component uses Context.%s, which a component outside the package cannot", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "Context" {
					t.Errorf("%s: a standard component builds a Context itself; use Context.Nested", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
	if checked < 4 {
		t.Fatalf("checked %d component files, want the standard components' files", checked)
	}
}

// unexportedContextMembers lists the unexported fields and methods of
// Context declared in f.
func unexportedContextMembers(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || ts.Name.Name != "Context" {
					continue
				}
				for _, fld := range ts.Type.(*ast.StructType).Fields.List {
					for _, n := range fld.Names {
						if !n.IsExported() {
							out[n.Name] = true
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || d.Name.IsExported() {
				continue
			}
			if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == "Context" {
					out[d.Name.Name] = true
				}
			}
		}
	}
	return out
}
