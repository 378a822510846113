package render

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/markii/markii/render/alert"
	"github.com/markii/markii/render/directive"
	"github.com/markii/markii/sanitize"
	"github.com/yuin/goldmark"
	emoji "github.com/yuin/goldmark-emoji"
	emojiast "github.com/yuin/goldmark-emoji/ast"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MaxDepth is how deep markii's tree may nest. Every block container
// (quote, list, list item, directive) and every inline container
// (emphasis, strong, strikethrough, link, inline directive) is one level.
// Content below this depth is flattened into one plain-text paragraph or
// text run and Document.Flattened is set, so every later recursive stage
// (layout, listing) is bounded no matter what a note contains. 256 is far
// beyond anything a reader can follow and above the 200 levels the
// directive listing reports. A script fence inside flattened content is
// flattened too: it is not runnable and not in Document.Scripts.
const MaxDepth = 256

var (
	markdownOnce sync.Once
	markdownImpl parser.Parser
)

// syntaxExtensions are the goldmark extensions markii's parser adds to
// CommonMark: GFM's tables and task list items, from goldmark's own
// extension package, and GitHub's alerts. Only their parsers are used;
// markii draws every node itself. GFM's strikethrough is matched with
// emphasis (parse_emphasis.go); GFM's autolinks are added by newMarkdown,
// outside link text; footnotes too, their definitions' parser
// depth-capped.
func syntaxExtensions() []goldmark.Extender {
	return []goldmark.Extender{
		extension.Table,
		extension.TaskList,
		alert.Extension,
	}
}

// markdown returns the shared goldmark parser: CommonMark with the
// nesting blocks depth-capped (parse_limits.go), code spans, emphasis and
// links found in linear time (parse_codespan.go, parse_emphasis.go,
// parse_links.go), the directive parsers, and syntaxExtensions. It is
// read-only after the first parse and safe for concurrent use.
func markdown() parser.Parser {
	markdownOnce.Do(func() { markdownImpl = newMarkdown(links{}) })
	return markdownImpl
}

// newMarkdown builds markdown's parser around the inline parser of links
// and images given (the tests compare markii's with goldmark's).
func newMarkdown(linkParser parser.InlineParser) parser.Parser {
	var inlines []util.PrioritizedValue
	for _, v := range parser.DefaultInlineParsers() {
		switch v.Priority {
		case 100: // goldmark's code span parser
			v.Value = codeSpans{v.Value.(parser.InlineParser)}
		case 200: // goldmark's link parser: linkParser replaces it
			v.Value = resolvingInside{directive.GuardLinks(linkParser)}
		case 500: // goldmark's emphasis parser: emphasisRuns replaces it
			continue
		}
		inlines = append(inlines, v)
	}
	inlines = append(inlines,
		// Before every other parser, so that its CloseBlock matches
		// the runs before the others close the block, as goldmark's
		// own delimiter processing does.
		util.Prioritized(emphasisRuns{}, 50),
		util.Prioritized(directive.NewLabelCodeGuard(), 90),
		util.Prioritized(colonRuns{}, 299),
		util.Prioritized(directive.NewInlineParser(), 300),
		util.Prioritized(resolvingInside{directive.NewLabelCloser()}, 150),
		util.Prioritized(emojiShortcodes{emoji.NewParser()}, 999),
		util.Prioritized(mathSpans{}, 990),
		util.Prioritized(wikiLinks{}, 199),
		// GFM's autolinks (at 999 as extension.Linkify adds them).
		util.Prioritized(outsideLinkText{extension.NewLinkifyParser()}, 999),
		util.Prioritized(extension.NewFootnoteParser(), 101))
	base := parser.NewParser(
		parser.WithBlockParsers(noteBlockParsers()...),
		parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(util.Prioritized(linkRefDefinitions{}, 100)),
		parser.WithASTTransformers(util.Prioritized(extension.NewFootnoteASTTransformer(), 999)),
	)
	return goldmark.New(goldmark.WithParser(base), goldmark.WithExtensions(syntaxExtensions()...)).Parser()
}

