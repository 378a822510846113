package directive

import (
	"sort"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// blockText is the text of the block being inline-parsed, flattened into
// one slice (line prefixes dropped, tab padding written as spaces) so that
// labels and attribute blocks of inline directives can span lines. It also
// memoizes bracket matches so nested labels are found in linear time.
type blockText struct {
	node  ast.Node
	flat  []byte
	lines []text.Segment
	// lineFlat[k] is the flat offset where line k starts.
	lineFlat []int
	// brackets lists the block's unescaped brackets in flat order, each
	// with its match (brackets.go); nil until the first look-up.
	brackets []bracket
	// pending maps the source offset of a label's ']' to its opener.
	pending map[int]*opener
	openers []*opener
	// delimiterRuns counts labels whose emphasis was resolved.
	delimiterRuns int
	// linkBudget and linkSpent account the link parser's work (linkguard.go);
	// blankFrom and blankAt cache nextBlank.
	linkBudget, linkSpent int
	blankFrom, blankAt    int
	// labelEnds holds the source offsets of the `]` of the labels opened
	// so far that may still be open, innermost last (labelcode.go); runs
	// indexes the block's backtick runs by length.
	labelEnds []int
	runs      map[int][]int
}

// maxLabelDelimiterRuns bounds how many labels per paragraph resolve
// emphasis (see labelCloser.Parse).
const maxLabelDelimiterRuns = 64

// literalDelimiters turns the pending emphasis delimiters after op into
// plain text and drops them from goldmark's delimiter list.
func literalDelimiters(op ast.Node, pc parser.Context) {
	for c := op.NextSibling(); c != nil; {
		next := c.NextSibling()
		if d, ok := c.(*parser.Delimiter); ok {
			pc.RemoveDelimiter(d)
			p := d.Parent()
			p.ReplaceChild(p, d, ast.NewTextSegment(d.Segment))
		}
		c = next
	}
}

var blockTextKey = parser.NewContextKey()

// currentBlockText returns the blockText of the block being inline-parsed,
// reusing the one the previous block of the parse released.
func currentBlockText(parent ast.Node, pc parser.Context) *blockText {
	if bt, ok := pc.Get(blockTextKey).(*blockText); ok {
		if bt.node == nil {
			bt.node = parent
		}
		if bt.node == parent {
			return bt
		}
	}
	bt := &blockText{node: parent}
	pc.Set(blockTextKey, bt)
	return bt
}

// reuseOpeners is the most openers a block may have had for its opener
// list and label map to be kept for the next block; clearing a larger map
// for every block would cost more than a new one.
const reuseOpeners = 64

// release ends bt's block and keeps its opener list and label map, emptied,
// for the next block of the parse.
func (bt *blockText) release() {
	openers, pending, ends := bt.openers, bt.pending, bt.labelEnds
	if len(openers) > reuseOpeners {
		openers, pending, ends = nil, nil, nil
	} else {
		clear(openers)
		clear(pending)
	}
	*bt = blockText{openers: openers[:0], pending: pending, labelEnds: ends[:0]}
}

// load copies the block's lines into flat, using source. It runs once per
// block, on first need.
func (bt *blockText) load(source []byte) {
	if bt.lineFlat != nil {
		return
	}
	lines := bt.node.Lines()
	bt.lines = lines.Sliced(0, lines.Len())
	bt.lineFlat = make([]int, len(bt.lines))
	size := 0
	for _, s := range bt.lines {
		size += s.Len() + s.Padding
	}
	bt.flat = make([]byte, 0, size)
	for k, s := range bt.lines {
		bt.lineFlat[k] = len(bt.flat)
		for p := 0; p < s.Padding; p++ {
			bt.flat = append(bt.flat, ' ')
		}
		bt.flat = append(bt.flat, source[s.Start:s.Stop]...)
	}
}

// flatPos converts the reader's position to a flat offset.
func (bt *blockText) flatPos(line int, seg text.Segment) int {
	if line < 0 || line >= len(bt.lines) {
		return -1
	}
	orig := bt.lines[line]
	return bt.lineFlat[line] + (orig.Padding - seg.Padding) + (seg.Start - orig.Start)
}

// sourcePos converts a flat offset to a source offset (padding maps to the
// line's first byte).
func (bt *blockText) sourcePos(f int) int {
	k := sort.SearchInts(bt.lineFlat, f+1) - 1
	if k < 0 {
		k = 0
	}
	s := bt.lines[k]
	off := f - bt.lineFlat[k] - s.Padding
	if off < 0 {
		off = 0
	}
	return s.Start + off
}

type inlineParser struct{}

// NewInlineParser returns the inline parser for `:name[label]{attrs}`.
func NewInlineParser() parser.InlineParser { return inlineParser{} }

func (inlineParser) Trigger() []byte { return []byte{':'} }

// Parse recognizes a text directive at the current ':'. The colon must
// start a word (offset 0 of the source, or a preceding byte that is not an
// ASCII letter or digit, nor another colon unless that colon is
// backslash-escaped: `\::a` is ":" and the directive `:a`) and the name must start with
// an ASCII letter and must not be followed by ':'; otherwise the colon
// stays text. A label that never closes or a malformed attribute block
// ends the directive where it starts and stays text itself.
func (inlineParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) < 2 || !isLetter(line[1]) {
		return nil
	}
	source := block.Source()
	if seg.Padding == 0 && seg.Start > 0 && !startsWord(source, seg.Start) {
		return nil
	}
	bt := currentBlockText(parent, pc)
	if seg.Padding == 0 {
		if n := parseOnLine(line, seg.Start, block, bt); n != nil {
			return n
		}
	}
	bt.load(source)
	lineNo, pos := block.Position()
	return bt.parseAt(bt.flatPos(lineNo, pos), block)
}

