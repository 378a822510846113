package render

// This file defines markii's own document tree. The parser builds it from
// goldmark's AST; nothing after the parser sees goldmark. Every string in the
// tree has already passed the sanitize package (inline class for text,
// preformatted class for code, URL class plus the safe-scheme rule for
// destinations), except ScriptBlock.Source, which is script code handed to
// the runtime and is never drawn.

// Document is a parsed note.
type Document struct {
	// Blocks are the top-level blocks in source order.
	Blocks []Block
	// Frontmatter is set when the note starts with a YAML frontmatter block.
	Frontmatter *Frontmatter
	// Scripts lists every runnable script fence in document order,
	// including those nested inside containers. The same values appear as
	// ScriptBlock nodes in Blocks.
	Scripts []*ScriptBlock
	// Flattened reports that content nested deeper than MaxDepth was
	// flattened into plain text (see MaxDepth).
	Flattened bool
}

// Frontmatter is the note's leading YAML block. It is never rendered.
type Frontmatter struct {
	// Uses is the pack list read from the `uses:` key; nil when the key is
	// absent or not in one of the two accepted shapes.
	Uses []string
}

// Block is a block-level node.
type Block interface{ block() }

// Inline is an inline node.
type Inline interface{ inline() }

// Heading is an ATX or setext heading.
type Heading struct {
	Level   int // 1..6
	Content []Inline
}

// Paragraph is a paragraph of inline content.
type Paragraph struct {
	Content []Inline
}

// CodeBlock is a fenced or indented code block that is not runnable.
type CodeBlock struct {
	// Lang is the first word of the info string (inline-sanitized), or "".
	Lang string
	// Text is the body, preformatted-sanitized (LF line ends, tabs
	// expanded), without the final line feed.
	Text string
}

// ScriptBlock is a runnable script fence: a fenced code block whose info
// string carries a `{...}` group with a valid name.
type ScriptBlock struct {
	// Name is the value key; it matches ^[A-Za-z_][A-Za-z0-9_-]*$.
	Name string
	// Lang is the fence language word exactly as written ("" if none); it
	// feeds the grant key and is never drawn.
	Lang string
	// Label is what the renderer shows for the block: the src path or the
	// language, inline-sanitized.
	Label string
	// Src is the bundle-relative source path from `src=` exactly as written
	// (the bundle jail checks it), or "".
	Src string
	// HasSrc reports whether `src=` was given (even empty).
	HasSrc bool
	// Permissions are the hosts declared with `permissions=` (display only;
	// never an input to a grant).
	Permissions []string
	// Publish is set by a bare `publish` key.
	Publish bool
	// Source is the fence body exactly as written. It is code for the
	// runtime, never drawn by the renderer.
	Source string
}

// Quote is a block quote.
type Quote struct {
	Blocks []Block
}

// List is a bullet or ordered list.
type List struct {
	Ordered bool
	// Start is the first number of an ordered list.
	Start int
	// Delimiter is what follows an ordered list's numbers: '.' or ')'
	// (0 reads as '.').
	Delimiter byte
	Tight     bool
	Items     []*ListItem
}

// ListItem is one list item.
type ListItem struct {
	// Task is nil for an ordinary item, else whether the box is checked.
	Task   *bool
	Blocks []Block
}

// ThematicBreak is a horizontal rule.
type ThematicBreak struct{}

// Align is a table column alignment.
type Align int

// Column alignments of a GFM table.
const (
	AlignNone Align = iota
	AlignLeft
	AlignCenter
	AlignRight
)

// Table is a GFM table.
type Table struct {
	Align  []Align
	Header [][]Inline   // one cell per column
	Rows   [][][]Inline // rows of cells
}

// Form is the syntactic form of a directive.
type Form int

// The three directive forms.
const (
	FormInline Form = iota
	FormLeaf
	FormContainer
)

// String returns the form's name as the script API spells it.
func (f Form) String() string {
	switch f {
	case FormLeaf:
		return "leaf"
	case FormContainer:
		return "container"
	}
	return "inline"
}

// Attr is one directive attribute. Bare is set for a key written without a
// value (`{open}`), whose Value is "".
type Attr struct {
	Key, Value string
	Bare       bool
}

// Attrs are a directive's attributes in source order; a repeated key keeps
// its last value.
type Attrs []Attr

// Get returns the value of key and whether it is present.
func (a Attrs) Get(key string) (string, bool) {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].Key == key {
			return a[i].Value, true
		}
	}
	return "", false
}

