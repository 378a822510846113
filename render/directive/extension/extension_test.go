package extension

import (
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/render/directive"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestExtension parses with a plain goldmark instance extended by
// Directives and checks the directive nodes and their source positions.
func TestExtension(t *testing.T) {
	src := []byte(":::note{a=1}\nHi :b[x]{k=v} there\n\n::leaf[L]\n:::\n")
	root := goldmark.New(goldmark.WithExtensions(Directives)).Parser().Parse(text.NewReader(src))
	c, ok := root.FirstChild().(*directive.Container)
	if !ok {
		t.Fatalf("first child is %T", root.FirstChild())
	}
	if c.Name != "note" || c.FenceLen != 3 || string(src[c.OpenStart:c.OpenStop]) != ":::note{a=1}" ||
		string(src[c.CloseStart:c.CloseStop]) != ":::" {
		t.Errorf("container %+v", c)
	}
	para := c.FirstChild()
	var in *directive.Inline
	for n := para.FirstChild(); n != nil; n = n.NextSibling() {
		if d, ok := n.(*directive.Inline); ok {
			in = d
		}
	}
	if in == nil || string(src[in.Start:in.Stop]) != ":b[x]{k=v}" || string(src[in.LabelStart:in.LabelStop]) != "x" {
		t.Fatalf("inline directive %+v", in)
	}
	leaf, ok := para.NextSibling().(*directive.Leaf)
	if !ok || leaf.Name != "leaf" || string(src[leaf.Start:leaf.Stop]) != "::leaf[L]" {
		t.Fatalf("leaf %+v", para.NextSibling())
	}
	if txt, ok := leaf.FirstChild().(*ast.Text); !ok || string(txt.Segment.Value(src)) != "L" {
		t.Errorf("leaf label child %T", leaf.FirstChild())
	}
}
