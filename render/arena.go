package render

import (
	"sync"

	"github.com/yuin/goldmark/ast"

	"github.com/markii/markii/ansi"
)

// An arena is where render draws the memory it hands out in bulk or uses
// again, so that a long note is not paid for with a malloc and a GC
// object per node, line or wrap. All of render's pools live here.
//
// Lifetime. An arena belongs to one owner, on one goroutine, and what it
// hands out lives as long as that owner says:
//
//   - A converter's arena carves the tree's nodes and child slices out of
//     blocks (the slab and sliceSlab fields). A block lives as long as any
//     node carved from it, which for a document tree (built at once,
//     dropped at once) is no longer than the tree. The link parser's arena
//     (one a parse) does the same for goldmark's text nodes of open
//     brackets, and reuses those of brackets that became links.
//   - A layouter's arena hands out the spans of lines and the storage of
//     line lists (line, lines, roomyLine, copyLines). They stay valid
//     until reset, which the Packer and the Streamer call once every line
//     made so far has been packed or written; a layout that returns its
//     page's lines (Layout) never resets, so they live as long as the page.
//   - Borrowed buffers (borrowLines, the scratch run and span buffers) go
//     back to the arena before the block that borrowed them returns.
//   - A wrapper lives for one wrap (getWrapper to putWrapper). Wrappers are
//     kept in one pool shared by every arena and goroutine, since a wrap
//     outside any layout (WrapText, a component's WrapSpans) needs one too.
type arena struct {
	nodeBlocks

	// spanBlock and rowBlock are the blocks lines and line lists are cut
	// from.
	spanBlock []ansi.Span
	rowBlock  []ansi.Line
	// roomy holds the last span of the storage of every line made by
	// roomyLine: only such a line is known to have no other holder, so
	// only it may have spans prepended in place.
	roomy map[*ansi.Span]struct{}

	// scratch is a reusable run buffer; it is nil while borrowed.
	scratch []run
	// cellEnds is a table's reusable cell index; nil while borrowed.
	cellEnds []int
	// lineBufs are line buffers free for borrowLines.
	lineBufs [][]ansi.Line
	// spanScratch collects the spans of a line being built.
	spanScratch ansi.Line
}

// nodeBlocks are a converter's blocks of tree nodes and child slices.
type nodeBlocks struct {
	inlineSlices sliceSlab[Inline]
	blockSlices  sliceSlab[Block]
	cellSlices   sliceSlab[[]Inline]
	attrSlices   sliceSlab[Attr]

	texts       slab[Text]
	paragraphs  slab[Paragraph]
	headings    slab[Heading]
	codeBlocks  slab[CodeBlock]
	quotes      slab[Quote]
	lists       slab[List]
	listItems   slab[ListItem]
	tasks       slab[bool]
	tables      slab[Table]
	directives  slab[Directive]
	emphases    slab[Emphasis]
	strongs     slab[Strong]
	strikes     slab[Strikethrough]
	codeSpans   slab[CodeSpan]
	links       slab[Link]
	inlineDirs  slab[InlineDirective]
	scriptNodes slab[ScriptBlock]

	// bracketTexts are the link parser's nodes for open brackets;
	// spareTexts holds those of brackets that became links, for reuse.
	bracketTexts slab[ast.Text]
	spareTexts   []*ast.Text
}

// bracketText returns a zeroed text node for an open bracket.
func (b *nodeBlocks) bracketText() *ast.Text {
	if n := len(b.spareTexts); n > 0 {
		t := b.spareTexts[n-1]
		b.spareTexts = b.spareTexts[:n-1]
		return t
	}
	return b.bracketTexts.new()
}

// spareBracketText takes back the node of a bracket that became part of
// a link, for the next open bracket.
func (b *nodeBlocks) spareBracketText(t *ast.Text) {
	*t = ast.Text{}
	b.spareTexts = append(b.spareTexts, t)
}

// slabMax is the most values a slab block holds; blocks start at
// slabMin and double, so a short note does not pay for a long one's
// blocks.
const (
	slabMin = 8
	slabMax = 64
)

// slab hands out pointers to zeroed values of T.
type slab[T any] struct {
	free []T
	size int
}

// new returns a pointer to a zeroed T that no other caller shares.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.size = min(max(2*s.size, slabMin), slabMax)
		s.free = make([]T, s.size)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// sliceSlab hands out slices of T.
type sliceSlab[T any] struct {
	free []T
	size int
}

// clone returns a copy of items. A copy carved from a shared block has
// its capacity cut to its length, so an append by a later stage
// reallocates instead of writing over a neighbour. It returns nil for no
// items, as appending to a nil slice does.
func (s *sliceSlab[T]) clone(items []T) []T {
	n := len(items)
	if n == 0 {
		return nil
	}
	if n > len(s.free) {
		if 4*n > slabMax {
			// Too big to share a block: an allocation of its own.
			return append([]T(nil), items...)
		}
		s.size = max(min(max(2*s.size, slabMin), slabMax), n)
		s.free = make([]T, s.size)
	}
	out := s.free[:n:n]
	copy(out, items)
	s.free = s.free[n:]
	return out
}