// noteBlockParsers are the block parsers of markdown's parser: CommonMark's
// with the nesting blocks depth-capped, the directive parsers and GFM's
// footnote definitions.
func noteBlockParsers() []util.PrioritizedValue {
	return append(cappedBlockParsers(),
		util.Prioritized(depthCapped{directive.NewContainerParser()}, 70),
		util.Prioritized(directive.NewLeafParser(), 71),
		// goldmark's footnote extension (at 999 as extension.Footnote
		// adds it), tried before the lazy-line stop.
		util.Prioritized(depthCapped{extension.NewFootnoteBlockParser()}, 998),
		util.Prioritized(directive.NewLazyStop(), 999))
}

// parsed is a goldmark parse of a note with its frontmatter split off.
type parsed struct {
	root ast.Node
	// body is the markdown given to goldmark; it starts at src[offset].
	body   []byte
	offset int
	front  *Frontmatter
	// capped reports that MaxBlockDepth refused to open a block.
	capped bool
}

// parseSource runs goldmark over src after splitting off a leading UTF-8
// byte-order mark and the frontmatter block, with leading blanks clamped to
// MaxIndent (body is then a copy, not a slice of src).
func parseSource(src []byte) parsed {
	var p parsed
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		p.offset = 3
	}
	if yaml, body, ok := splitFrontmatter(src[p.offset:]); ok {
		p.front = &Frontmatter{Uses: readUses(yaml)}
		p.offset += body
	}
	p.body = clampIndent(src[p.offset:])
	pc := parser.NewContext()
	p.root = markdown().Parse(text.NewReader(p.body), parser.WithContext(pc))
	p.capped = pc.Get(depthHitKey) != nil
	return p
}

// Parse parses a Markii note into markii's sanitized document tree. It
// never fails: malformed syntax degrades to text, raw HTML is read through
// an allowlist (parse_html.go), and every string in the tree has been
// decoded and then sanitized.
func Parse(src []byte) (doc *Document) {
	defer func() {
		if recover() != nil {
			// A parser defect must not take the program down: show the
			// note as plain text instead.
			doc = &Document{Blocks: []Block{&CodeBlock{Text: strings.TrimSuffix(sanitize.Pre(string(src)), "\n")}}}
		}
	}()
	return parseDocument(src)
}

// parseDocument is Parse without the last-resort recovery (the fuzz test
// calls it directly so defects surface).
func parseDocument(src []byte) *Document {
	p := parseSource(src)
	doc := &Document{Frontmatter: p.front, Flattened: p.capped}
	c := newConverter(p.body, doc)
	doc.Blocks = c.blocks(p.root, 0)
	return doc
}

// converter turns goldmark's AST into markii's tree.
type converter struct {
	src []byte
	doc *Document
	// buf is scratch space for decoding.
	buf []byte
	// text is src as one string, made on first use: a run of text taken
	// from the note unchanged is a substring of it, not a copy of its own.
	text string

	// inlineStack and blockStack hold the children being collected by
	// every inlines and blocks call in progress, innermost last; each call
	// copies its own out and cuts the stack back.
	inlineStack []Inline
	blockStack  []Block
	cellStack   [][]Inline
	attrStack   []Attr

	// The tree's nodes and child slices are carved from the converter's
	// arena.
	arena
}

// source returns src[start:stop] as a string without copying it again.
func (c *converter) source(start, stop int) string {
	if len(c.text) != len(c.src) {
		c.text = string(c.src)
	}
	return c.text[start:stop]
}

// newText returns a Text node holding s.
func (c *converter) newText(s string) *Text {
	t := c.texts.new()
	t.Text = s
	return t
}

func (c *converter) blocks(parent ast.Node, depth int) []Block {
	mark := len(c.blockStack)
	var h *htmlBuilder
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if raw, ok := n.(*ast.HTMLBlock); ok && depth < MaxDepth {
			if h == nil {
				h = c.newHTML(depth, false)
			}
			h.htmlBlock(raw)
			continue
		}
		if h != nil {
			h.markdown(n)
			continue
		}
		if b := c.block(n, depth); b != nil {
			c.blockStack = append(c.blockStack, b)
		}
	}
	if h != nil {
		h.finish()
	}
	out := c.blockSlices.clone(c.blockStack[mark:])
	clear(c.blockStack[mark:])
	c.blockStack = c.blockStack[:mark]
	return out
}

