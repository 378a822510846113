package render

import (
	"bytes"
	"cmp"
	"strconv"
	"strings"

	"github.com/markii/markii/sanitize"
	"github.com/yuin/goldmark/ast"
	"golang.org/x/net/html"
)

// This file draws raw HTML through markii's own tree. An HTML5 tokenizer
// reads each raw HTML block and inline tag (plain tags and text are read
// by a small scanner that makes the same tokens, parse_html_simple.go);
// an allowlist modelled on
// GitHub's sanitizer maps elements onto the nodes markdown makes
// (details, image, link, heading, table, list, quote, code, emphasis), any
// other element keeps its text and loses its tag, and script, style,
// iframe, object, template and comments lose their content. Text and
// attribute values are decoded by the tokenizer and then pass the
// sanitize package like every other string in the tree.
//
// An element opened in one raw HTML block stays open across the markdown
// blocks that follow it in the same container, up to the block that
// closes it, as a browser reads GitHub's output: `<details>`, a blank
// line, markdown, a blank line and `</details>` make one details block.
// A `<p>` ends, as in a browser, at the next block start tag or markdown
// block; an element whose content is dropped ends with its own raw HTML
// block. Everything open when the container ends is closed there.

// htmlKind is what markii makes of an element.
type htmlKind uint8

const (
	hTransparent htmlKind = iota // keeps its content, loses its tag
	hRoot                        // the container the builder fills
	hBlock                       // p, div, section…: a paragraph break; align=center centres
	hDetails
	hSummary
	hQuote
	hHeading
	hList
	hItem
	hPre
	hTable
	hSection // thead, tbody, tfoot
	hRow
	hCell
	hStrong
	hEmph
	hStrike
	hCode
	hSub // sub: lowered
	hSup // sup: raised
	hLink
	hSkip  // content dropped
	hBreak // br
	hImage // img
	hRule  // hr
	hVoid  // source, wbr, input…: nothing
)

// htmlElements are the allowlisted elements and their kinds, sorted by
// name; any other element is hTransparent. An array, so that nothing is
// built when the package starts.
var htmlElements = [...]struct {
	name string
	kind htmlKind
}{
	{"a", hLink},
	{"address", hBlock},
	{"applet", hSkip},
	{"area", hVoid},
	{"article", hBlock},
	{"aside", hBlock},
	{"b", hStrong},
	{"base", hVoid},
	{"blockquote", hQuote},
	{"br", hBreak},
	{"caption", hBlock},
	{"center", hBlock},
	{"cite", hEmph},
	{"code", hCode},
	{"col", hVoid},
	{"dd", hBlock},
	{"del", hStrike},
	{"details", hDetails},
	{"dfn", hEmph},
	{"div", hBlock},
	{"dl", hBlock},
	{"dt", hBlock},
	{"em", hEmph},
	{"embed", hVoid},
	{"figcaption", hBlock},
	{"figure", hBlock},
	{"footer", hBlock},
	{"h1", hHeading},
	{"h2", hHeading},
	{"h3", hHeading},
	{"h4", hHeading},
	{"h5", hHeading},
	{"h6", hHeading},
	{"header", hBlock},
	{"hgroup", hBlock},
	{"hr", hRule},
	{"i", hEmph},
	{"iframe", hSkip},
	{"img", hImage},
	{"input", hVoid},
	{"kbd", hCode},
	{"li", hItem},
	{"link", hVoid},
	{"main", hBlock},
	{"mark", hStrong},
	{"math", hSkip},
	{"meta", hVoid},
	{"nav", hBlock},
	{"noscript", hSkip},
	{"object", hSkip},
	{"ol", hList},
	{"p", hBlock},
	{"param", hVoid},
	{"pre", hPre},
	{"s", hStrike},
	{"samp", hCode},
	{"script", hSkip},
	{"section", hBlock},
	{"source", hVoid},
	{"strike", hStrike},
	{"strong", hStrong},
	{"style", hSkip},
	{"sub", hSub},
	{"summary", hSummary},
	{"sup", hSup},
	{"svg", hSkip},
	{"table", hTable},
	{"tbody", hSection},
	{"td", hCell},
	{"template", hSkip},
	{"tfoot", hSection},
	{"th", hCell},
	{"thead", hSection},
	{"tr", hRow},
	{"track", hVoid},
	{"tt", hCode},
	{"ul", hList},
	{"var", hEmph},
	{"wbr", hVoid},
}

