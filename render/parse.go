package render

import (
	"bytes"
	"strings"
	"sync"

	"github.com/markii/markii/render/directive"
	"github.com/markii/markii/render/internal/gfm"
	"github.com/markii/markii/sanitize"
	"github.com/yuin/goldmark/ast"
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

// markdown returns the shared goldmark parser: CommonMark + GFM (tables,
// task lists, strikethrough, linkify) + the directive parsers, with the
// nesting blocks depth-capped (parse_limits.go). It is read-only after
// the first parse and safe for concurrent use.
func markdown() parser.Parser {
	markdownOnce.Do(func() {
		blocks := append(cappedBlockParsers(),
			util.Prioritized(depthCapped{directive.NewContainerParser()}, 70),
			util.Prioritized(directive.NewLeafParser(), 71))
		inlines := parser.DefaultInlineParsers()
		for i, v := range inlines {
			if v.Priority == 200 { // goldmark's link parser
				inlines[i].Value = directive.GuardLinks(v.Value.(parser.InlineParser))
			}
		}
		inlines = append(inlines,
			util.Prioritized(directive.NewInlineParser(), 300),
			util.Prioritized(directive.NewLabelCloser(), 150))
		markdownImpl = parser.NewParser(append([]parser.Option{
			parser.WithBlockParsers(blocks...),
			parser.WithInlineParsers(inlines...),
			parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		}, gfm.Options()...)...)
	})
	return markdownImpl
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
// never fails: malformed syntax degrades to text, raw HTML is dropped, and
// every string in the tree has been decoded and then sanitized.
func Parse(src []byte) (doc *Document) {
	defer func() {
		if recover() != nil {
			// A parser defect must not take the program down: show the
			// note as plain text instead.
			doc = &Document{Blocks: []Block{&CodeBlock{Text: sanitize.Pre(string(src))}}}
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
}

func (c *converter) blocks(parent ast.Node, depth int) []Block {
	var out []Block
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if b := c.block(n, depth); b != nil {
			out = append(out, b)
		}
	}
	return out
}

func (c *converter) block(n ast.Node, depth int) Block {
	if depth >= MaxDepth {
		return c.flattenBlock(n)
	}
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if content := c.inlines(n, depth+1); len(content) > 0 {
			return &Paragraph{Content: content}
		}
		return nil
	case *ast.Heading:
		return &Heading{Level: n.Level, Content: c.inlines(n, depth+1)}
	case *ast.ThematicBreak:
		return &ThematicBreak{}
	case *ast.CodeBlock:
		return &CodeBlock{Text: sanitize.Pre(strings.TrimSuffix(c.codeBody(n), "\n"))}
	case *ast.FencedCodeBlock:
		return c.fenced(n)
	case *ast.Blockquote:
		return &Quote{Blocks: c.blocks(n, depth+1)}
	case *ast.List:
		return c.list(n, depth)
	case *extast.Table:
		return c.table(n, depth)
	case *directive.Container:
		return &Directive{Name: n.Name, Form: FormContainer, Attrs: c.attrs(n.Attrs), Blocks: c.blocks(n, depth+1)}
	case *directive.Leaf:
		return &Directive{Name: n.Name, Form: FormLeaf, Attrs: c.attrs(n.Attrs), Label: c.inlines(n, depth+1)}
	case *ast.HTMLBlock:
		return nil
	}
	return nil
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

// fenced converts a fenced code block: a runnable script when its info
// string's first `{...}` group has a valid name (SPEC §1.5), else a code
// block.
func (c *converter) fenced(n *ast.FencedCodeBlock) Block {
	var info string
	if n.Info != nil {
		info = string(appendDecoded(nil, n.Info.Segment.Value(c.src), true))
	}
	lang, meta := info, ""
	if i := strings.IndexAny(info, " \t"); i >= 0 {
		lang, meta = info[:i], info[i+1:]
	}
	body := c.codeBody(n)
	if m, ok := parseFenceMeta(meta); ok && m.hasName && validScriptName(m.name) {
		s := &ScriptBlock{Name: m.name, Lang: lang, Src: m.src, HasSrc: m.hasSrc, Publish: m.publish, Source: body}
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
	return &CodeBlock{Lang: sanitize.Inline(lang), Text: sanitize.Pre(strings.TrimSuffix(body, "\n"))}
}

func (c *converter) list(n *ast.List, depth int) Block {
	l := &List{Ordered: n.IsOrdered(), Start: n.Start, Tight: n.IsTight}
	if n.IsOrdered() && n.Marker == ')' {
		l.Delimiter = ')'
	}
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		item := &ListItem{}
		if depth+1 >= MaxDepth {
			if b := c.flattenBlock(it); b != nil {
				item.Blocks = []Block{b}
			}
		} else {
			if first := it.FirstChild(); first != nil {
				if box, ok := first.FirstChild().(*extast.TaskCheckBox); ok {
					checked := box.IsChecked
					item.Task = &checked
				}
			}
			item.Blocks = c.blocks(it, depth+2)
		}
		l.Items = append(l.Items, item)
	}
	return l
}

func (c *converter) table(n *extast.Table, depth int) Block {
	t := &Table{}
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
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		cells := make([][]Inline, 0, cols)
		for cell := r.FirstChild(); cell != nil && len(cells) < cols; cell = cell.NextSibling() {
			cells = append(cells, c.inlines(cell, depth+1))
		}
		for len(cells) < cols {
			cells = append(cells, nil)
		}
		if _, ok := r.(*extast.TableHeader); ok {
			t.Header = cells
		} else {
			t.Rows = append(t.Rows, cells)
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
	out := make(Attrs, 0, len(in))
	for _, a := range in {
		v := a.Value
		if strings.IndexByte(v, '&') >= 0 {
			v = string(appendDecoded(nil, []byte(v), false))
		}
		out = append(out, Attr{Key: sanitize.Inline(a.Key), Value: sanitize.Inline(v), Bare: a.Bare})
	}
	return out
}

// inlines converts parent's inline children, merging adjacent text.
func (c *converter) inlines(parent ast.Node, depth int) []Inline {
	var out []Inline
	// pending reuses the converter's scratch buffer: it is always flushed
	// before a nested call, which then starts from empty.
	pending := c.buf[:0]
	defer func() { c.buf = pending[:0] }()
	flush := func() {
		if len(pending) > 0 {
			out = append(out, &Text{Text: sanitize.Inline(string(pending))})
			pending = pending[:0]
		}
	}
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			v := n.Segment.Value(c.src)
			if n.IsRaw() {
				pending = append(pending, v...)
			} else {
				pending = appendDecoded(pending, v, true)
			}
			if n.HardLineBreak() {
				flush()
				out = append(out, &HardBreak{})
			} else if n.SoftLineBreak() {
				flush()
				out = append(out, &SoftBreak{})
			}
			continue
		case *ast.String:
			pending = append(pending, n.Value...)
			continue
		case *extast.TaskCheckBox:
			// The list item carries the box; drop the blank that follows it.
			if next, ok := n.NextSibling().(*ast.Text); ok && len(pending) == 0 {
				if v := next.Segment.Value(c.src); len(v) > 0 && v[0] == ' ' {
					next.Segment = next.Segment.WithStart(next.Segment.Start + 1)
				}
			}
			continue
		case *ast.RawHTML:
			continue
		}
		flush()
		if in := c.inline(n, depth); in != nil {
			out = append(out, in)
		}
	}
	flush()
	return out
}

// inline converts one non-text inline node.
func (c *converter) inline(n ast.Node, depth int) Inline {
	if depth >= MaxDepth {
		c.doc.Flattened = true
		if t := sanitize.Inline(string(c.plain(n, nil))); t != "" {
			return &Text{Text: t}
		}
		return nil
	}
	switch n := n.(type) {
	case *ast.Emphasis:
		if n.Level >= 2 {
			return &Strong{Content: c.inlines(n, depth+1)}
		}
		return &Emphasis{Content: c.inlines(n, depth+1)}
	case *extast.Strikethrough:
		return &Strikethrough{Content: c.inlines(n, depth+1)}
	case *ast.CodeSpan:
		var b []byte
		for t := n.FirstChild(); t != nil; t = t.NextSibling() {
			if s, ok := t.(*ast.Text); ok {
				b = append(b, s.Segment.Value(c.src)...)
			} else if s, ok := t.(*ast.String); ok {
				b = append(b, s.Value...)
			}
		}
		return &CodeSpan{Text: sanitize.Inline(string(b))}
	case *ast.Link:
		return &Link{URL: c.url(n.Destination), Content: c.inlines(n, depth+1)}
	case *ast.Image:
		return &Image{URL: c.url(n.Destination), Alt: sanitize.Inline(string(c.plain(n, nil)))}
	case *ast.AutoLink:
		u := string(n.URL(c.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
			u = "mailto:" + u
		}
		label := sanitize.Inline(string(n.Label(c.src)))
		return &Link{URL: sanitize.LinkURL(u), Auto: true, Content: []Inline{&Text{Text: label}}}
	case *directive.Inline:
		return &InlineDirective{Name: n.Name, Attrs: c.attrs(n.Attrs), Content: c.inlines(n, depth+1)}
	}
	if n.HasChildren() {
		if t := sanitize.Inline(string(c.plain(n, nil))); t != "" {
			return &Text{Text: t}
		}
	}
	return nil
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
	cur := ast.Node(n)
	for {
		skip := false
		if cur.Type() == ast.TypeBlock && len(dst) > 0 && dst[len(dst)-1] != '\n' {
			dst = append(dst, '\n')
		}
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
		case *ast.AutoLink:
			dst = append(dst, v.Label(c.src)...)
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			dst = append(dst, c.codeBody(cur)...)
		case *ast.HTMLBlock, *ast.RawHTML:
			skip = true
		}
		if !skip && cur.FirstChild() != nil {
			cur = cur.FirstChild()
			continue
		}
		for cur != n && cur.NextSibling() == nil {
			cur = cur.Parent()
		}
		if cur == n {
			return dst
		}
		cur = cur.NextSibling()
	}
}
