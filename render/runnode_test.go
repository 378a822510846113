package render

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// A paragraph of delimiter runs is mostly runs, so a run's size is most
// of such a parse's memory: cmark's nested strong emphasis input
// (`*a **a ` × 65000 …) peaked at 161 MB with runs that embedded
// ast.BaseInline (208 bytes) and at 131 MB with the 96-byte leaf.
func TestDelimiterRunStaysSmall(t *testing.T) {
	if size := unsafe.Sizeof(delimiterRun{}); size > 96 {
		t.Errorf("delimiterRun is %d bytes, want at most 96", size)
	}
}

// Every run is matched or turned back into text when its block closes:
// none is left in the tree that later stages walk.
func TestNoDelimiterRunOutlivesItsBlock(t *testing.T) {
	for _, src := range []string{
		"*a **b** c*\n",
		"*a_ *a_ *a_ unmatched\n",
		"~~gone~~ ~kept ~~~three~~~\n",
		"[*in link*](x) ![**alt**](y) :badge[*label*]{variant=info}\n",
		"***a** b* _c __d___ e_\n",
		"| *a | b* |\n|---|---|\n| **c | d** |\n",
		"> *quoted\n> still*\n\n- *item\n  lazy*\n",
		strings.Repeat("*a **a ", 200) + "b" + strings.Repeat(" a** a*", 200) + "\n",
	} {
		root := markdown().Parse(text.NewReader([]byte(src)))
		left := 0
		ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering && n.Kind() == kindDelimiterRun {
				left++
			}
			return ast.WalkContinue, nil
		})
		if left != 0 {
			t.Errorf("%d delimiter runs left in the tree of %.40q", left, src)
		}
	}
}

// A run is a leaf: giving it a child is a defect that says what it is,
// and the questions goldmark asks of any inline get an inline's answers.
func TestDelimiterRunIsALeaf(t *testing.T) {
	src := []byte("x **y")
	run := scanRun(src[2:], 'x')
	run.start = 2
	para := ast.NewParagraph()
	para.AppendChild(para, run)
	if run.Parent() != para || run.HasChildren() || run.ChildCount() != 0 || run.Type() != ast.TypeInline {
		t.Fatalf("run is not an inline leaf of its paragraph")
	}
	doc := ast.NewDocument()
	doc.AppendChild(doc, para)
	if run.OwnerDocument() != doc {
		t.Errorf("OwnerDocument did not find the document")
	}
	if seg := run.segment(); string(seg.Value(src)) != "**" {
		t.Errorf("run covers %q, want %q", seg.Value(src), "**")
	}
	defer func() {
		if r := recover(); r != errRunIsLeaf {
			t.Errorf("AppendChild on a run panicked with %v, want %v", r, errRunIsLeaf)
		}
	}()
	run.AppendChild(run, ast.NewText())
}