// htmlKindOf returns the kind of the element named name (in lower case).
func htmlKindOf(name []byte) htmlKind {
	lo, hi := 0, len(htmlElements)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if htmlElements[m].name < string(name) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(htmlElements) && htmlElements[lo].name == string(name) {
		return htmlElements[lo].kind
	}
	return hTransparent
}

// kindSet is a set of htmlKinds.
type kindSet uint32

func (s kindSet) has(k htmlKind) bool { return s&(1<<k) != 0 }

// The kinds that share a trait.
const (
	// blockKinds are the block elements: hRoot to hCell.
	blockKinds kindSet = 1<<(hCell+1) - 1<<hRoot
	// inlineKinds become an inline node holding their content: hStrong
	// to hLink.
	inlineKinds kindSet = 1<<(hLink+1) - 1<<hStrong
	// tableKinds are a table and its parts.
	tableKinds kindSet = 1<<hTable | 1<<hSection | 1<<hRow | 1<<hCell
	// inlineOnlyKinds hold inline content only (block tags inside them
	// are read as their content).
	inlineOnlyKinds kindSet = 1<<hSummary | 1<<hHeading | 1<<hCell | 1<<hPre
	// wrapKinds become a node holding their children, which counts
	// towards MaxDepth.
	wrapKinds kindSet = 1<<hDetails | 1<<hQuote | 1<<hList | 1<<hItem | 1<<hTable | inlineKinds
	// paragraphEnders end an open p element: the block elements but a
	// table's parts inside it.
	paragraphEnders = blockKinds &^ (1<<hSection | 1<<hRow | 1<<hCell)
)

// tableParents are the block elements each table part must sit in; it
// is a plain block anywhere else.
var tableParents = [hVoid + 1]kindSet{
	hSection: 1 << hTable,
	hRow:     1<<hTable | 1<<hSection,
	hCell:    1 << hRow,
}

// block reports whether k is a block element: one that ends the
// paragraph before it.
func (k htmlKind) block() bool { return blockKinds.has(k) }

// inlineOnly reports whether a frame of kind k holds inline content only.
func (k htmlKind) inlineOnly() bool { return inlineOnlyKinds.has(k) }

// wraps reports whether a frame of kind k becomes a node holding its
// children, which counts towards MaxDepth.
func (k htmlKind) wraps() bool { return wrapKinds.has(k) }

// maxHTMLSearch bounds how far down the open elements an end tag looks
// for its element: an end tag with no open element within that many is
// ignored, so a note of unmatched end tags takes linear time.
const maxHTMLSearch = 64

// htmlFrame is an open element.
type htmlFrame struct {
	kind htmlKind
	tag  string
	// blockAt is the index of the innermost block element at or above
	// this one in the builder's frames.
	blockAt int
	// blockMark and inlineMark are where the element's children start
	// on the converter's block and inline stacks.
	blockMark, inlineMark int
	center, open, head    bool
	level, start          int
	ordered               bool
	href                  string
	// title is a details element's summary.
	title string
	items []*ListItem
	rows  [][][]Inline
	// header is the table's header row, or a row's cells.
	header [][]Inline
	pre    []byte
}

// htmlBuilder maps the elements of one container's raw HTML onto the
// converter's tree. frames[0] is the container itself.
type htmlBuilder struct {
	c      *converter
	frames []htmlFrame
	// depth is the tree depth of the container; nest counts the open
	// frames that wrap their children.
	depth, nest int
	// skip counts the open elements of kind hSkip named skipTag.
	skip    int
	skipTag string
	// inline is set for the tags inside a paragraph, where block
	// elements are read as their content.
	inline bool
}

func (c *converter) newHTML(depth int, inline bool) *htmlBuilder {
	h := &htmlBuilder{c: c, depth: depth, inline: inline}
	h.frames = append(h.frames, htmlFrame{kind: hRoot, blockMark: len(c.blockStack), inlineMark: len(c.inlineStack)})
	return h
}

