package render

import (
	"errors"
	"fmt"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// This file makes a delimiterRun an ast.Node: an inline leaf that knows
// its parent and siblings and nothing else. goldmark's tree code only
// links, unlinks and replaces such a node; anything that would give it
// children is a defect in markii, and says so.

var kindDelimiterRun = ast.NewNodeKind("DelimiterRun")

// errRunIsLeaf is the panic of a call that would give a run children.
var errRunIsLeaf = errors.New("render: a delimiter run has no children")

// Type implements ast.Node: a run is inline.
func (d *delimiterRun) Type() ast.NodeType { return ast.TypeInline }

// Kind implements ast.Node.
func (d *delimiterRun) Kind() ast.NodeKind { return kindDelimiterRun }

// Pos implements ast.Node: where the run's characters start.
func (d *delimiterRun) Pos() int { return d.start }

// SetPos implements ast.Node.
func (d *delimiterRun) SetPos(v int) { d.start = v }

// NextSibling implements ast.Node.
func (d *delimiterRun) NextSibling() ast.Node { return d.nextSibling }

// PreviousSibling implements ast.Node.
func (d *delimiterRun) PreviousSibling() ast.Node { return d.prevSibling }

// Parent implements ast.Node.
func (d *delimiterRun) Parent() ast.Node { return d.parent }

// SetParent implements ast.Node.
func (d *delimiterRun) SetParent(v ast.Node) { d.parent = v }

// SetPreviousSibling implements ast.Node.
func (d *delimiterRun) SetPreviousSibling(v ast.Node) { d.prevSibling = v }

// SetNextSibling implements ast.Node.
func (d *delimiterRun) SetNextSibling(v ast.Node) { d.nextSibling = v }

// HasChildren implements ast.Node: a run has none.
func (d *delimiterRun) HasChildren() bool { return false }

// ChildCount implements ast.Node.
func (d *delimiterRun) ChildCount() int { return 0 }

// FirstChild implements ast.Node.
func (d *delimiterRun) FirstChild() ast.Node { return nil }

// LastChild implements ast.Node.
func (d *delimiterRun) LastChild() ast.Node { return nil }

// AppendChild implements ast.Node; a run takes no children.
func (d *delimiterRun) AppendChild(self, child ast.Node) { panic(errRunIsLeaf) }

// RemoveChild implements ast.Node: a run has no child to remove.
func (d *delimiterRun) RemoveChild(self, child ast.Node) {}

// RemoveChildren implements ast.Node.
func (d *delimiterRun) RemoveChildren(self ast.Node) {}

// SortChildren implements ast.Node.
func (d *delimiterRun) SortChildren(comparator func(n1, n2 ast.Node) int) {}

// ReplaceChild implements ast.Node; a run takes no children.
func (d *delimiterRun) ReplaceChild(self, v1, insertee ast.Node) { panic(errRunIsLeaf) }

// InsertBefore implements ast.Node; a run takes no children.
func (d *delimiterRun) InsertBefore(self, v1, insertee ast.Node) { panic(errRunIsLeaf) }

// InsertAfter implements ast.Node; a run takes no children.
func (d *delimiterRun) InsertAfter(self, v1, insertee ast.Node) { panic(errRunIsLeaf) }

// OwnerDocument implements ast.Node: the document at the top of the
// run's ancestors, as ast.BaseNode finds it.
func (d *delimiterRun) OwnerDocument() *ast.Document {
	n := ast.Node(d)
	for n.Parent() != nil {
		n = n.Parent()
	}
	doc, _ := n.(*ast.Document)
	return doc
}

// Dump implements ast.Node.
func (d *delimiterRun) Dump(source []byte, level int) {
	seg := d.segment()
	ast.DumpHelper(d, source, level, map[string]string{"Run": fmt.Sprintf("%q", seg.Value(source))}, nil)
}

// Text implements ast.Node: nil, as for any inline without children.
func (d *delimiterRun) Text(source []byte) []byte { return nil }

// HasBlankPreviousLines implements ast.Node; like every inline, a run
// has no lines.
func (d *delimiterRun) HasBlankPreviousLines() bool { panic("can not call with inline nodes.") }

// SetBlankPreviousLines implements ast.Node.
func (d *delimiterRun) SetBlankPreviousLines(v bool) { panic("can not call with inline nodes.") }

// Lines implements ast.Node.
func (d *delimiterRun) Lines() *text.Segments { panic("can not call with inline nodes.") }

// SetLines implements ast.Node.
func (d *delimiterRun) SetLines(*text.Segments) { panic("can not call with inline nodes.") }

// IsRaw implements ast.Node.
func (d *delimiterRun) IsRaw() bool { return false }

// SetAttribute implements ast.Node: a run keeps no attributes.
func (d *delimiterRun) SetAttribute(name []byte, value any) {}

// SetAttributeString implements ast.Node.
func (d *delimiterRun) SetAttributeString(name string, value any) {}

// Attribute implements ast.Node.
func (d *delimiterRun) Attribute(name []byte) (any, bool) { return nil, false }

// AttributeString implements ast.Node.
func (d *delimiterRun) AttributeString(name string) (any, bool) { return nil, false }

// Attributes implements ast.Node.
func (d *delimiterRun) Attributes() []ast.Attribute { return nil }

// RemoveAttributes implements ast.Node.
func (d *delimiterRun) RemoveAttributes() {}

var _ ast.Node = (*delimiterRun)(nil)