// block converts one block node; nil for a node markii does not draw.
func (c *converter) block(n ast.Node, depth int) Block {
	if depth >= MaxDepth {
		return c.flattenBlock(n)
	}
	if convert := blockConverters[n.Kind()]; convert != nil {
		return convert(c, n, depth)
	}
	return nil
}

// A nodeConverter converts one kind of goldmark node at a depth.
type nodeConverter[T any] func(c *converter, n ast.Node, depth int) T

// blockConverters and inlineConverters convert each kind of goldmark
// node markii draws, as a goldmark renderer's table of node renderers
// does; raw HTML is read apart (parse_html.go).
var (
	blockConverters  map[ast.NodeKind]nodeConverter[Block]
	inlineConverters map[ast.NodeKind]nodeConverter[Inline]
	convertersOnce   sync.Once
)

// newConverter returns a converter of the tree parsed from src into doc.
func newConverter(src []byte, doc *Document) *converter {
	convertersOnce.Do(makeConverters)
	return &converter{src: src, doc: doc}
}

// makeConverters fills the converter tables on first use (package inits
// allocate nothing; the converters also call back into block and inline).
func makeConverters() {
	blockConverters = map[ast.NodeKind]nodeConverter[Block]{
		ast.KindParagraph:       (*converter).paragraph,
		ast.KindTextBlock:       (*converter).paragraph,
		ast.KindHeading:         (*converter).heading,
		ast.KindThematicBreak:   func(*converter, ast.Node, int) Block { return &ThematicBreak{} },
		ast.KindCodeBlock:       (*converter).codeBlock,
		ast.KindFencedCodeBlock: (*converter).fenced,
		ast.KindBlockquote:      (*converter).quote,
		alert.KindAlert:         (*converter).alert,
		ast.KindList:            (*converter).list,
		extast.KindTable:        (*converter).table,
		directive.KindContainer: (*converter).container,
		directive.KindLeaf:      (*converter).leaf,
		extast.KindFootnoteList: (*converter).footnotes,
	}
	inlineConverters = map[ast.NodeKind]nodeConverter[Inline]{
		ast.KindEmphasis:         (*converter).emphasis,
		extast.KindStrikethrough: (*converter).strikethrough,
		ast.KindCodeSpan:         (*converter).codeSpan,
		extast.KindFootnoteLink:  (*converter).footnoteRef,
		emojiast.KindEmoji:       (*converter).emoji,
		ast.KindLink:             (*converter).link,
		ast.KindImage:            (*converter).image,
		ast.KindAutoLink:         (*converter).autoLink,
		(*mathSpan)(nil).Kind():  (*converter).mathInline,
		(*wikiSpan)(nil).Kind():  (*converter).wikiLink,
		directive.KindInline:     (*converter).inlineDirective,
	}
}

// paragraph converts a paragraph (or a list item's text block): display
// math when it is only that, nil when it holds nothing.
func (c *converter) paragraph(n ast.Node, depth int) Block {
	if p, ok := n.(*ast.Paragraph); ok {
		if m := c.displayMath(p); m != nil {
			return m
		}
	}
	if content := c.inlines(n, depth+1); len(content) > 0 {
		p := c.paragraphs.new()
		p.Content = content
		return p
	}
	return nil
}

func (c *converter) heading(n ast.Node, depth int) Block {
	h := c.headings.new()
	h.Level, h.Content = n.(*ast.Heading).Level, c.inlines(n, depth+1)
	return h
}

// codeBlock converts an indented code block.
func (c *converter) codeBlock(n ast.Node, _ int) Block {
	b := c.codeBlocks.new()
	b.Text = strings.TrimSuffix(sanitize.Pre(c.codeBody(n)), "\n")
	return b
}

func (c *converter) quote(n ast.Node, depth int) Block {
	q := c.quotes.new()
	q.Blocks = c.blocks(n, depth+1)
	return q
}

func (c *converter) container(n ast.Node, depth int) Block {
	v := n.(*directive.Container)
	d := c.directives.new()
	d.Name, d.Form, d.Attrs = v.Name, FormContainer, c.attrs(v.Attrs)
	d.Blocks = c.blocks(n, depth+1)
	return d
}