// top returns the innermost open element.
func (h *htmlBuilder) top() *htmlFrame { return &h.frames[len(h.frames)-1] }

// blockFrame returns the innermost open block element.
func (h *htmlBuilder) blockFrame() *htmlFrame { return &h.frames[h.top().blockAt] }

// htmlBlock reads one raw HTML block. A comment, processing
// instruction, declaration or CDATA block shows nothing.
func (h *htmlBuilder) htmlBlock(n *ast.HTMLBlock) {
	if n.HTMLBlockType >= ast.HTMLBlockType2 && n.HTMLBlockType <= ast.HTMLBlockType5 {
		return
	}
	var b []byte
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		b = append(b, s.Value(h.c.src)...)
	}
	if n.HasClosure() {
		b = append(b, n.ClosureLine.Value(h.c.src)...)
	}
	h.tokens(b)
	// An element whose content is dropped (script, iframe, object,
	// template…) ends with the raw HTML block that opened it, closed or
	// not: markdown ended the block at a blank line or at its end
	// condition, and what follows is markdown the note shows, never the
	// element's hidden content.
	h.skip = 0
	if n.HTMLBlockType == ast.HTMLBlockType1 {
		// goldmark ended the block at the line with its end tag; the
		// element ends there too, whatever the tokenizer made of it.
		for h.pre() != nil {
			h.close()
		}
	}
	// A paragraph of the block's text ends with the block, as markdown
	// paragraphs do, unless it is a cell's, a heading's or a summary's.
	if !h.blockFrame().kind.inlineOnly() {
		h.flush()
	}
}

// rawInline reads one inline raw HTML node. A comment, processing
// instruction, declaration or CDATA section shows nothing.
func (h *htmlBuilder) rawInline(n *ast.RawHTML) {
	var b []byte
	for i := 0; i < n.Segments.Len(); i++ {
		s := n.Segments.At(i)
		b = append(b, s.Value(h.c.src)...)
	}
	if len(b) > 1 && (b[1] == '!' || b[1] == '?') {
		return
	}
	if name, end, ok := bareTag(b); ok {
		// `<kbd>`, `</kbd>`, `<br/>`: no attributes, no tokenizer.
		if end {
			h.endTag(name)
		} else {
			h.bareStart(name)
		}
		return
	}
	h.tokens(b)
}

// bareTag returns the lower-case name of a tag without attributes, and
// whether it is an end tag; ok is false for any other tag.
func bareTag(b []byte) (name []byte, end, ok bool) {
	b = b[1:]
	if len(b) > 0 && b[0] == '/' {
		b, end = b[1:], true
	}
	b = bytes.TrimSuffix(b, []byte(">"))
	if !end {
		b = bytes.TrimSuffix(b, []byte("/"))
	}
	if len(b) == 0 || len(b) > 12 || skipClass(b, 0, classAlnum) != len(b) {
		return nil, false, false
	}
	var lower [12]byte
	for i, c := range b {
		lower[i] = c | 0x20 // digits have the bit already
	}
	return lower[:len(b)], end, true
}

// bareStart reads a start tag without attributes.
func (h *htmlBuilder) bareStart(name []byte) {
	kind := htmlKindOf(name)
	if h.skipping(kind, name, false) || h.pre() != nil && kind != hBreak {
		return
	}
	if !h.void(kind, htmlAttrs{}) {
		h.open(kind, string(name), htmlAttrs{})
	}
}

// tokens feeds the tokens of b to the builder.
func (h *htmlBuilder) tokens(b []byte) {
	if !tokenizerOnly && simpleHTML(b, nil) {
		simpleHTML(b, h)
		return
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.TextToken:
			h.text(z.Text())
		case html.StartTagToken:
			h.startTag(z, false)
		case html.SelfClosingTagToken:
			h.startTag(z, true)
		case html.EndTagToken:
			name, _ := z.TagName()
			h.endTag(name)
		}
	}
}