// Directive is a leaf (`::name[label]{attrs}`) or container
// (`:::name[label]{attrs}` … `:::`) directive.
type Directive struct {
	Name  string
	Form  Form // FormLeaf or FormContainer
	Attrs Attrs
	// Label is the `[...]` content of a leaf directive. For a container the
	// label, if any, is the first block of Blocks (as remark-directive does).
	Label []Inline
	// Blocks is a container's body.
	Blocks []Block
}

func (*Heading) block()       {}
func (*Paragraph) block()     {}
func (*CodeBlock) block()     {}
func (*ScriptBlock) block()   {}
func (*Quote) block()         {}
func (*List) block()          {}
func (*ThematicBreak) block() {}
func (*Table) block()         {}
func (*Directive) block()     {}
func (*Footnotes) block()     {}

// FootnoteRef is a reference to a footnote, `[^label]`. Number is the
// footnote's number: footnotes are numbered from 1 in the order of their
// first reference, and a reference whose label has no definition stays
// text.
type FootnoteRef struct{ Number int }

// Footnotes is the note's footnotes section, after every other block:
// the referenced definitions, by number. A definition that nothing refers
// to is left out.
type Footnotes struct{ Notes []Footnote }

// Footnote is one definition, `[^label]: text`, and its blocks.
type Footnote struct {
	Number int
	Blocks []Block
}

// Text is plain text.
type Text struct{ Text string }

// SoftBreak is a soft line break (drawn as a space).
type SoftBreak struct{}

// HardBreak is a hard line break.
type HardBreak struct{}

// Emphasis is emphasized (italic) content.
type Emphasis struct{ Content []Inline }

// Strong is strong (bold) content.
type Strong struct{ Content []Inline }

// Strikethrough is GFM strikethrough.
type Strikethrough struct{ Content []Inline }

// CodeSpan is inline code.
type CodeSpan struct{ Text string }

// Link is a link. URL is "" when the destination was refused as unsafe.
type Link struct {
	URL     string
	Content []Inline
	// Auto is set for an autolink, whose text is its URL.
	Auto bool
}

// Image is an image; it is never fetched. URL is "" when refused.
type Image struct {
	URL string
	Alt string
	// Width and Height are the size an HTML img asks for (its width and
	// height attributes); a drawn picture fits within them. Zero when
	// not given.
	Width, Height Length
}

// Length is an HTML length: N CSS pixels, or N percent of the page's
// width when Percent is set. The zero Length is no length.
type Length struct {
	N       int
	Percent bool
}

// InlineDirective is a text directive `:name[label]{attrs}`.
type InlineDirective struct {
	Name    string
	Attrs   Attrs
	Content []Inline
	// Bare is set when it was written as `:name` alone, with neither a
	// label nor an attribute block.
	Bare bool
}

// Emoji is an emoji shortcode (`:tada:`) and the emoji it stands for.
// Layout draws Text, or the shortcode when Options.NoEmoji is set.
type Emoji struct {
	// Shortcode is the name between the colons.
	Shortcode string
	// Text is the emoji.
	Text string
}

// WikiLink is a wikilink, `[[Target#Heading|label]]`: a link to another
// note by its name, which only a caller that knows the notes beside this
// one can resolve (Options.WikiLinks). Content is the label.
type WikiLink struct {
	Target, Heading string
	Content         []Inline
}

func (*WikiLink) inline()        {}
func (*Emoji) inline()           {}
func (*FootnoteRef) inline()     {}
func (*Text) inline()            {}
func (*SoftBreak) inline()       {}
func (*HardBreak) inline()       {}
func (*Emphasis) inline()        {}
func (*Strong) inline()          {}
func (*Strikethrough) inline()   {}
func (*CodeSpan) inline()        {}
func (*Link) inline()            {}
func (*Image) inline()           {}
func (*InlineDirective) inline() {}

// inlineBlock is a block of inline content: a heading or a paragraph.
type inlineBlock interface {
	Block
	inlines() []Inline
}

func (n *Heading) inlines() []Inline   { return n.Content }
func (n *Paragraph) inlines() []Inline { return n.Content }

// inlineParent is an inline that holds inlines: emphasis, strong,
// strikethrough, links, wikilinks and inline directives.
type inlineParent interface {
	Inline
	inlines() []Inline
}

func (n *Emphasis) inlines() []Inline        { return n.Content }
func (n *Strong) inlines() []Inline          { return n.Content }
func (n *Strikethrough) inlines() []Inline   { return n.Content }
func (n *Link) inlines() []Inline            { return n.Content }
func (n *WikiLink) inlines() []Inline        { return n.Content }
func (n *InlineDirective) inlines() []Inline { return n.Content }
