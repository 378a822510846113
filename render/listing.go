package render

import (
	"strings"
	"unicode/utf8"
)

// Caps of the doc.directives listing (SPEC §3.3).
const (
	ListingMaxTotal      = 512 << 10 // bytes of names, attributes and text together
	ListingMaxDirectives = 2000
	ListingMaxText       = 8 << 10 // bytes of text per directive
	ListingMaxAttrs      = 32      // attributes per directive
	ListingMaxAttrValue  = 1 << 10 // bytes; longer values are cut
	ListingMaxAttrName   = 128     // bytes; longer names are dropped
	ListingMaxDepth      = 200     // directive nesting depth
)

// ListedDirective is one entry of the doc.directives listing a script
// reads: the directive's name, its form ("inline", "leaf" or "container"),
// its attributes (a bare key reads as "") and its markdown-stripped inner
// text.
type ListedDirective struct {
	Name  string
	Form  string
	Attrs []Attr
	Text  string
}

// Listing lists doc's directives for scripts (SPEC §3.3): document order,
// nested directives flattened and listed after their parent. Text is the
// markdown-stripped inner text (code bodies included, raw HTML excluded,
// blocks joined by a line feed). Every cap of the listing applies;
// truncated reports that one was hit (or that the parser flattened content
// nested too deep to list). Text and attributes keep tab and line feed but
// lose every other control, DEL and invalid UTF-8.
func Listing(doc *Document) (items []ListedDirective, truncated bool) {
	l := &lister{truncated: doc.Flattened}
	l.blocks(doc.Blocks, 0)
	return l.items, l.truncated
}

type lister struct {
	items     []ListedDirective
	total     int
	truncated bool
	full      bool
}

// add lists one directive; depth is its nesting among directives (1 for an
// outermost one).
func (l *lister) add(name string, form Form, attrs Attrs, text func() string, depth int) {
	if l.full || depth > ListingMaxDepth {
		l.truncated = true
		return
	}
	if len(l.items) >= ListingMaxDirectives {
		l.truncated, l.full = true, true
		return
	}
	item := ListedDirective{Name: cleanListed(name), Form: form.String()}
	var size int
	item.Attrs, size = l.attrs(attrs)
	item.Text = l.clip(text(), ListingMaxText)
	size += len(item.Name) + len(item.Form) + len(item.Text)
	if l.total+size > ListingMaxTotal {
		l.truncated, l.full = true, true
		return
	}
	l.total += size
	l.items = append(l.items, item)
}

// attrs lists a directive's attributes, up to ListingMaxAttrs of them and
// leaving out those with too long a name, and returns their size.
func (l *lister) attrs(attrs Attrs) (listed []Attr, size int) {
	for _, a := range attrs {
		if len(a.Key) > ListingMaxAttrName {
			l.truncated = true
			continue
		}
		if len(listed) >= ListingMaxAttrs {
			l.truncated = true
			break
		}
		v := l.clip(a.Value, ListingMaxAttrValue)
		listed = append(listed, Attr{Key: cleanListed(a.Key), Value: v, Bare: a.Bare})
		size += len(a.Key) + len(v)
	}
	return listed, size
}

// clip cleans s for the listing and cuts it to at most n bytes, marking
// the listing truncated when it cuts.
func (l *lister) clip(s string, n int) string {
	s = cleanListed(s)
	if len(s) > n {
		s = cutUTF8(s, n)
		l.truncated = true
	}
	return s
}

func (l *lister) blocks(blocks []Block, depth int) {
	for _, b := range blocks {
		if l.full {
			l.truncated = true
			return
		}
		l.block(b, depth)
	}
}

// block lists the directives in one block.
func (l *lister) block(b Block, depth int) {
	switch n := b.(type) {
	case *Directive:
		l.directive(n, depth)
	case inlineBlock:
		l.inlines(n.inlines(), depth)
	case *Quote:
		l.blocks(n.Blocks, depth)
	case *Footnotes:
		for _, fn := range n.Notes {
			l.blocks(fn.Blocks, depth)
		}
	case *List:
		for _, it := range n.Items {
			l.blocks(it.Blocks, depth)
		}
	case *Table:
		l.table(n, depth)
	}
}

// table lists the directives in a table's cells.
func (l *lister) table(t *Table, depth int) {
	for _, c := range t.Header {
		l.inlines(c, depth)
	}
	for _, r := range t.Rows {
		for _, c := range r {
			l.inlines(c, depth)
		}
	}
}