func (c *converter) leaf(n ast.Node, depth int) Block {
	v := n.(*directive.Leaf)
	d := c.directives.new()
	d.Name, d.Form, d.Attrs = v.Name, FormLeaf, c.attrs(v.Attrs)
	d.Label = c.inlines(n, depth+1)
	return d
}

// footnotes converts goldmark's footnote list, which its transformer
// appends to the document with the referenced definitions in number order
// (each paragraph's backlinks are left out: inline drops them).
func (c *converter) footnotes(n ast.Node, depth int) Block {
	var notes []Footnote
	for fn := n.FirstChild(); fn != nil; fn = fn.NextSibling() {
		if fn, ok := fn.(*extast.Footnote); ok && fn.Index > 0 {
			notes = append(notes, Footnote{Number: fn.Index, Blocks: c.blocks(fn, depth+1)})
		}
	}
	if len(notes) == 0 {
		return nil
	}
	return &Footnotes{Notes: notes}
}

// flattenBlock replaces a block nested too deep with a paragraph of its
// plain text.
func (c *converter) flattenBlock(n ast.Node) Block {
	c.doc.Flattened = true
	if _, ok := n.(*ast.HTMLBlock); ok {
		return nil
	}
	t := sanitize.Inline(string(c.plain(n, nil)))
	if t == "" {
		return nil
	}
	return &Paragraph{Content: []Inline{&Text{Text: t}}}
}

// codeBody joins a code block's lines as written (tab padding restored).
func (c *converter) codeBody(n ast.Node) string {
	lines := n.Lines()
	if lines.Len() == 0 {
		return ""
	}
	if start, stop, ok := contiguous(lines); ok {
		return c.source(start, stop)
	}
	var b strings.Builder
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		for p := 0; p < s.Padding; p++ {
			b.WriteByte(' ')
		}
		b.Write(c.src[s.Start:s.Stop])
	}
	return b.String()
}

// contiguous reports whether lines, as codeBody joins them, are the one
// run src[start:stop] of the source.
func contiguous(lines *text.Segments) (start, stop int, ok bool) {
	first := lines.At(0)
	start, stop = first.Start, first.Stop
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		if s.Padding != 0 || (i > 0 && s.Start != stop) {
			return 0, 0, false
		}
		stop = s.Stop
	}
	return start, stop, true
}

// fenced converts a fenced code block: a runnable script when its info
// string's first `{...}` group has a valid name (SPEC §1.5), else a code
// block.
func (c *converter) fenced(node ast.Node, _ int) Block {
	n := node.(*ast.FencedCodeBlock)
	var info string
	if n.Info != nil {
		info = string(appendDecoded(nil, n.Info.Segment.Value(c.src), true))
	}
	lang, meta := splitInfo(info)
	body := c.codeBody(n)
	if m, ok := scriptFence(meta); ok {
		s := c.scriptNodes.new()
		*s = ScriptBlock{Name: m.name, Lang: lang, Src: m.src, HasSrc: m.hasSrc, Publish: m.publish, Source: body}
		label := lang
		if m.hasSrc {
			label = m.src
		}
		s.Label = sanitize.Inline(label)
		for _, h := range splitPermissions(m.permissions) {
			s.Permissions = append(s.Permissions, sanitize.Inline(h))
		}
		c.doc.Scripts = append(c.doc.Scripts, s)
		return s
	}
	if lang == "math" {
		return c.mathBlock(body)
	}
	b := c.codeBlocks.new()
	b.Lang, b.Text = sanitize.Inline(lang), strings.TrimSuffix(sanitize.Pre(body), "\n")
	return b
}

func (c *converter) list(node ast.Node, depth int) Block {
	n := node.(*ast.List)
	l := c.lists.new()
	l.Ordered, l.Start, l.Tight = n.IsOrdered(), n.Start, n.IsTight
	if n.IsOrdered() && n.Marker == ')' {
		l.Delimiter = ')'
	}
	l.Items = make([]*ListItem, 0, n.ChildCount())
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		item := c.listItems.new()
		if depth+1 >= MaxDepth {
			if b := c.flattenBlock(it); b != nil {
				item.Blocks = []Block{b}
			}
		} else {
			if first := it.FirstChild(); first != nil {
				if box, ok := first.FirstChild().(*extast.TaskCheckBox); ok {
					item.Task = c.tasks.new()
					*item.Task = box.IsChecked
				}
			}
			item.Blocks = c.blocks(it, depth+2)
		}
		l.Items = append(l.Items, item)
	}
	return l
}

