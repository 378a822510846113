// Package directive is a goldmark extension for the generic directives of
// the Markii format: inline `:name[label]{attrs}`, leaf
// `::name[label]{attrs}` on a line of its own, and container
// `:::name[label]{attrs}` … `:::` blocks.
//
// The syntax follows remark-directive as the Markii conformance corpus pins
// it: names start with an ASCII letter and never contain ':', a malformed
// attribute block leaves the whole construct as text, an inline directive
// must start a word, and a bare colon fence closes the outermost open
// container whose opening fence it is at least as long as.
//
// Where the grammar agrees with remark-directive (micromark-extension-
// directive) case for case:
//
//   - A text directive followed by a label that never closes, or by a
//     malformed attribute block, is kept: it ends where the `[` or `{`
//     starts, and the rest is text (`:a[b` is `:a` then "[b";
//     `:x[y]{k="v}` is `:x[y]` then `{k="v}`). Leaf and container
//     directives with a malformed label or attribute block stay wholly
//     literal, as there.
//   - Classes accumulate, whichever way they are written:
//     `{class=a .b class="c d"}` has class "a b c d". An id's last value
//     wins.
//   - A label's extent is fixed by its brackets before its content is
//     parsed: a code span opened inside a label ends inside it or is
//     text (the label of :badge[`]`] is one backtick, and "`]" follows).
//   - A directive may follow a backslash-escaped colon: `\::a` is ":"
//     and the directive `:a` (after a plain colon, `a ::b`, it may not).
//   - A container directive is a fenced block: a lazy continuation line
//     (one that does not continue the enclosing block quote or list
//     item) closes it rather than joining a paragraph inside it.
//
// Where markii deliberately differs:
//
//   - Names and attribute keys are ASCII: a name starts with an ASCII
//     letter and holds letters, digits, '-' and '_' (not last); a key
//     starts with a letter, '_' or ':' and holds those, digits, '.' and
//     '-'. Later micromark releases also take names that start with a
//     digit or a non-ASCII letter, and such keys; markii leaves those
//     directives literal, because component names, pack namespaces and
//     value paths are ASCII throughout the format, and a name no
//     component could have only turns prose into a fallback box.
//   - A label's brackets are matched at any depth; the reference gives up
//     beyond three levels of nested brackets and leaves the directive
//     without a label.
//   - A line feed inside a quoted attribute value becomes a space in the
//     document tree and so in doc.directives(): every attribute value
//     passes the inline-text sanitizer on its way into the tree, where a
//     line feed is one space.
//   - Not yet aligned: an autolink or raw HTML tag opened inside a label
//     (`:a[<https://x/]>]`) may still take the label's `]`, and the
//     directive then stays text.
package directive

import (
	"github.com/yuin/goldmark/ast"
)

// Attr is one parsed attribute exactly as the scanner read it: Value is the
// raw text between the quotes (or the bare value), before entity decoding.
type Attr struct {
	Key, Value string
	// Bare is set for a key written without `=value`.
	Bare bool
}

// KindContainer, KindLeaf and KindInline are the node kinds of the three
// directive forms.
var (
	KindContainer = ast.NewNodeKind("ContainerDirective")
	KindLeaf      = ast.NewNodeKind("LeafDirective")
	KindInline    = ast.NewNodeKind("InlineDirective")
	kindOpener    = ast.NewNodeKind("DirectiveLabelOpener")
)

// Container is a `:::name[label]{attrs}` block. Its label, when present, is
// its first child: a paragraph whose lines are the label text.
type Container struct {
	ast.BaseBlock
	Name  string
	Attrs []Attr
	// FenceLen is the number of colons of the opening fence.
	FenceLen int
	// HasLabel reports whether the opening line carried `[label]`.
	HasLabel bool
	// OpenStart and OpenStop delimit the opening fence in the source (from
	// the first colon to the end of the line, newline excluded).
	OpenStart, OpenStop int
	// CloseStart and CloseStop delimit the closing fence line's colons and
	// trailing blanks, or are -1 when end of input or the parent closed the
	// container.
	CloseStart, CloseStop int
}

// Kind implements ast.Node.
func (*Container) Kind() ast.NodeKind { return KindContainer }

// Dump implements ast.Node.
func (n *Container) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

// Leaf is a `::name[label]{attrs}` line. Its Lines are the label text,
// which goldmark parses as its inline children.
type Leaf struct {
	ast.BaseBlock
	Name  string
	Attrs []Attr
	// Start and Stop delimit the directive in the source (from the first
	// colon to the end of the line, newline excluded).
	Start, Stop int
}

// Kind implements ast.Node.
func (*Leaf) Kind() ast.NodeKind { return KindLeaf }

// Dump implements ast.Node.
func (n *Leaf) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

// Inline is a `:name[label]{attrs}` text directive; its children are the
// parsed label.
type Inline struct {
	ast.BaseInline
	Name  string
	Attrs []Attr
	// Start and Stop delimit the whole directive in the source; LabelStart
	// and LabelStop its label text (both -1 when there is no label). A
	// label that spans lines has its line prefixes inside that range.
	Start, Stop           int
	LabelStart, LabelStop int
}

// Kind implements ast.Node.
func (*Inline) Kind() ast.NodeKind { return KindInline }

// Bare reports whether the directive was written as `:name` alone, with
// neither a label nor an attribute block (not even an empty one).
func (n *Inline) Bare() bool { return n.Stop-n.Start == 1+len(n.Name) }

// Dump implements ast.Node.
func (n *Inline) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

// opener marks where a labelled inline directive starts while its label is
// being parsed. It never survives the parse: the matching `]` replaces it
// with an Inline node, and an unmatched one becomes text again.
type opener struct {
	ast.BaseInline
	dir     *Inline
	segment [2]int // source range of `:name[`
	// closeAt is the source offset of the label's `]`; afterAt is how many
	// bytes from that `]` to the end of the directive (the `]` itself and
	// the attribute block).
	closeAt int
	afterAt int
}

func (*opener) Kind() ast.NodeKind { return kindOpener }

func (n *opener) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}