// text adds a run of text, its white space collapsed as a browser shows
// it (kept as written inside pre).
func (h *htmlBuilder) text(t []byte) {
	if h.skip > 0 || len(t) == 0 {
		return
	}
	if f := h.pre(); f != nil {
		f.pre = append(f.pre, t...)
		return
	}
	c := h.c
	if len(c.inlineStack) == h.top().inlineMark && isHTMLSpace(t) {
		return
	}
	s := collapseSpace(t)
	c.inlineStack = append(c.inlineStack, c.newText(sanitize.Inline(s)))
}

// closeParagraph closes an open p element that holds the place where
// a block starts, as a browser does: a block start tag, or a markdown
// block (which GitHub writes as a block element), ends the paragraph, so
// `<p align="center">` followed by `<p>` or by markdown centres only its
// own text.
func (h *htmlBuilder) closeParagraph() {
	f := h.blockFrame()
	if f.tag != "p" {
		return
	}
	for at := h.top().blockAt; len(h.frames) > at; {
		h.close()
	}
}

// markdown adds a markdown block that sits between raw HTML blocks.
func (h *htmlBuilder) markdown(n ast.Node) {
	c := h.c
	h.closeParagraph()
	if f := h.pre(); f != nil {
		f.pre = append(append(f.pre, c.plain(n, nil)...), '\n')
		return
	}
	if h.blockFrame().kind.inlineOnly() {
		var content []Inline
		if p, ok := n.(*ast.Paragraph); ok {
			content = c.inlines(p, h.depth+h.nest+1)
		} else if t := sanitize.Inline(string(c.plain(n, nil))); t != "" {
			content = []Inline{c.newText(t)}
		}
		if len(c.inlineStack) > h.top().inlineMark {
			c.inlineStack = append(c.inlineStack, c.newText(" "))
		}
		c.inlineStack = append(c.inlineStack, content...)
		return
	}
	h.flush()
	if b := c.block(n, h.depth+h.nest); b != nil {
		c.blockStack = append(c.blockStack, b)
	}
}

// pre returns the innermost open pre element, if any.
func (h *htmlBuilder) pre() *htmlFrame {
	if f := h.blockFrame(); f.kind == hPre {
		return f
	}
	return nil
}

func (h *htmlBuilder) startTag(z *html.Tokenizer, selfClosing bool) {
	name, hasAttr := z.TagName()
	kind := htmlKindOf(name)
	if h.skipping(kind, name, selfClosing) || h.pre() != nil && kind != hBreak {
		return
	}
	var attrs htmlAttrs
	if hasAttr {
		attrs = readHTMLAttrs(z)
	}
	h.start(kind, name, attrs, selfClosing)
}

// start adds an element whose start tag was read.
func (h *htmlBuilder) start(kind htmlKind, name []byte, attrs htmlAttrs, selfClosing bool) {
	if !h.void(kind, attrs) && !selfClosing {
		h.open(kind, string(name), attrs)
	}
}

// skipping reports whether a start tag is inside, or starts, an element
// whose content is dropped.
func (h *htmlBuilder) skipping(kind htmlKind, name []byte, selfClosing bool) bool {
	switch {
	case h.skip > 0:
		if h.skipped(kind, name) {
			h.skip++
		}
		return true
	case kind == hSkip:
		if !selfClosing {
			h.skip, h.skipTag = 1, string(name)
		}
		return true
	}
	return false
}

// void adds an element that has no content, and reports whether kind is
// one.
func (h *htmlBuilder) void(kind htmlKind, attrs htmlAttrs) bool {
	switch kind {
	case hBreak:
		h.hardBreak()
	case hImage:
		h.image(attrs)
	case hRule:
		if !h.inline && !h.blockFrame().kind.inlineOnly() {
			h.flush()
			h.c.blockStack = append(h.c.blockStack, &ThematicBreak{})
		}
	case hVoid:
	default:
		return false
	}
	return true
}

// open pushes an element, or reads it as its content where it cannot be
// what it is.
func (h *htmlBuilder) open(kind htmlKind, name string, attrs htmlAttrs) {
	if paragraphEnders.has(kind) {
		h.closeParagraph()
	}
	kind = h.placeable(kind)
	if kind.block() {
		h.flush()
	}
	f := h.newFrame(kind, name, attrs)
	if f.nests() {
		h.nest++
	}
	h.frames = append(h.frames, f)
}