func (c *converter) table(node ast.Node, depth int) Block {
	n := node.(*extast.Table)
	t := c.tables.new()
	t.Align = make([]Align, 0, len(n.Alignments))
	for _, a := range n.Alignments {
		t.Align = append(t.Align, tableAligns[a])
	}
	if rows := n.ChildCount() - 1; rows > 0 {
		t.Rows = make([][][]Inline, 0, rows)
	}
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		row := c.tableRow(r, len(t.Align), depth)
		if _, ok := r.(*extast.TableHeader); ok {
			t.Header = row
		} else {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// tableAligns are goldmark's column alignments as markii's.
var tableAligns = [...]Align{
	extast.AlignLeft:   AlignLeft,
	extast.AlignCenter: AlignCenter,
	extast.AlignRight:  AlignRight,
	extast.AlignNone:   AlignNone,
}

// tableRow converts a table row's cells: cols of them, the missing ones
// empty.
func (c *converter) tableRow(r ast.Node, cols, depth int) [][]Inline {
	// Cells hold no tables, so the stack is never in use here.
	cells := c.cellStack[:0]
	for cell := r.FirstChild(); cell != nil && len(cells) < cols; cell = cell.NextSibling() {
		cells = append(cells, c.inlines(cell, depth+1))
	}
	for len(cells) < cols {
		cells = append(cells, nil)
	}
	row := c.cellSlices.clone(cells)
	clear(cells)
	c.cellStack = cells[:0]
	return row
}

// attrs decodes and sanitizes directive attributes. Values get character
// references resolved (as mdast-util-directive does) and then the inline
// sanitizer.
func (c *converter) attrs(in []directive.Attr) Attrs {
	if len(in) == 0 {
		return nil
	}
	out := c.attrStack[:0]
	for _, a := range in {
		v := a.Value
		if strings.IndexByte(v, '&') >= 0 {
			v = string(appendDecoded(nil, []byte(v), false))
		}
		out = append(out, Attr{Key: sanitize.Inline(a.Key), Value: sanitize.Inline(v), Bare: a.Bare})
	}
	attrs := c.attrSlices.clone(out)
	clear(out)
	c.attrStack = out[:0]
	return attrs
}

// inlines converts parent's inline children, merging adjacent text.
func (c *converter) inlines(parent ast.Node, depth int) []Inline {
	mark := len(c.inlineStack)
	// The run reuses the converter's scratch buffer: it is always flushed
	// before a nested call, which then starts from empty.
	r := textRun{pending: c.buf[:0]}
	// h reads the raw HTML tags among the children, once there is one.
	var h *htmlBuilder
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if raw, ok := n.(*ast.RawHTML); ok {
			c.flush(&r)
			h = c.rawInline(h, raw, depth)
		} else if h == nil || h.skip == 0 {
			c.inlineChild(&r, n, depth)
		}
	}
	c.flush(&r)
	if h != nil {
		h.finish()
	}
	c.buf = r.pending[:0]
	out := c.inlineSlices.clone(c.inlineStack[mark:])
	clear(c.inlineStack[mark:])
	c.inlineStack = c.inlineStack[:mark]
	return out
}

// textRun is the text inlines merges from adjacent text nodes before it
// becomes one Text. While verbatim is set, pending equals src[from:to].
type textRun struct {
	pending  []byte
	verbatim bool
	from, to int
}

// flush adds the run's text, if any, as a Text node and empties the run.
func (c *converter) flush(r *textRun) {
	if len(r.pending) == 0 {
		return
	}
	var s string
	if r.verbatim {
		s = c.source(r.from, r.to)
	} else {
		s = string(r.pending)
	}
	c.inlineStack = append(c.inlineStack, c.newText(sanitize.Inline(s)))
	r.pending = r.pending[:0]
}

// rawInline has h, made on first use, read the raw HTML tag raw; it
// returns h.
func (c *converter) rawInline(h *htmlBuilder, raw *ast.RawHTML, depth int) *htmlBuilder {
	if h == nil {
		h = c.newHTML(depth, true)
	}
	h.rawInline(raw)
	return h
}

// inlineChild converts one inline child other than raw HTML: text joins
// the run, anything else ends it.
func (c *converter) inlineChild(r *textRun, n ast.Node, depth int) {
	switch n := n.(type) {
	case *ast.Text:
		c.addText(r, n)
	case *ast.String:
		if len(n.Value) > 0 {
			r.verbatim = false
			r.pending = append(r.pending, n.Value...)
		}
	case *extast.TaskCheckBox:
		// The list item carries the box; drop the blank that follows it.
		if next, ok := n.NextSibling().(*ast.Text); ok && len(r.pending) == 0 {
			dropLeadingSpace(next, c.src)
		}
	default:
		c.flush(r)
		if in := c.inline(n, depth); in != nil {
			c.inlineStack = append(c.inlineStack, in)
		}
	}
}

// dropLeadingSpace moves the start of t past the space it starts with,
// if it does.
func dropLeadingSpace(t *ast.Text, src []byte) {
	if v := t.Segment.Value(src); len(v) > 0 && v[0] == ' ' {
		t.Segment = t.Segment.WithStart(t.Segment.Start + 1)
	}
}

// addText adds a text node to the run, decoded, and the line break that
// ends it, if any.
func (c *converter) addText(r *textRun, n *ast.Text) {
	seg := n.Segment
	v := seg.Value(c.src)
	asIs := n.IsRaw() || !needsDecoding(v)
	r.track(seg, asIs)
	if asIs {
		r.pending = append(r.pending, v...)
	} else {
		r.pending = appendDecoded(r.pending, v, true)
	}
	if n.HardLineBreak() {
		c.flush(r)
		c.inlineStack = append(c.inlineStack, &HardBreak{})
	} else if n.SoftLineBreak() {
		c.flush(r)
		c.inlineStack = append(c.inlineStack, &SoftBreak{})
	}
}

// track notes that seg (taken as is when asIs is set) joins the run: the
// run stays verbatim while its text is the source's, unbroken.
func (r *textRun) track(seg text.Segment, asIs bool) {
	plain := asIs && seg.Padding == 0 && !seg.ForceNewline
	if len(r.pending) == 0 {
		r.verbatim, r.from = plain, seg.Start
	} else {
		r.verbatim = r.verbatim && plain && seg.Start == r.to
	}
	r.to = seg.Stop
}

// needsDecoding reports whether appendDecoded could change b: only a
// backslash escape or a character reference does.
func needsDecoding(b []byte) bool {
	return bytes.IndexByte(b, '&') >= 0 || bytes.IndexByte(b, '\\') >= 0
}

// inline converts one non-text inline node; nil for a node markii does
// not draw. Below MaxDepth, and for a node of another kind, its plain
// text stands for it.
func (c *converter) inline(n ast.Node, depth int) Inline {
	if depth >= MaxDepth {
		c.doc.Flattened = true
		return c.plainInline(n)
	}
	if convert := inlineConverters[n.Kind()]; convert != nil {
		return convert(c, n, depth)
	}
	if n.HasChildren() {
		return c.plainInline(n)
	}
	return nil
}

// plainInline is the plain text under n as a Text node, or nil.
func (c *converter) plainInline(n ast.Node) Inline {
	if t := sanitize.Inline(string(c.plain(n, nil))); t != "" {
		return c.newText(t)
	}
	return nil
}

// emphasis converts emphasis, which is strong from level 2.
func (c *converter) emphasis(n ast.Node, depth int) Inline {
	if n.(*ast.Emphasis).Level >= 2 {
		s := c.strongs.new()
		s.Content = c.inlines(n, depth+1)
		return s
	}
	e := c.emphases.new()
	e.Content = c.inlines(n, depth+1)
	return e
}

func (c *converter) strikethrough(n ast.Node, depth int) Inline {
	s := c.strikes.new()
	s.Content = c.inlines(n, depth+1)
	return s
}

func (c *converter) codeSpan(n ast.Node, _ int) Inline {
	cs := c.codeSpans.new()
	cs.Text = sanitize.Inline(c.codeSpanText(n.(*ast.CodeSpan)))
	return cs
}

func (c *converter) footnoteRef(n ast.Node, _ int) Inline {
	return &FootnoteRef{Number: n.(*extast.FootnoteLink).Index}
}

func (c *converter) emoji(n ast.Node, _ int) Inline {
	e := n.(*emojiast.Emoji)
	return &Emoji{Shortcode: sanitize.Inline(string(e.ShortName)), Text: sanitize.Inline(string(e.Value.Unicode))}
}

// link converts a link, its text shown with its invisible characters
// made visible.
func (c *converter) link(n ast.Node, depth int) Inline {
	l := c.links.new()
	l.URL, l.Content = c.url(n.(*ast.Link).Destination), c.inlines(n, depth+1)
	visibleInlines(l.Content)
	return l
}

func (c *converter) image(n ast.Node, _ int) Inline {
	return &Image{URL: c.url(n.(*ast.Image).Destination), Alt: sanitize.Inline(string(c.plain(n, nil)))}
}

// autoLink converts an autolink; an email address links with mailto:.
func (c *converter) autoLink(node ast.Node, _ int) Inline {
	n := node.(*ast.AutoLink)
	u := string(n.URL(c.src))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
		u = "mailto:" + u
	}
	label := sanitize.Visible(string(n.Label(c.src)))
	l := c.links.new()
	l.URL, l.Auto = sanitize.LinkURL(u), true
	l.Content = c.inlineSlices.clone([]Inline{c.newText(label)})
	return l
}