// directive lists a block directive and, up to ListingMaxDepth, the
// directives in its label and body.
func (l *lister) directive(n *Directive, depth int) {
	l.add(n.Name, n.Form, n.Attrs, func() string {
		if n.Form == FormLeaf {
			return plainInlines(n.Label, ListingMaxText+1)
		}
		return plainBlocks(n.Blocks, ListingMaxText+1)
	}, depth+1)
	if depth+1 > ListingMaxDepth {
		return
	}
	l.inlines(n.Label, depth+1)
	l.blocks(n.Blocks, depth+1)
}

func (l *lister) inlines(in []Inline, depth int) {
	for _, n := range in {
		switch n := n.(type) {
		case *InlineDirective:
			l.add(n.Name, FormInline, n.Attrs, func() string {
				return plainInlines(n.Content, ListingMaxText+1)
			}, depth+1)
			if depth+1 <= ListingMaxDepth {
				l.inlines(n.Content, depth+1)
			}
		case inlineParent:
			l.inlines(n.inlines(), depth)
		}
	}
}

// textBuilder collects plain text up to a limit and then ignores the rest,
// so a huge directive costs no more than the cap.
type textBuilder struct {
	strings.Builder
	limit int
}

func (b *textBuilder) full() bool { return b.Len() >= b.limit }

func (b *textBuilder) add(s string) {
	if room := b.limit - b.Len(); room > 0 {
		if len(s) > room {
			s = s[:room]
		}
		b.WriteString(s)
	}
}

// plainBlocks is the markdown-stripped text of blocks, joined by line
// feeds, cut near limit bytes.
func plainBlocks(blocks []Block, limit int) string {
	b := &textBuilder{limit: limit}
	writeBlocks(b, blocks)
	return b.String()
}

// plainInlines is the markdown-stripped text of inline content.
func plainInlines(in []Inline, limit int) string {
	b := &textBuilder{limit: limit}
	writeInlines(b, in)
	return b.String()
}

func writeBlocks(b *textBuilder, blocks []Block) {
	for _, bl := range blocks {
		if b.full() {
			return
		}
		if b.Len() > 0 {
			b.add("\n")
		}
		writeBlock(b, bl)
	}
}

// writeBlock writes the text of one block.
func writeBlock(b *textBuilder, bl Block) {
	switch n := bl.(type) {
	case inlineBlock:
		writeInlines(b, n.inlines())
	case *CodeBlock:
		b.add(n.Text)
	case *ScriptBlock:
		b.add(strings.TrimSuffix(n.Source, "\n"))
	case *Quote:
		writeBlocks(b, n.Blocks)
	case *Footnotes:
		writeNotes(b, n.Notes)
	case *List:
		writeItems(b, n.Items)
	case *Table:
		writeTable(b, n)
	case *Directive:
		writeInlines(b, n.Label)
		writeBlocks(b, n.Blocks)
	}
}

// writeTable writes a table's rows, a line each, their cells split by
// tabs.
func writeTable(b *textBuilder, t *Table) {
	writeRow(b, t.Header)
	for _, r := range t.Rows {
		b.add("\n")
		writeRow(b, r)
	}
}

// writeNotes writes footnotes, a line each.
func writeNotes(b *textBuilder, notes []Footnote) {
	for i, fn := range notes {
		writeItem(b, i, fn.Blocks)
	}
}

// writeItems writes a list's items, a line each.
func writeItems(b *textBuilder, items []*ListItem) {
	for i, it := range items {
		writeItem(b, i, it.Blocks)
	}
}

// writeItem writes item i of a list or of footnotes, on a line of its own
// after the first.
func writeItem(b *textBuilder, i int, blocks []Block) {
	if i > 0 {
		b.add("\n")
	}
	writeBlocks(b, blocks)
}

func writeRow(b *textBuilder, cells [][]Inline) {
	for i, c := range cells {
		if i > 0 {
			b.add("\t")
		}
		writeInlines(b, c)
	}
}

func writeInlines(b *textBuilder, in []Inline) {
	walkText(in, "\n", func(t string) bool {
		if b.full() {
			return false
		}
		b.add(t)
		return true
	})
}

// cleanListed removes C0 controls other than tab and line feed, DEL and
// invalid UTF-8 (lone surrogates included, which Go sees as invalid).
func cleanListed(s string) string {
	if utf8.ValidString(s) && !hasListedControl(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !(r == utf8.RuneError && n <= 1) && !listedControl(r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// listedControl reports whether cleanListed removes the character r: a
// C0 control other than tab and line feed, or DEL.
func listedControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f
}

func hasListedControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if listedControl(rune(s[i])) {
			return true
		}
	}
	return false
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