// newFrame returns the frame of an element that opens here.
func (h *htmlBuilder) newFrame(kind htmlKind, name string, attrs htmlAttrs) htmlFrame {
	c := h.c
	f := htmlFrame{
		kind: kind, tag: name,
		blockMark: len(c.blockStack), inlineMark: len(c.inlineStack), blockAt: h.top().blockAt,
		center: h.centres(name, attrs),
		open:   attrs.open, href: attrs.href, start: attrs.start,
		ordered: name == "ol",
		head:    name == "th" || name == "thead",
	}
	if kind.block() {
		f.blockAt = len(h.frames)
	}
	if kind == hHeading {
		f.level = int(name[1] - '0')
	}
	return f
}

// centres reports whether the element opening here centres its content:
// a center element or align=center, outside a paragraph and within the
// depth bound.
func (h *htmlBuilder) centres(name string, attrs htmlAttrs) bool {
	return (attrs.align == "center" || name == "center") && !h.inline && h.fits(hDetails)
}

// nests reports whether f counts towards MaxDepth.
func (f *htmlFrame) nests() bool { return f.kind.wraps() || f.center }

// placeable returns what an element of kind k is where it opens: a block
// element inside a paragraph, a cell, a heading or a summary is read as
// its content; one past the depth bound as a plain block; table parts
// outside their table as plain blocks.
func (h *htmlBuilder) placeable(k htmlKind) htmlKind {
	if k.block() && (h.inline || h.blockFrame().kind.inlineOnly()) {
		return hTransparent
	}
	if !h.fits(k) {
		if k.block() {
			return hBlock
		}
		return hTransparent
	}
	if need := tableParents[k]; need != 0 && !need.has(h.blockFrame().kind) {
		return hBlock
	}
	return k
}

// fits reports whether another frame of kind k stays within MaxDepth
// (a list counts twice: list and item) and within a bounded stack.
func (h *htmlBuilder) fits(k htmlKind) bool {
	return len(h.frames) < 4*MaxDepth && h.depth+h.nest+3 < MaxDepth || !k.wraps()
}

func (h *htmlBuilder) endTag(name []byte) {
	if h.skip > 0 {
		if h.skipped(htmlKindOf(name), name) {
			h.skip--
		}
		return
	}
	if f := h.pre(); f != nil && string(name) != "pre" {
		return
	}
	h.closeTo(name)
}

// skipped reports whether an element of kind named name is one of those
// being skipped.
func (h *htmlBuilder) skipped(kind htmlKind, name []byte) bool {
	return kind == hSkip && string(name) == h.skipTag
}

// closeTo closes the innermost open element named name and those inside
// it, when one is open within maxHTMLSearch frames.
func (h *htmlBuilder) closeTo(name []byte) {
	for i := len(h.frames) - 1; i > 0 && i >= len(h.frames)-maxHTMLSearch; i-- {
		if h.frames[i].tag == string(name) {
			for len(h.frames) > i {
				h.close()
			}
			return
		}
	}
}

// finish closes every element still open; the container ends here.
func (h *htmlBuilder) finish() {
	for len(h.frames) > 1 {
		h.close()
	}
	if !h.inline {
		h.flush()
	}
}

// flush closes the inline elements inside the innermost block element
// and turns the inline content gathered there into a paragraph.
func (h *htmlBuilder) flush() {
	for !h.top().kind.block() {
		h.close()
	}
	f := h.top()
	if f.kind.inlineOnly() || h.inline {
		return
	}
	c := h.c
	content := trimInlines(c.inlineStack[f.inlineMark:])
	if len(content) > 0 {
		p := c.paragraphs.new()
		p.Content = c.inlineSlices.clone(content)
		c.blockStack = append(c.blockStack, p)
	}
	clear(c.inlineStack[f.inlineMark:])
	c.inlineStack = c.inlineStack[:f.inlineMark]
}