func (c *converter) inlineDirective(node ast.Node, depth int) Inline {
	n := node.(*directive.Inline)
	d := c.inlineDirs.new()
	d.Name, d.Attrs, d.Bare = n.Name, c.attrs(n.Attrs), n.Bare()
	d.Content = c.inlines(n, depth+1)
	return d
}

// codeSpanText joins a code span's text as written; a span of one
// segment is a substring of the source.
func (c *converter) codeSpanText(n *ast.CodeSpan) string {
	if t, ok := n.FirstChild().(*ast.Text); ok && t.NextSibling() == nil {
		if s := t.Segment; s.Padding == 0 && !s.ForceNewline {
			return c.source(s.Start, s.Stop)
		}
	}
	var b []byte
	for t := n.FirstChild(); t != nil; t = t.NextSibling() {
		if s, ok := t.(*ast.Text); ok {
			b = append(b, s.Segment.Value(c.src)...)
		} else if s, ok := t.(*ast.String); ok {
			b = append(b, s.Value...)
		}
	}
	return string(b)
}

// url decodes a link destination and keeps it only if its scheme is safe.
// Spaces (allowed in a `<…>` destination) are percent-encoded rather than
// dropped, so the link keeps pointing where the note said.
func (c *converter) url(dest []byte) string {
	u := string(appendDecoded(nil, dest, true))
	if strings.Contains(u, " ") {
		u = strings.ReplaceAll(u, " ", "%20")
	}
	return sanitize.LinkURL(u)
}

