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
	c := &converter{src: p.body, doc: doc}
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

func (c *converter) block(n ast.Node, depth int) Block {
	if depth >= MaxDepth {
		return c.flattenBlock(n)
	}
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
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
	case *ast.Heading:
		h := c.headings.new()
		h.Level, h.Content = n.Level, c.inlines(n, depth+1)
		return h
	case *ast.ThematicBreak:
		return &ThematicBreak{}
	case *ast.CodeBlock:
		b := c.codeBlocks.new()
		b.Text = strings.TrimSuffix(sanitize.Pre(c.codeBody(n)), "\n")
		return b
	case *ast.FencedCodeBlock:
		return c.fenced(n)
	case *ast.Blockquote:
		q := c.quotes.new()
		q.Blocks = c.blocks(n, depth+1)
		return q
	case *alert.Alert:
		return c.alert(n, depth)
	case *ast.List:
		return c.list(n, depth)
	case *extast.Table:
		return c.table(n, depth)
	case *directive.Container:
		d := c.directives.new()
		d.Name, d.Form, d.Attrs = n.Name, FormContainer, c.attrs(n.Attrs)
		d.Blocks = c.blocks(n, depth+1)
		return d
	case *directive.Leaf:
		d := c.directives.new()
		d.Name, d.Form, d.Attrs = n.Name, FormLeaf, c.attrs(n.Attrs)
		d.Label = c.inlines(n, depth+1)
		return d
	case *extast.FootnoteList:
		return c.footnotes(n, depth)
	case *ast.HTMLBlock:
		return nil
	}
	return nil
}