// roomyLine returns an empty line with room for n spans and for room more
// that prepend may later put in front of them without copying the line.
func (a *arena) roomyLine(n, room int) ansi.Line {
	ln := a.line(n + room)
	if room > 0 {
		if a.roomy == nil {
			a.roomy = make(map[*ansi.Span]struct{})
		}
		a.roomy[&ln[:cap(ln)][cap(ln)-1]] = struct{}{}
	}
	return ln
}

// prepend puts sp in front of ln's spans in place and returns the longer
// line, when ln was made by roomyLine and has room left; otherwise it
// returns ln unchanged and false.
func (a *arena) prepend(ln ansi.Line, sp ansi.Span) (ansi.Line, bool) {
	if len(ln) == cap(ln) {
		return ln, false
	}
	if _, ok := a.roomy[&ln[:cap(ln)][cap(ln)-1]]; !ok {
		return ln, false
	}
	ln = append(ln, ansi.Span{})
	copy(ln[1:], ln)
	ln[0] = sp
	return ln, true
}

// line returns an empty line with room for n spans. Each request gets a
// capped window of a block; a line that outgrows it moves to its own
// array. A nil arena allocates.
func (a *arena) line(n int) ansi.Line {
	if a == nil || n > 64 {
		return make(ansi.Line, 0, n)
	}
	if len(a.spanBlock)+n > cap(a.spanBlock) {
		// Blocks grow from small to large, so a short note does not
		// touch memory it never fills.
		a.spanBlock = make([]ansi.Span, 0, min(max(2*cap(a.spanBlock), 128), 2048))
	}
	start := len(a.spanBlock)
	a.spanBlock = a.spanBlock[:start+n]
	return a.spanBlock[start : start : start+n]
}

// lines returns an empty line list with room for n lines.
func (a *arena) lines(n int) []ansi.Line {
	if a == nil || n > 256 {
		return make([]ansi.Line, 0, n)
	}
	if len(a.rowBlock)+n > cap(a.rowBlock) {
		a.rowBlock = make([]ansi.Line, 0, max(min(2*cap(a.rowBlock), 1024), 64, n))
	}
	start := len(a.rowBlock)
	a.rowBlock = a.rowBlock[:start+n]
	return a.rowBlock[start : start : start+n]
}

// copyLines returns lines copied into exactly sized storage from a.
func (a *arena) copyLines(lines []ansi.Line) []ansi.Line {
	if len(lines) == 0 {
		return nil
	}
	return append(a.lines(len(lines)), lines...)
}

// reset lets a hand out its current blocks of lines again from the
// start. Only an owner that no longer holds any line or list a handed out
// may call it; what the blocks still reference is overwritten as they
// refill.
func (a *arena) reset() {
	a.spanBlock = a.spanBlock[:0]
	a.rowBlock = a.rowBlock[:0]
	clear(a.roomy)
}

// borrowLines returns an empty line buffer to collect a block's lines in;
// keepLines or returnLines hands it back.
func (a *arena) borrowLines() []ansi.Line {
	n := len(a.lineBufs)
	if n == 0 {
		return nil
	}
	buf := a.lineBufs[n-1]
	a.lineBufs = a.lineBufs[:n-1]
	return buf
}

// keepLines returns the lines collected in buf in exactly sized storage
// and takes buf back for reuse.
func (a *arena) keepLines(buf []ansi.Line) []ansi.Line {
	lines := a.copyLines(buf)
	a.returnLines(buf)
	return lines
}

// returnLines takes back a buffer from borrowLines whose lines are no
// longer needed.
func (a *arena) returnLines(buf []ansi.Line) {
	clear(buf)
	if cap(buf) <= 1<<16 {
		a.lineBufs = append(a.lineBufs, buf[:0])
	}
}

// wrappers recycles wrappers and their buffers: a paragraph or table cell
// is wrapped by every layout, often more than once.
var wrappers = sync.Pool{New: func() any { return &wrapper{word: make([]piece, 0, 16)} }}

// getWrapper returns a pooled wrapper set up to wrap runs at width,
// taking line storage from mem (nil for none).
func getWrapper(runs []run, width int, mem *arena) *wrapper {
	w := wrappers.Get().(*wrapper)
	*w = wrapper{runs: runs, width: width, mem: mem, lastRun: -1, gapRun: -1,
		word: w.word[:0], line: w.line[:0], lines: w.lines[:0]}
	return w
}

// putWrapper returns w to the pool, dropping its references to the runs
// and the caller's lines. Its buffers keep stale spans and lines until
// they are overwritten; oversized buffers are dropped instead.
func putWrapper(w *wrapper) {
	line, lines := w.line, w.lines
	if cap(line) > 256 {
		line = nil
	}
	if cap(lines) > 4096 {
		lines = nil
	}
	*w = wrapper{word: w.word[:0], line: line[:0], lines: lines[:0]}
	wrappers.Put(w)
}