// plain appends the decoded plain text under n to dst without recursion:
// text, code (spans and block bodies), autolink labels and directive
// labels; raw HTML is left out and blocks are separated by a line feed.
func (c *converter) plain(n ast.Node, dst []byte) []byte {
	for cur := ast.Node(n); cur != nil; {
		if cur.Type() == ast.TypeBlock && len(dst) > 0 && dst[len(dst)-1] != '\n' {
			dst = append(dst, '\n')
		}
		var skip bool
		dst, skip = c.plainNode(cur, dst)
		if !skip && cur.FirstChild() != nil {
			cur = cur.FirstChild()
			continue
		}
		cur = nextAfter(cur, n)
	}
	return dst
}

// plainNode appends the text cur itself holds (not its children's) to
// dst; skip is set for a node whose children hold no text (raw HTML).
func (c *converter) plainNode(cur ast.Node, dst []byte) ([]byte, bool) {
	switch v := cur.(type) {
	case *ast.Text:
		dst = c.plainText(v, dst)
	case *ast.String:
		dst = append(dst, v.Value...)
	case *extast.FootnoteLink:
		dst = append(append(append(dst, '['), strconv.Itoa(v.Index)...), ']')
	case *emojiast.Emoji:
		dst = append(dst, string(v.Value.Unicode)...)
	case *ast.AutoLink:
		dst = append(dst, v.Label(c.src)...)
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		dst = append(dst, c.codeBody(cur)...)
	case *ast.HTMLBlock, *ast.RawHTML:
		return dst, true
	}
	return dst, false
}