// startsWord reports whether the colon at source[at] starts a word: the
// byte before it is neither an ASCII letter or digit nor a colon that is
// not backslash-escaped.
func startsWord(source []byte, at int) bool {
	prev := source[at-1]
	return !isAlnum(prev) && (prev != ':' || escaped(source, at-1))
}

// parseAt reads the directive at the colon bt.flat[at], across the
// block's lines, and advances block past what it takes.
func (bt *blockText) parseAt(at int, block text.Reader) ast.Node {
	b := bt.flat
	if byteAt(b, at) != ':' {
		return nil
	}
	end := scanName(b, at+1)
	if end < 0 || byteAt(b, end) == ':' {
		return nil
	}
	// As in remark-directive, a label that never closes ends the directive
	// at its name, and a malformed attribute block ends it before the
	// block: the directive is kept and the rest stays text.
	i := end
	labelOpen, labelClose := -1, -1
	if byteAt(b, i) == '[' {
		if c := bt.closeOf(i); c >= 0 {
			labelOpen, labelClose = i, c
			i = c + 1
		}
	}
	var buf [8]attrSpan
	var spans []attrSpan
	if byteAt(b, i) == '{' {
		if s, j, ok := scanAttrSpans(b, i, true, buf[:0]); ok {
			spans, i = s, j
		}
	}
	n, op := newInline(b, at+1, end, spans, labelOpen >= 0)
	n.Start = bt.sourcePos(at)
	n.Stop = bt.sourcePos(i-1) + 1
	if labelOpen < 0 {
		block.Advance(i - at)
		return n
	}
	n.LabelStart = bt.sourcePos(labelOpen + 1)
	n.LabelStop = bt.sourcePos(labelClose)
	block.Advance(labelOpen + 1 - at)
	return bt.open(op, n, bt.sourcePos(labelOpen)+1, i-labelClose)
}

