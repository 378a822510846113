package directive

import (
	"math"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fenceLine is a parsed `::name[label]{attrs}` or `:::name…` line.
type fenceLine struct {
	colons int
	name   string
	attrs  []Attr
	// label is the label's source segment; hasLabel reports `[...]`.
	label    text.Segment
	hasLabel bool
	// start and stop delimit the directive in the source.
	start, stop int
}

// parseFenceLine reads an opening directive line from the reader's current
// line (see scanFence). It reports ok=false for anything else, which then
// stays text.
func parseFenceLine(reader text.Reader, pc parser.Context, minColons, maxColons int) (f fenceLine, ok bool) {
	line, seg := reader.PeekLine()
	pos := pc.BlockOffset()
	if byteAt(line, pos) != ':' {
		return f, false
	}
	var buf [8]attrSpan
	p, ok := scanFence(line, pos, minColons, maxColons, buf[:0])
	if !ok {
		return f, false
	}
	// abs converts an index into line to a source offset.
	abs := func(k int) int { return seg.Start + k - seg.Padding }
	f.colons = p.colons
	if p.labelOpen >= 0 {
		f.hasLabel = true
		f.label = text.NewSegment(abs(p.labelOpen+1), abs(p.labelClose))
	}
	f.start, f.stop = abs(pos), abs(p.stop)
	f.name, f.attrs = nameAndAttrs(line, p.nameStart, p.nameEnd, p.spans)
	return f, true
}

// fenceParts is what an opening directive line holds, as indices into
// the line.
type fenceParts struct {
	colons                int
	nameStart, nameEnd    int
	labelOpen, labelClose int // the label's brackets, -1 for none
	spans                 []attrSpan
	stop                  int // just past the name, label or attribute block
}

// scanFence reads an opening directive line from line[pos]: a run of
// minColons to maxColons colons, a name not followed by ':', an optional
// single-line label, an optional single-line attribute block (its spans
// appended to buf), then only blanks.
func scanFence(line []byte, pos, minColons, maxColons int, buf []attrSpan) (p fenceParts, ok bool) {
	i := runEnd(line, pos, ':')
	p.colons = i - pos
	if p.colons < minColons || p.colons > maxColons {
		return p, false
	}
	p.nameStart, p.nameEnd = i, scanName(line, i)
	if p.nameEnd < 0 || byteAt(line, p.nameEnd) == ':' {
		return p, false
	}
	i = p.nameEnd
	p.labelOpen, p.labelClose = -1, -1
	if byteAt(line, i) == '[' {
		if p.labelClose = scanLabel(line, i, false); p.labelClose < 0 {
			return p, false
		}
		p.labelOpen, i = i, p.labelClose+1
	}
	if byteAt(line, i) == '{' {
		if p.spans, i, ok = scanAttrSpans(line, i, false, buf); !ok {
			return p, false
		}
	}
	p.stop = i
	return p, blankToEOL(line, i)
}

// runEnd is the index just past the run of c at line[i].
func runEnd(line []byte, i int, c byte) int {
	for i < len(line) && line[i] == c {
		i++
	}
	return i
}

// blankToEOL reports whether line holds only blanks from i to its line
// ending.
func blankToEOL(line []byte, i int) bool {
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	if byteAt(line, i) == '\r' {
		i++
	}
	return i >= len(line) || line[i] == '\n'
}

// bareFence reports whether the reader's current line is only a run of at
// least min colons with surrounding blanks (indented less than four
// columns), and returns the source range of the colons. Every open
// container asks this of every line, so the line's colons are counted
// once and kept in pc: containers nested n deep on lines of n colons
// then take time linear in the note's size.
func bareFence(reader text.Reader, pc parser.Context, min int) (start, stop int, ok bool) {
	line, seg := reader.PeekLine()
	f, _ := pc.Get(fenceScanKey).(*fenceScan)
	if f == nil {
		f = &fenceScan{}
		pc.Set(fenceScanKey, f)
	}
	if !f.valid || f.seg != seg || f.offset != reader.LineOffset() {
		*f = fenceScan{valid: true, seg: seg, offset: reader.LineOffset()}
		w, pos := util.IndentWidth(line, reader.LineOffset())
		if w <= 3 && byteAt(line, pos) == ':' {
			i := runEnd(line, pos, ':')
			if util.IsBlank(line[i:]) {
				f.bare = true
				f.start, f.stop = seg.Start+pos-seg.Padding, seg.Start+i-seg.Padding
			}
		}
	}
	if !f.bare || f.stop-f.start < min {
		return 0, 0, false
	}
	return f.start, f.stop, true
}

// fenceScanKey holds the *fenceScan of the line bareFence read last.
var fenceScanKey = parser.NewContextKey()

// fenceScan is what bareFence found on the line of segment seg.
type fenceScan struct {
	valid       bool
	seg         text.Segment
	offset      int
	bare        bool
	start, stop int
}

type containerParser struct{}

// NewContainerParser returns the block parser for `:::name` … `:::`
// containers.
func NewContainerParser() parser.BlockParser { return containerParser{} }

func (containerParser) Trigger() []byte { return []byte{':'} }

func (containerParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	f, ok := parseFenceLine(reader, pc, 3, math.MaxInt)
	if !ok {
		return nil, parser.NoChildren
	}
	n := &Container{
		Name: f.name, Attrs: f.attrs, FenceLen: f.colons, HasLabel: f.hasLabel,
		OpenStart: f.start, OpenStop: f.stop, CloseStart: -1, CloseStop: -1,
	}
	if f.hasLabel && f.label.Len() > 0 {
		label := ast.NewParagraph()
		label.Lines().Append(f.label)
		n.AppendChild(n, label)
	}
	reader.AdvanceToEOL()
	return n, parser.HasChildren
}

// Continue closes the container on a bare fence at least as long as its
// opening fence. goldmark offers each line to the outermost open block
// first, so the outermost container such a fence can close is the one that
// closes, and everything open inside it closes with it (fixture 24).
func (containerParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*Container)
	if start, stop, ok := bareFence(reader, pc, n.FenceLen); ok {
		n.CloseStart, n.CloseStop = start, stop
		reader.AdvanceToEOL()
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (containerParser) Close(ast.Node, text.Reader, parser.Context) {}

func (containerParser) CanInterruptParagraph() bool { return true }

func (containerParser) CanAcceptIndentedLine() bool { return false }

type leafParser struct{}

// NewLeafParser returns the block parser for `::name[label]{attrs}` lines.
func NewLeafParser() parser.BlockParser { return leafParser{} }

func (leafParser) Trigger() []byte { return []byte{':'} }

func (leafParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	f, ok := parseFenceLine(reader, pc, 2, 2)
	if !ok {
		return nil, parser.NoChildren
	}
	n := &Leaf{Name: f.name, Attrs: f.attrs, Start: f.start, Stop: f.stop}
	if f.hasLabel && f.label.Len() > 0 {
		n.Lines().Append(f.label)
	}
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (leafParser) Continue(ast.Node, text.Reader, parser.Context) parser.State {
	return parser.Close
}

func (leafParser) Close(ast.Node, text.Reader, parser.Context) {}

func (leafParser) CanInterruptParagraph() bool { return true }

func (leafParser) CanAcceptIndentedLine() bool { return false }

// OpensContainer reports whether line, a source line that starts at its
// first column (no indentation), opens a container directive as
// NewContainerParser would, and the length of its colon fence.
func OpensContainer(line []byte) (colons int, ok bool) {
	var buf [8]attrSpan
	p, ok := scanFence(line, 0, 3, math.MaxInt, buf[:0])
	if !ok {
		return 0, false
	}
	return p.colons, true
}

// ClosesContainer reports whether line, a source line that starts at its
// first column, is a bare colon fence of at least min colons: the line
// that closes an open container directive with a fence of length min.
func ClosesContainer(line []byte, min int) bool {
	i := runEnd(line, 0, ':')
	return i >= min && i > 0 && util.IsBlank(line[i:])
}