// footnotes converts goldmark's footnote list, which its transformer
// appends to the document with the referenced definitions in number order
// (each paragraph's backlinks are left out: inline drops them).
func (c *converter) footnotes(n *extast.FootnoteList, depth int) Block {
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
func (c *converter) fenced(n *ast.FencedCodeBlock) Block {
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

func (c *converter) list(n *ast.List, depth int) Block {
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

func (c *converter) table(n *extast.Table, depth int) Block {
	t := c.tables.new()
	t.Align = make([]Align, 0, len(n.Alignments))
	for _, a := range n.Alignments {
		switch a {
		case extast.AlignLeft:
			t.Align = append(t.Align, AlignLeft)
		case extast.AlignCenter:
			t.Align = append(t.Align, AlignCenter)
		case extast.AlignRight:
			t.Align = append(t.Align, AlignRight)
		default:
			t.Align = append(t.Align, AlignNone)
		}
	}
	cols := len(t.Align)
	if rows := n.ChildCount() - 1; rows > 0 {
		t.Rows = make([][][]Inline, 0, rows)
	}
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
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
		if _, ok := r.(*extast.TableHeader); ok {
			t.Header = row
		} else {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
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
	// pending reuses the converter's scratch buffer: it is always flushed
	// before a nested call, which then starts from empty. While verbatim
	// is set, pending equals src[from:to].
	pending := c.buf[:0]
	verbatim, from, to := false, 0, 0
	// h reads the raw HTML tags among the children, once there is one.
	var h *htmlBuilder
	flush := func() {
		if len(pending) > 0 {
			var s string
			if verbatim {
				s = c.source(from, to)
			} else {
				s = string(pending)
			}
			c.inlineStack = append(c.inlineStack, c.newText(sanitize.Inline(s)))
			pending = pending[:0]
		}
	}
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if raw, ok := n.(*ast.RawHTML); ok {
			flush()
			if h == nil {
				h = c.newHTML(depth, true)
			}
			h.rawInline(raw)
			continue
		}
		if h != nil && h.skip > 0 {
			continue
		}
		switch n := n.(type) {
		case *ast.Text:
			seg := n.Segment
			v := seg.Value(c.src)
			asIs := n.IsRaw() || !needsDecoding(v)
			switch {
			case len(pending) == 0:
				verbatim, from = asIs && seg.Padding == 0 && !seg.ForceNewline, seg.Start
			case !asIs || seg.Padding != 0 || seg.ForceNewline || seg.Start != to:
				verbatim = false
			}
			to = seg.Stop
			if asIs {
				pending = append(pending, v...)
			} else {
				pending = appendDecoded(pending, v, true)
			}
			if n.HardLineBreak() {
				flush()
				c.inlineStack = append(c.inlineStack, &HardBreak{})
			} else if n.SoftLineBreak() {
				flush()
				c.inlineStack = append(c.inlineStack, &SoftBreak{})
			}
			continue
		case *ast.String:
			if len(n.Value) > 0 {
				verbatim = false
				pending = append(pending, n.Value...)
			}
			continue
		case *extast.TaskCheckBox:
			// The list item carries the box; drop the blank that follows it.
			if next, ok := n.NextSibling().(*ast.Text); ok && len(pending) == 0 {
				if v := next.Segment.Value(c.src); len(v) > 0 && v[0] == ' ' {
					next.Segment = next.Segment.WithStart(next.Segment.Start + 1)
				}
			}
			continue
		}
		flush()
		if in := c.inline(n, depth); in != nil {
			c.inlineStack = append(c.inlineStack, in)
		}
	}
	flush()
	if h != nil {
		h.finish()
	}
	c.buf = pending[:0]
	out := c.inlineSlices.clone(c.inlineStack[mark:])
	clear(c.inlineStack[mark:])
	c.inlineStack = c.inlineStack[:mark]
	return out
}

// needsDecoding reports whether appendDecoded could change b: only a
// backslash escape or a character reference does.
func needsDecoding(b []byte) bool {
	return bytes.IndexByte(b, '&') >= 0 || bytes.IndexByte(b, '\\') >= 0
}

// inline converts one non-text inline node.
func (c *converter) inline(n ast.Node, depth int) Inline {
	if depth >= MaxDepth {
		c.doc.Flattened = true
		if t := sanitize.Inline(string(c.plain(n, nil))); t != "" {
			return c.newText(t)
		}
		return nil
	}
	switch n := n.(type) {
	case *ast.Emphasis:
		if n.Level >= 2 {
			s := c.strongs.new()
			s.Content = c.inlines(n, depth+1)
			return s
		}
		e := c.emphases.new()
		e.Content = c.inlines(n, depth+1)
		return e
	case *extast.Strikethrough:
		s := c.strikes.new()
		s.Content = c.inlines(n, depth+1)
		return s
	case *ast.CodeSpan:
		cs := c.codeSpans.new()
		cs.Text = sanitize.Inline(c.codeSpanText(n))
		return cs
	case *extast.FootnoteLink:
		return &FootnoteRef{Number: n.Index}
	case *emojiast.Emoji:
		return &Emoji{Shortcode: sanitize.Inline(string(n.ShortName)), Text: sanitize.Inline(string(n.Value.Unicode))}
	case *ast.Link:
		l := c.links.new()
		l.URL, l.Content = c.url(n.Destination), c.inlines(n, depth+1)
		visibleInlines(l.Content)
		return l
	case *ast.Image:
		return &Image{URL: c.url(n.Destination), Alt: sanitize.Inline(string(c.plain(n, nil)))}
	case *ast.AutoLink:
		u := string(n.URL(c.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
			u = "mailto:" + u
		}
		label := sanitize.Visible(string(n.Label(c.src)))
		l := c.links.new()
		l.URL, l.Auto = sanitize.LinkURL(u), true
		l.Content = c.inlineSlices.clone([]Inline{c.newText(label)})
		return l
	case *mathSpan:
		return c.mathInline(n)
	case *wikiSpan:
		return c.wikiLink(n)
	case *directive.Inline:
		d := c.inlineDirs.new()
		d.Name, d.Attrs, d.Bare = n.Name, c.attrs(n.Attrs), n.Bare()
		d.Content = c.inlines(n, depth+1)
		return d
	}
	if n.HasChildren() {
		if t := sanitize.Inline(string(c.plain(n, nil))); t != "" {
			return c.newText(t)
		}
	}
	return nil
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
		if v.IsRaw() {
			dst = append(dst, v.Segment.Value(c.src)...)
		} else {
			dst = appendDecoded(dst, v.Segment.Value(c.src), true)
		}
		if v.SoftLineBreak() || v.HardLineBreak() {
			dst = append(dst, '\n')
		}
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
func (c *converter) alert(n *alert.Alert, depth int) Block {
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
	prev := block.PrecendingCharacter()
	if unicode.IsLetter(prev) || unicode.IsDigit(prev) {
		return nil
	}
	// After a colon only when that colon closed a shortcode (`:a::b:`);
	// `:::a:b` is no emoji.
	if _, afterEmoji := parent.LastChild().(*emojiast.Emoji); prev == ':' && !afterEmoji {
		return nil
	}
	// Nor where a word, a label or attributes run on from the closing
	// colon (`:a:b[label]`, `:x:y`).
	line, _ := block.PeekLine()
	end := 1
	for end < len(line) && line[end] != ':' && line[end] != '\n' {
		end++
	}
	if end+1 < len(line) {
		if next := rune(line[end+1]); unicode.IsLetter(next) || unicode.IsDigit(next) || next == '[' || next == '{' || next >= 0x80 && !emojiLead(line[end+1:]) {
			return nil
		}
	}
	return e.InlineParser.Parse(parent, block, pc)
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
		case *Emphasis:
			visibleInlines(n.Content)
		case *Strong:
			visibleInlines(n.Content)
		case *Strikethrough:
			visibleInlines(n.Content)
		case *InlineDirective:
			visibleInlines(n.Content)
		case *WikiLink:
			visibleInlines(n.Content)
		}
	}
}
