package render

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markii reads links and images itself: `[text](dest "title")`,
// `[text][label]`, `[text][]`, `[label]` and each of them after `!`.
//
// goldmark's link parser allocates a state node for every `[` and a slice
// header for every bracket's "link bottom", and at the end of the block
// replaces every bracket left open with a new text node: a paragraph of
// `![[]()` repeated spends most of its render allocating and collecting
// those. markii's parser puts each opening bracket in the tree as the text
// it stays when nothing closes it (a text node carved from the parse's arena, which
// the text after the bracket is merged into as usual) and keeps the open
// brackets on a stack of its own. A `]` pops the innermost; when a link
// forms, the nodes after the bracket become its text, and the bracket's
// own node gives up the bracket.
//
// Everything that decides whether a `]` makes a link follows goldmark's
// link parser, so the tree is goldmark's (the spec tests hold it to that):
// the rule against links in links (an earlier link among the nodes taken
// in), goldmark's 999-byte bound on the stretch of brackets left open and
// on reference labels, inline destinations and titles, then full,
// collapsed and shortcut references.
type links struct{}

// bracketStack is the open brackets of the block being parsed, innermost
// last: each is the text node whose segment starts with the bracket (`[`,
// or `![` for an image). One stack serves every block of a parse in turn.
type bracketStack struct {
	block ast.Node
	open  []*ast.Text
	// mem holds the brackets' text nodes (see arena).
	mem arena
}

// bracketEnd returns the source offset after the bracket that starts t.
func bracketEnd(t *ast.Text, source []byte) int {
	if source[t.Segment.Start] == '!' {
		return t.Segment.Start + 2
	}
	return t.Segment.Start + 1
}

var bracketStackKey = parser.NewContextKey()

// bracketsOf returns the parse's stack, emptied for block if it held
// another block's brackets.
func bracketsOf(block ast.Node, pc parser.Context) *bracketStack {
	s, ok := pc.Get(bracketStackKey).(*bracketStack)
	if !ok {
		s = &bracketStack{}
		pc.Set(bracketStackKey, s)
	}
	if s.block != block {
		clear(s.open)
		s.block, s.open = block, s.open[:0]
	}
	return s
}

// inLinkText reports whether a bracket of block is open, as goldmark's
// Context.IsInLinkLabel does for its own link parser.
func inLinkText(block ast.Node, pc parser.Context) bool {
	return openBrackets(block, pc) != nil
}

// openBrackets returns the parse's stack when a bracket of block is
// open, else nil.
func openBrackets(block ast.Node, pc parser.Context) *bracketStack {
	s, ok := pc.Get(bracketStackKey).(*bracketStack)
	if !ok || s.block != block || len(s.open) == 0 {
		return nil
	}
	return s
}

func (links) Trigger() []byte { return []byte{'!', '[', ']'} }

func (l links) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	switch line[0] {
	case '!':
		if len(line) < 2 || line[1] != '[' {
			return nil
		}
		return l.open(parent, block, pc, seg.Start, 2)
	case '[':
		return l.open(parent, block, pc, seg.Start, 1)
	}
	return l.close(parent, block, pc, seg.Start)
}

// open puts the bracket of n bytes at start (`![` when n is 2) in the tree
// as text and on the stack.
func (links) open(parent ast.Node, block text.Reader, pc parser.Context, start, n int) ast.Node {
	s := bracketsOf(parent, pc)
	t := s.mem.bracketText()
	t.Segment = text.NewSegment(start, start+n)
	s.open = append(s.open, t)
	block.Advance(n)
	return t
}

// maxLabel is the most bytes a link label holds (CommonMark: 999 inside
// the brackets).
const maxLabel = 999