// plainText appends a text node's decoded text to dst, and a line feed
// for the line break that ends it.
func (c *converter) plainText(v *ast.Text, dst []byte) []byte {
	if v.IsRaw() {
		dst = append(dst, v.Segment.Value(c.src)...)
	} else {
		dst = appendDecoded(dst, v.Segment.Value(c.src), true)
	}
	if v.SoftLineBreak() || v.HardLineBreak() {
		dst = append(dst, '\n')
	}
	return dst
}

// nextAfter returns the node after cur's subtree in a walk of root's
// subtree in document order, or nil at its end.
func nextAfter(cur, root ast.Node) ast.Node {
	for cur != root && cur.NextSibling() == nil {
		cur = cur.Parent()
	}
	if cur == root {
		return nil
	}
	return cur.NextSibling()
}

// alertTypes are the callout types GitHub's alert kinds are drawn as.
var alertTypes = [...]string{alert.Note: "info", alert.Tip: "success", alert.Important: "accent", alert.Warning: "warning", alert.Caution: "danger"}

// alert converts a GitHub alert into the callout it is drawn as: the
// matching type, labeled with the alert's name.
func (c *converter) alert(node ast.Node, depth int) Block {
	n := node.(*alert.Alert)
	d := c.directives.new()
	d.Name, d.Form = "callout", FormContainer
	d.Attrs = Attrs{{Key: "type", Value: alertTypes[n.AlertKind]}}
	d.Label = []Inline{c.newText(n.AlertKind.String())}
	d.Blocks = c.blocks(n, depth+1)
	return d
}

// emojiShortcodes reads GitHub's emoji shortcodes (`:tada:`, `:+1:`) with
// goldmark-emoji's parser and its table of GitHub's names, after the
// directive parsers had their turn at the colon, and only where no word
// runs into the colon: `10:30:`, `a:smile:` and `10:100:` stay text.
type emojiShortcodes struct{ parser.InlineParser }

func (e emojiShortcodes) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if !shortcodeMayOpen(parent, block.PrecendingCharacter()) {
		return nil
	}
	if line, _ := block.PeekLine(); shortcodeRunsOn(line) {
		return nil
	}
	return e.InlineParser.Parse(parent, block, pc)
}

// shortcodeMayOpen reports whether a colon after prev may open a
// shortcode: not where a word runs into it, nor after a colon unless
// that colon closed a shortcode (`:a::b:`); `:::a:b` is no emoji.
func shortcodeMayOpen(parent ast.Node, prev rune) bool {
	if unicode.IsLetter(prev) || unicode.IsDigit(prev) {
		return false
	}
	_, afterEmoji := parent.LastChild().(*emojiast.Emoji)
	return prev != ':' || afterEmoji
}

// shortcodeRunsOn reports whether a word, a label or attributes run on
// from the colon that would close the shortcode line opens (`:a:b[label]`,
// `:x:y`).
func shortcodeRunsOn(line []byte) bool {
	end := 1
	for end < len(line) && line[end] != ':' && line[end] != '\n' {
		end++
	}
	return end+1 < len(line) && runsOnShortcode(line[end+1:])
}

// runsOnShortcode reports whether b, right after a shortcode's closing
// colon, runs on from it.
func runsOnShortcode(b []byte) bool {
	next := rune(b[0])
	return unicode.IsLetter(next) || unicode.IsDigit(next) || next == '[' || next == '{' || next >= 0x80 && !emojiLead(b)
}

// emojiLead reports whether b starts with a character that may follow a
// shortcode directly: anything but a letter or a digit.
func emojiLead(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// visibleInlines shows the invisible characters of a link's text as
// visible escapes (sanitize.Visible): a reader decides whether to follow a
// link by what its text says, so an override or a zero-width character in
// it must not change how it reads.
func visibleInlines(content []Inline) {
	for _, in := range content {
		switch n := in.(type) {
		case *Text:
			n.Text = sanitize.Visible(n.Text)
		case *CodeSpan:
			n.Text = sanitize.Visible(n.Text)
		case *Link:
			// A link inside a link's text is converted on its own.
		case inlineParent:
			visibleInlines(n.inlines())
		}
	}
}