// close pops the innermost element and adds what it makes to its parent.
func (h *htmlBuilder) close() {
	f := h.top()
	if f.kind.block() && f.kind != hPre {
		h.flush()
		f = h.top()
	}
	if f.nests() {
		h.nest--
	}
	fr := *f
	h.frames = h.frames[:len(h.frames)-1]
	switch {
	case inlineKinds.has(fr.kind):
		h.closeInline(&fr)
	case fr.kind == hTransparent:
	case tableKinds.has(fr.kind):
		h.closeTable(&fr)
	default:
		h.closeBlock(&fr)
	}
}

// takeInlines returns the inline content from mark on and cuts the stack
// back to mark.
func (h *htmlBuilder) takeInlines(mark int) []Inline {
	c := h.c
	out := c.inlineSlices.clone(c.inlineStack[mark:])
	clear(c.inlineStack[mark:])
	c.inlineStack = c.inlineStack[:mark]
	return out
}

// takeBlocks returns the blocks from mark on and cuts the stack back.
func (h *htmlBuilder) takeBlocks(mark int) []Block {
	c := h.c
	out := c.blockSlices.clone(c.blockStack[mark:])
	clear(c.blockStack[mark:])
	c.blockStack = c.blockStack[:mark]
	return out
}

func (h *htmlBuilder) push(in Inline) { h.c.inlineStack = append(h.c.inlineStack, in) }

func (h *htmlBuilder) closeInline(f *htmlFrame) {
	c := h.c
	if len(c.inlineStack) == f.inlineMark {
		return
	}
	switch f.kind {
	case hStrong:
		s := c.strongs.new()
		s.Content = h.takeInlines(f.inlineMark)
		h.push(s)
	case hEmph:
		e := c.emphases.new()
		e.Content = h.takeInlines(f.inlineMark)
		h.push(e)
	case hStrike:
		s := c.strikes.new()
		s.Content = h.takeInlines(f.inlineMark)
		h.push(s)
	case hCode:
		cs := c.codeSpans.new()
		cs.Text = strings.TrimSpace(plainText(h.takeInlines(f.inlineMark)))
		h.push(cs)
	case hSub, hSup:
		// GitHub draws sub and sup as smaller text, which a terminal
		// cannot; their words stay as written, so search and copy find
		// them (Unicode script forms exist for a few characters only and
		// would turn a footnote's 1 into a different character). Math
		// ($x^2$) has its own Unicode scripts.
		for _, in := range h.takeInlines(f.inlineMark) {
			h.push(in)
		}
	case hLink:
		if f.href == "" {
			return
		}
		l := c.links.new()
		l.URL = htmlURL(f.href)
		l.Content = h.takeInlines(f.inlineMark)
		h.push(l)
	}
}

func (h *htmlBuilder) closeBlock(f *htmlFrame) {
	c := h.c
	var b Block
	switch f.kind {
	case hDetails:
		b = h.closeDetails(f)
	case hSummary:
		b = h.closeSummary(f)
	case hQuote:
		q := c.quotes.new()
		q.Blocks = h.takeBlocks(f.blockMark)
		b = q
	case hHeading:
		hd := c.headings.new()
		hd.Level, hd.Content = f.level, trimInlines(h.takeInlines(f.inlineMark))
		b = hd
	case hList:
		b = h.closeList(f)
	case hItem:
		h.closeItem(f)
	case hPre:
		b = h.closePre(f)
	}
	if b != nil {
		c.blockStack = append(c.blockStack, b)
	}
	if f.center {
		h.centre(f)
	}
}

// closeDetails makes a details element a details container titled by
// its summary.
func (h *htmlBuilder) closeDetails(f *htmlFrame) Block {
	d := h.c.directives.new()
	d.Name, d.Form = "details", FormContainer
	d.Attrs = Attrs{{Key: "title", Value: f.title}}
	if f.open {
		d.Attrs = append(d.Attrs, Attr{Key: "open", Bare: true})
	}
	d.Blocks = h.takeBlocks(f.blockMark)
	return d
}

// closeList makes a list of a list element's items; nil without items.
func (h *htmlBuilder) closeList(f *htmlFrame) Block {
	if len(f.items) == 0 {
		return nil
	}
	l := h.c.lists.new()
	l.Ordered, l.Start, l.Tight, l.Items = f.ordered, max(f.start, 1), true, f.items
	return l
}