// close reads the `]` at source offset at. It returns the link or image it
// closes, or nil when the `]` stays text.
func (links) close(parent ast.Node, block text.Reader, pc parser.Context, at int) ast.Node {
	s := openBrackets(parent, pc)
	if s == nil {
		return nil
	}
	source := block.Source()
	op := s.pop()
	start, stop := op.Segment.Start, bracketEnd(op, source)
	image := stop-start == 2
	// The bracket stays the text it already is.
	if s.spanTooLong(source) || !image && holdsLink(op) {
		return nil
	}
	link := linkAfter(block, pc, stop, at)
	if link == nil {
		return nil
	}
	if !takeText(op, stop, link) {
		s.mem.spareBracketText(op)
	}
	var n ast.Node = link
	if image {
		n = ast.NewImage(link)
	}
	n.(interface{ SetPos(int) }).SetPos(start)
	return n
}

// pop takes the innermost open bracket off the stack.
func (s *bracketStack) pop() *ast.Text {
	op := s.open[len(s.open)-1]
	s.open[len(s.open)-1] = nil
	s.open = s.open[:len(s.open)-1]
	return op
}

// spanTooLong reports whether the brackets still open span more than 998
// bytes, where goldmark refuses every link.
func (s *bracketStack) spanTooLong(source []byte) bool {
	n := len(s.open)
	return n > 0 && bracketEnd(s.open[n-1], source)-s.open[0].Segment.Start > maxLabel-1
}

// linkAfter reads what follows the `]` at the reader's position, whose
// bracket's text runs from stop to at: an inline link, a full or
// collapsed reference, or else a shortcut reference; nil when none is.
func linkAfter(block text.Reader, pc parser.Context, stop, at int) *ast.Link {
	block.Advance(1)
	line, pos := block.Position()
	switch block.Peek() {
	case '(':
		if link := inlineLink(block); link != nil {
			return link
		}
	case '[':
		link, labelled := referenceLink(block, pc, stop)
		if link != nil || labelled {
			return link
		}
	}
	// A shortcut reference: the text is the label.
	block.SetPosition(line, pos)
	label := block.Value(text.NewSegment(stop, at))
	if len(label) > maxLabel {
		return nil
	}
	ref, ok := pc.Reference(util.ToLinkReference(label))
	if !ok {
		return nil
	}
	return referenced(ref, ast.ReferenceLinkShortcut, label)
}

// holdsLink reports whether a link is among n, the nodes after it and
// everything inside them.
func holdsLink(n ast.Node) bool {
	for c := n; c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.Link); ok || holdsLink(c.FirstChild()) {
			return true
		}
	}
	return false
}

// takeText moves the nodes after the bracket t, which ends at stop, into
// link, and first what followed the bracket in t itself. It reports
// whether t is in the tree still.
func takeText(t *ast.Text, stop int, link *ast.Link) bool {
	for c := t.NextSibling(); c != nil; {
		next := c.NextSibling()
		link.AppendChild(link, c)
		c = next
	}
	parent := t.Parent()
	parent.RemoveChild(parent, t)
	if t.Segment.Stop > stop {
		t.Segment = t.Segment.WithStart(stop)
		if first := link.FirstChild(); first != nil {
			link.InsertBefore(link, first, t)
		} else {
			link.AppendChild(link, t)
		}
		return true
	}
	return false
}

// referenced returns a link to what ref defines.
func referenced(ref parser.Reference, kind ast.ReferenceLinkType, label []byte) *ast.Link {
	link := ast.NewLink()
	link.Destination, link.Title = ref.Destination(), ref.Title()
	link.Reference = ast.NewReferenceLink(kind, label)
	return link
}

// closureOptions finds the end of a title or a label: across lines, not
// nested, leaving the reader after it.
var closureOptions = text.FindClosureOptions{Newline: true, Advance: true}