// escaped reports whether the byte at source[at] is backslash-escaped: an
// odd number of backslashes stands right before it.
func escaped(source []byte, at int) bool {
	n := 0
	for at-n-1 >= 0 && source[at-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// newInline makes the node of a well-formed inline directive whose name
// is b[nameStart:nameEnd]; spans are its attributes. A labelled one comes
// with the opener that stands for it while its label is parsed.
func newInline(b []byte, nameStart, nameEnd int, spans []attrSpan, labelled bool) (*Inline, *opener) {
	name, attrs := nameAndAttrs(b, nameStart, nameEnd, spans)
	var n *Inline
	var op *opener
	if labelled {
		both := &labelledInline{}
		n, op = &both.dir, &both.op
	} else {
		n = &Inline{}
	}
	n.Name, n.Attrs, n.LabelStart, n.LabelStop = name, attrs, -1, -1
	return n, op
}

// labelledInline holds a labelled directive and its opener in one
// allocation.
type labelledInline struct {
	dir Inline
	op  opener
}

// open records op as the opener of the labelled directive n whose label
// starts at source offset labelFrom; after is the distance from the
// label's `]` to the directive's end.
func (bt *blockText) open(op *opener, n *Inline, labelFrom, after int) *opener {
	op.dir, op.closeAt, op.afterAt = n, n.LabelStop, after
	op.segment = [2]int{n.Start, labelFrom}
	if bt.pending == nil {
		bt.pending = make(map[int]*opener)
	}
	bt.pending[op.closeAt] = op
	bt.openers = append(bt.openers, op)
	bt.labelEnds = append(bt.labelEnds, op.closeAt)
	return op
}

// shortLabel is how far the single-line fast path looks for a label's `]`.
const shortLabel = 256

// parseOnLine is the fast path of Parse for a directive that ends on the
// current line with a short label: it needs no copy of the block. It
// returns nil when the directive is malformed or does not fit, and the
// caller then decides on the whole block.
func parseOnLine(line []byte, start int, block text.Reader, bt *blockText) ast.Node {
	end := scanName(line, 1)
	if end < 0 || byteAt(line, end) == ':' {
		return nil
	}
	i := end
	labelOpen, labelClose := -1, -1
	if byteAt(line, i) == '[' {
		window := line[:min(len(line), i+shortLabel)]
		labelClose = scanLabel(window, i, false)
		if labelClose < 0 {
			return nil
		}
		labelOpen = i
		i = labelClose + 1
	}
	var buf [8]attrSpan
	var spans []attrSpan
	if byteAt(line, i) == '{' {
		var ok bool
		if spans, i, ok = scanAttrSpans(line, i, true, buf[:0]); !ok {
			return nil
		}
	}
	n, op := newInline(line, 1, end, spans, labelOpen >= 0)
	n.Start, n.Stop = start, start+i
	if labelOpen < 0 {
		block.Advance(i)
		return n
	}
	n.LabelStart, n.LabelStop = start+labelOpen+1, start+labelClose
	block.Advance(labelOpen + 1)
	return bt.open(op, n, start+labelOpen+1, i-labelClose)
}

// CloseBlock turns openers whose label never closed back into text.
func (inlineParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	bt, ok := pc.Get(blockTextKey).(*blockText)
	if !ok || bt.node != parent {
		return
	}
	for _, op := range bt.openers {
		if p := op.Parent(); p != nil {
			p.ReplaceChild(p, op, ast.NewTextSegment(text.NewSegment(op.segment[0], op.segment[1])))
		}
	}
	bt.release()
}

type labelCloser struct{}

// NewLabelCloser returns the inline parser that ends an inline directive's
// label at the `]` its opener recorded. It runs before goldmark's link
// parser and leaves every other `]` to it.
func NewLabelCloser() parser.InlineParser { return labelCloser{} }

func (labelCloser) Trigger() []byte { return []byte{']'} }

func (labelCloser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	bt, ok := pc.Get(blockTextKey).(*blockText)
	if !ok || bt.node != parent || bt.pending == nil {
		return nil
	}
	_, seg := block.Position()
	op, ok := bt.pending[seg.Start]
	if !ok || op.Parent() == nil {
		return nil
	}
	delete(bt.pending, seg.Start)
	// Resolve emphasis inside the label only. goldmark's
	// ProcessDelimiters walks every pending delimiter of the paragraph, so
	// only the first maxLabelDelimiterRuns labels of a paragraph get that
	// walk; later ones keep their emphasis markers as literal text, which
	// keeps a hostile paragraph linear.
	for c := op.NextSibling(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*parser.Delimiter); !ok {
			continue
		}
		if bt.delimiterRuns < maxLabelDelimiterRuns {
			bt.delimiterRuns++
			parser.ProcessDelimiters(op, pc)
		} else {
			literalDelimiters(op, pc)
		}
		break
	}
	dir := op.dir
	for c := op.NextSibling(); c != nil; {
		next := c.NextSibling()
		dir.AppendChild(dir, c)
		c = next
	}
	op.Parent().RemoveChild(op.Parent(), op)
	block.Advance(op.afterAt)
	return dir
}