// centre wraps what a centring element made in a center container.
func (h *htmlBuilder) centre(f *htmlFrame) {
	c := h.c
	if len(c.blockStack) == f.blockMark {
		return
	}
	d := c.directives.new()
	d.Name, d.Form = "center", FormContainer
	d.Blocks = h.takeBlocks(f.blockMark)
	c.blockStack = append(c.blockStack, d)
}

// closeSummary makes a summary its details element's title, or, outside
// one, a paragraph of strong text.
func (h *htmlBuilder) closeSummary(f *htmlFrame) Block {
	content := trimInlines(h.takeInlines(f.inlineMark))
	if p := h.top(); p.kind == hDetails && p.title == "" {
		p.title = strings.TrimSpace(plainText(content))
		return nil
	}
	if len(content) == 0 {
		return nil
	}
	s := h.c.strongs.new()
	s.Content = content
	return &Paragraph{Content: []Inline{s}}
}

// closeItem adds a list item to its list; outside one, its blocks stay
// where they are.
func (h *htmlBuilder) closeItem(f *htmlFrame) {
	if p := h.top(); p.kind == hList {
		it := h.c.listItems.new()
		it.Blocks = h.takeBlocks(f.blockMark)
		p.items = append(p.items, it)
	}
}

// closePre makes a code block of a pre element's text.
func (h *htmlBuilder) closePre(f *htmlFrame) Block {
	t := strings.TrimRight(sanitize.Pre(strings.TrimPrefix(string(f.pre), "\n")), "\n")
	if strings.TrimSpace(t) == "" {
		return nil
	}
	cb := h.c.codeBlocks.new()
	cb.Text = t
	return cb
}

// closeTable ends a cell, a row, a table section or a table.
func (h *htmlBuilder) closeTable(f *htmlFrame) {
	p := h.top()
	switch f.kind {
	case hCell:
		p.header = append(p.header, trimInlines(h.takeInlines(f.inlineMark)))
		if !f.head {
			p.start++ // counts the row's td cells
		}
	case hRow:
		h.closeRow(f, p)
	case hTable:
		if f.header == nil && len(f.rows) > 0 {
			f.header, f.rows = f.rows[0], f.rows[1:]
		}
		if f.header == nil {
			return
		}
		t := h.c.tables.new()
		t.Header, t.Rows = f.header, f.rows
		cols := len(t.Header)
		for _, r := range t.Rows {
			cols = max(cols, len(r))
		}
		t.Align = make([]Align, cols)
		h.c.blockStack = append(h.c.blockStack, t)
	}
}

// closeRow adds a row to its table: the header when it is the table's
// first and sits in a thead or has th cells only.
func (h *htmlBuilder) closeRow(f, p *htmlFrame) {
	t, inHead := p, false
	if p.kind == hSection {
		t, inHead = &h.frames[len(h.frames)-2], p.head
	}
	if len(f.header) == 0 || t.kind != hTable {
		return
	}
	if t.header == nil && len(t.rows) == 0 && (inHead || f.start == 0) {
		t.header = f.header
	} else {
		t.rows = append(t.rows, f.header)
	}
}

// hardBreak adds a line break (a space inside a table cell or a heading).
func (h *htmlBuilder) hardBreak() {
	if f := h.pre(); f != nil {
		f.pre = append(f.pre, '\n')
		return
	}
	if k := h.blockFrame().kind; k == hCell || k == hHeading || k == hSummary {
		h.push(h.c.newText(" "))
		return
	}
	h.push(&HardBreak{})
}

func (h *htmlBuilder) image(a htmlAttrs) {
	if h.pre() != nil {
		return
	}
	h.push(&Image{URL: htmlURL(a.src), Alt: sanitize.Inline(a.alt), Width: a.width, Height: a.height})
}

// htmlURL vets an attribute's URL as a markdown destination is vetted.
func htmlURL(u string) string {
	if u == "" {
		return ""
	}
	if strings.Contains(u, " ") {
		u = strings.ReplaceAll(u, " ", "%20")
	}
	return sanitize.LinkURL(u)
}

// htmlAttrs are the attributes markii reads, decoded.
type htmlAttrs struct {
	align, href, src, alt string
	open                  bool
	start                 int
	width, height         Length
}