// inlineLink reads `(dest "title")` at the reader, or returns nil.
func inlineLink(block text.Reader) *ast.Link {
	block.Advance(1) // (
	block.SkipSpaces()
	var dest, title []byte
	if block.Peek() != ')' {
		var ok bool
		if dest, ok = linkDestination(block); !ok {
			return nil
		}
		block.SkipSpaces()
		if block.Peek() != ')' {
			if title, ok = linkTitle(block); !ok {
				return nil
			}
			block.SkipSpaces()
			if block.Peek() != ')' {
				return nil
			}
		}
	}
	block.Advance(1) // )
	link := ast.NewLink()
	link.Destination, link.Title = dest, title
	return link
}

// linkDestination reads a destination on the reader's line: `<…>` (empty
// allowed), or a run of non-blank bytes whose parentheses balance up to
// the first unmatched `)`. A backslash escapes the punctuation after it.
func linkDestination(block text.Reader) ([]byte, bool) {
	line, _ := block.PeekLine()
	if len(line) > 0 && line[0] == '<' {
		return angledDestination(block, line)
	}
	n := bareDestination(line)
	block.Advance(n)
	return line[:n], n > 0
}

// angledDestination reads the `<…>` destination line starts with.
func angledDestination(block text.Reader, line []byte) ([]byte, bool) {
	for i := 1; i < len(line); i++ {
		if escapesPunct(line, i) {
			i++
		} else if line[i] == '>' {
			block.Advance(i + 1)
			return line[1:i], true
		}
	}
	return nil, false
}

// bareDestination returns the length of the destination without angle
// brackets that line starts with: up to a blank or the first unmatched
// `)`.
func bareDestination(line []byte) int {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case escapesPunct(line, i):
			i++
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return i
			}
			depth--
		case util.IsSpace(c):
			return i
		}
	}
	return len(line)
}

// escapesPunct reports whether line[i] is a backslash escaping the
// punctuation after it.
func escapesPunct(line []byte, i int) bool {
	return line[i] == '\\' && i+1 < len(line) && util.IsPunct(line[i+1])
}

// linkTitle reads a `"…"`, `'…'` or `(…)` title, which may span lines.
func linkTitle(block text.Reader) ([]byte, bool) {
	open := block.Peek()
	closer := open
	switch open {
	case '(':
		closer = ')'
	case '"', '\'':
	default:
		return nil, false
	}
	block.Advance(1)
	segs, ok := block.FindClosure(open, closer, closureOptions)
	if !ok {
		return nil, false
	}
	return joined(block, segs), true
}

// referenceLink reads the `[label]` after a link's text, whose bracket
// ended at textStart: a full reference, or a collapsed one (`[]`, the
// text is the label). labelled reports that a label was there to read,
// defined or not, so that the text is no shortcut reference either.
func referenceLink(block text.Reader, pc parser.Context, textStart int) (link *ast.Link, labelled bool) {
	_, at := block.Position()
	block.Advance(1) // [
	segs, ok := block.FindClosure('[', ']', closureOptions)
	if !ok {
		return nil, false
	}
	label, kind := joined(block, segs), ast.ReferenceLinkFull
	if util.IsBlank(label) {
		label, kind = block.Value(text.NewSegment(textStart, at.Start-1)), ast.ReferenceLinkCollapsed
	}
	if len(label) > maxLabel {
		return nil, true
	}
	ref, ok := pc.Reference(util.ToLinkReference(label))
	if !ok {
		return nil, true
	}
	return referenced(ref, kind, label), true
}

// joined returns the bytes of segs: a slice of the source for one segment.
func joined(block text.Reader, segs *text.Segments) []byte {
	if segs.Len() == 1 {
		return block.Value(segs.At(0))
	}
	var b []byte
	for i := range segs.Len() {
		b = append(b, block.Value(segs.At(i))...)
	}
	return b
}

// outsideLinkText runs an inline parser only where no link bracket is
// open: GFM's autolinks are not looked for inside a link's text.
type outsideLinkText struct{ parser.InlineParser }

func (o outsideLinkText) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if inLinkText(parent, pc) {
		return nil
	}
	return o.InlineParser.Parse(parent, block, pc)
}