func readHTMLAttrs(z *html.Tokenizer) htmlAttrs {
	var a htmlAttrs
	for {
		key, val, more := z.TagAttr()
		a.set(string(key), val)
		if !more {
			return a
		}
	}
}

// set reads the attribute key (in lower case) with the decoded value
// val, when it is one markii reads.
func (a *htmlAttrs) set(key string, val []byte) {
	switch key {
	case "align":
		a.align = strings.ToLower(strings.TrimSpace(string(val)))
	case "href":
		a.href = strings.TrimSpace(string(val))
	case "src", "srcset":
		// The first of them.
		a.src = cmp.Or(a.src, strings.TrimSpace(string(val)))
	case "alt":
		a.alt = string(val)
	case "open":
		a.open = true
	case "width":
		a.width = htmlLength(val)
	case "height":
		a.height = htmlLength(val)
	case "start":
		a.start = listStart(val, a.start)
	}
}

// listStart reads a start attribute: a number from 1 up to 1e9, else
// start as it was.
func listStart(val []byte, start int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(string(val))); err == nil && n > 0 && n < 1e9 {
		return n
	}
	return start
}

// maxHTMLLength bounds a length attribute, in pixels.
const maxHTMLLength = 100000

// htmlLength reads a width or height attribute: pixels ("120",
// "120px") or a percentage ("50%"); anything else, zero, or more than
// maxHTMLLength (100% for a percentage) is no length.
func htmlLength(v []byte) Length {
	s := strings.TrimSpace(string(v))
	var l Length
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, l.Percent = t, true
	} else {
		s = strings.TrimSuffix(s, "px")
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i] // "50.5" reads as 50
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > maxHTMLLength || l.Percent && n > 100 {
		return Length{}
	}
	l.N = n
	return l
}

// isHTMLSpace reports whether t is all HTML white space.
func isHTMLSpace(t []byte) bool {
	for _, b := range t {
		if !isClass(b, classHTMLSpace) {
			return false
		}
	}
	return true
}

// collapseSpace turns each run of HTML white space in t into one space.
func collapseSpace(t []byte) string {
	out := make([]byte, 0, len(t))
	space := false
	for _, b := range t {
		if isClass(b, classHTMLSpace) {
			if !space {
				out = append(out, ' ')
			}
			space = true
			continue
		}
		space = false
		out = append(out, b)
	}
	return string(out)
}

// trimInlines drops the white space at either end of content, in place,
// and the breaks at its ends.
func trimInlines(content []Inline) []Inline {
	for len(content) > 0 && blankEdge(content[0], strings.TrimLeft) {
		content = content[1:]
	}
	for len(content) > 0 && blankEdge(content[len(content)-1], strings.TrimRight) {
		content = content[:len(content)-1]
	}
	return content
}

// blankEdge trims the spaces off an edge text with trim and reports
// whether n is then empty: a break, or a text of spaces.
func blankEdge(n Inline, trim func(string, string) string) bool {
	switch t := n.(type) {
	case *Text:
		t.Text = trim(t.Text, " ")
		return t.Text == ""
	case *HardBreak, *SoftBreak:
		return true
	}
	return false
}

// opensHTMLElement reports whether line holds a start tag of an element
// that, in a raw HTML block, stays open across the markdown blocks after
// it: a block element (one whose content is dropped ends with its raw
// HTML block). An end tag with no such element open does nothing.
func opensHTMLElement(line []byte) bool {
	for i := bytes.IndexByte(line, '<'); i >= 0; {
		rest := line[i+1:]
		if opensBlockTag(rest) {
			return true
		}
		j := bytes.IndexByte(rest, '<')
		if j < 0 {
			return false
		}
		i = len(line) - len(rest) + j
	}
	return false
}

// opensBlockTag reports whether rest, after a '<', starts with the name
// of a block element.
func opensBlockTag(rest []byte) bool {
	n := skipClass(rest, 0, classTagName)
	if n == 0 || n > 12 {
		return false
	}
	var name [12]byte
	for j := range n {
		name[j] = rest[j] | 0x20
	}
	return htmlKindOf(name[:n]).block()
}
