package render

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
)

// tableMinColumn is the width below which the table grid never shrinks a
// column; a table that still does not fit overflows rather than lose text.
const tableMinColumn = 3

// table lays out a GFM table as a box grid (SPEC §7.5): natural column
// widths, shrunk widest-first to fit, cells wrapped inside their column,
// a bold header row and column alignment honoured.
func (l *layouter) table(t *Table, width int) []ansi.Line {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return nil
	}
	g := &tableGrid{l: l, t: t, cols: cols, runs: l.mem.scratch[:0], ends: l.mem.cellEnds[:0]}
	l.mem.scratch, l.mem.cellEnds = nil, nil
	g.flatten()
	// widths and from are the caller's, not the grid's, so that they
	// stay on the stack.
	widths := make([]int, cols)
	g.naturalWidths(widths)
	wide, stack := l.fitColumns(g, widths, width)
	if stack {
		g.release()
		return l.stackedTable(t, cols, width)
	}
	g.out = append(l.mem.borrowLines(), g.rule(widths, "┌", "┬", "┐"))
	g.wrapped = l.mem.borrowLines()
	from := make([]int, cols+1)
	g.row(0, widths, from)
	if len(t.Rows) > 0 {
		g.out = append(g.out, g.rule(widths, "├", "┼", "┤"))
	}
	for r := range t.Rows {
		g.row((r+1)*cols, widths, from)
	}
	g.out = append(g.out, g.rule(widths, "└", "┴", "┘"))
	if wide {
		l.laidWide()
	}
	g.release()
	l.mem.returnLines(g.wrapped)
	return l.mem.keepLines(g.out)
}

// tableGrid is a GFM table being drawn as a box grid.
type tableGrid struct {
	l    *layouter
	t    *Table
	cols int
	// Every cell is flattened once into one run buffer; cell c of the
	// grid (header first, row by row) is runs[ends[c-1]:ends[c]].
	runs []run
	ends []int
	out  []ansi.Line
	// wrapped holds the wrapped lines of a row's cells, cell i's lines
	// being wrapped[from[i]:from[i+1]] for the from its caller keeps.
	wrapped []ansi.Line
}

// flatten flattens the header, bold, and every row into the run buffer.
func (g *tableGrid) flatten() {
	g.flattenRow(g.t.Header, Over(g.l.st.Strong, ansi.Style{}))
	for _, r := range g.t.Rows {
		g.flattenRow(r, ansi.Style{})
	}
}

func (g *tableGrid) flattenRow(row [][]Inline, st ansi.Style) {
	for i := range g.cols {
		if i < len(row) {
			g.runs = g.l.flatten(g.runs, row[i], st, "")
		}
		g.ends = append(g.ends, len(g.runs))
	}
}

// cellRuns returns the runs of cell c.
func (g *tableGrid) cellRuns(c int) []run {
	if c == 0 {
		return g.runs[:g.ends[0]]
	}
	return g.runs[g.ends[c-1]:g.ends[c]]
}

// naturalWidths sets widths to each column's widest cell, at least 1.
func (g *tableGrid) naturalWidths(widths []int) {
	for c := range g.ends {
		widths[c%g.cols] = max(widths[c%g.cols], runsWidth(g.cellRuns(c)))
	}
	for i := range widths {
		widths[i] = max(widths[i], 1)
	}
}

// wordFloors returns each column's longest word no wider than limit: the
// narrowest its column goes while words are kept whole. A longer word
// breaks however the table is drawn, so it does not hold its column open.
func (g *tableGrid) wordFloors(limit int) []int {
	floors := make([]int, g.cols)
	for c := range g.ends {
		floors[c%g.cols] = max(floors[c%g.cols], longestWord(g.cellRuns(c), limit))
	}
	return floors
}

// sum returns the sum of ns.
func sum(ns []int) int {
	total := 0
	for _, n := range ns {
		total += n
	}
	return total
}

// release hands the run buffer and the cell index back to the arena.
func (g *tableGrid) release() {
	clear(g.runs)
	g.l.mem.scratch = g.runs[:0]
	g.l.mem.cellEnds = g.ends[:0]
}

// rule draws a frame line from its left, middle and right glyphs. It is
// drawn as a span per glyph run, all in the frame style, so it is sliced
// from constants rather than built; the encoder joins the spans back into
// one run.
func (g *tableGrid) rule(widths []int, left, mid, right string) ansi.Line {
	frame := g.l.st.Frame
	ln := g.l.mem.line(2*g.cols + 1)
	ln = append(ln, ansi.Span{Text: left, Style: frame})
	for i, w := range widths {
		if i > 0 {
			ln = append(ln, ansi.Span{Text: mid, Style: frame})
		}
		ln = append(ln, ansi.Span{Text: horizontal(w + 2), Style: frame})
	}
	return append(ln, ansi.Span{Text: right, Style: frame})
}

// row draws the grid row whose first cell is cell first.
func (g *tableGrid) row(first int, widths, from []int) {
	g.wrapped = g.wrapped[:0]
	height := 1
	for i := range g.cols {
		from[i] = len(g.wrapped)
		g.wrapped = wrapRunsIn(g.cellRuns(first+i), widths[i], g.wrapped, &g.l.mem)
		height = max(height, len(g.wrapped)-from[i])
	}
	from[g.cols] = len(g.wrapped)
	for k := 0; k < height; k++ {
		g.out = append(g.out, g.rowLine(k, widths, from))
	}
}

// rowLine draws line k of the row in g.wrapped.
func (g *tableGrid) rowLine(k int, widths, from []int) ansi.Line {
	frame := g.l.st.Frame
	spans := 1
	for i := range g.cols {
		spans += 3 + len(g.cellLine(i, k, from))
	}
	ln := g.l.mem.line(spans)
	ln = append(ln, ansi.Span{Text: "│", Style: frame})
	for i := range g.cols {
		text := g.cellLine(i, k, from)
		pad := widths[i] - text.Width()
		left := alignedLeft(g.align(i), pad)
		ln = append(ln, ansi.Span{Text: blank(1 + left)})
		ln = append(ln, text...)
		ln = append(ln, ansi.Span{Text: blank(max(pad-left, 0) + 1)}, ansi.Span{Text: "│", Style: frame})
	}
	return ln
}

// cellLine returns line k of cell i of the row, nil past its end.
func (g *tableGrid) cellLine(i, k int, from []int) ansi.Line {
	if from[i]+k < from[i+1] {
		return g.wrapped[from[i]+k]
	}
	return nil
}

// align returns column i's alignment.
func (g *tableGrid) align(i int) Align {
	if i < len(g.t.Align) {
		return g.t.Align[i]
	}
	return AlignNone
}

// alignedLeft returns the padding left of a cell with pad cells to spare.
func alignedLeft(a Align, pad int) int {
	switch a {
	case AlignRight:
		return pad
	case AlignCenter:
		return pad / 2
	}
	return 0
}

// horizontals is sliced for the horizontal runs of table rules: 128
// glyphs, a constant so that no package initialization builds it.
const horizontals = "────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────"

// horizontal returns a run of n horizontal rule glyphs, without
// allocating for common widths.
func horizontal(n int) string {
	if n <= 128 {
		return horizontals[:n*len("─")]
	}
	return strings.Repeat("─", n)
}

// shrinkColumns narrows widths until their sum fits avail: the widest
// column (leftmost on ties) loses a cell at a time, and no column goes
// below tableMinColumn. It works in steps, not cell by cell, so a huge
// cell costs no more than a small one.
func shrinkColumns(widths []int, avail int) {
	total := sum(widths)
	for total > avail {
		top, second, count, first := widestColumns(widths)
		if top <= tableMinColumn {
			return
		}
		step := min(top-max(second, tableMinColumn), (total-avail)/count)
		if step < 1 {
			widths[first]--
			total--
			continue
		}
		total -= narrowWidest(widths, top, step)
	}
}

// widestColumns returns the widest width, top, the widest below it,
// second, how many columns are top wide and the first of them.
func widestColumns(widths []int) (top, second, count, first int) {
	first = -1
	for i, w := range widths {
		switch {
		case w > top:
			second, top, count, first = top, w, 1, i
		case w == top:
			count++
		case w > second:
			second = w
		}
	}
	return top, second, count, first
}

// narrowWidest narrows each column top wide by step and returns how many
// cells that took.
func narrowWidest(widths []int, top, step int) (cut int) {
	for i, w := range widths {
		if w == top {
			widths[i] -= step
			cut += step
		}
	}
	return cut
}

// tableReadable is the narrowest a column is squeezed to when its cells
// need more: a column's floor is its longest word (see wordFloors), at
// least tableReadable and at most its natural width.
const tableReadable = 8

// wideColumn is the width up to which a table a viewer scrolls sideways
// gives each column its natural width; a longer cell wraps.
const wideColumn = 48

// fitColumns sets widths, at first each column's natural width, for the
// grid of a table at width. A table wider than that is shrunk widest column
// first, or, where that would break a column's longest word, narrowed so
// that every word stays whole. Where the words cannot all fit, a viewer
// that scrolls sideways (Options.ScrollWidth) lays the table out wider
// (wide), and anywhere else its rows are stacked (stack): a table breaks
// only a word longer than the width.
func (l *layouter) fitColumns(g *tableGrid, widths []int, width int) (wide, stack bool) {
	avail := width - (3*len(widths) + 1)
	if sum(widths) <= avail {
		return false, false
	}
	natural := append([]int(nil), widths...)
	// The widest word a table can keep whole: the width, or for a
	// viewer that scrolls sideways the widest it lays a table out.
	limit := width
	if l.scrollable(width) {
		limit = l.opt.ScrollWidth
	}
	floors := g.wordFloors(limit)
	need := 0
	for i := range floors {
		floors[i] = min(natural[i], max(floors[i], tableReadable))
		need += floors[i]
	}
	shrinkColumns(widths, avail)
	if sum(widths) <= avail && keepsFloors(widths, floors) {
		return false, false
	}
	copy(widths, natural)
	switch {
	case need <= avail:
		fillColumns(widths, floors, avail)
		return false, false
	case l.scrollable(width) && need <= l.opt.ScrollWidth-(3*len(widths)+1):
		// Wider than the page: one line a row where cells are short.
		wideAvail := 0
		for i, w := range natural {
			wideAvail += max(floors[i], min(w, wideColumn))
		}
		fillColumns(widths, floors, min(wideAvail, l.opt.ScrollWidth-(3*len(widths)+1)))
		return true, false
	}
	return false, true
}

// keepsFloors reports whether no column is narrower than its floor.
func keepsFloors(widths, floors []int) bool {
	for i, w := range widths {
		if w < floors[i] {
			return false
		}
	}
	return true
}

// fillColumns narrows widths (each at first its column's natural width)
// to fit avail, no column below its floor (their sum fits avail): every
// column wider than a common cap is cut to it, or to its floor, with the
// cap as high as avail allows and the cells left over given to the
// leftmost columns cut, one each.
func fillColumns(widths, floors []int, avail int) {
	at := func(cap int) int {
		sum := 0
		for i, w := range widths {
			sum += max(floors[i], min(w, cap))
		}
		return sum
	}
	hi := 0
	for _, w := range widths {
		hi = max(hi, w)
	}
	if at(hi) <= avail {
		return
	}
	// The highest cap whose columns fit: at(lo) <= avail < at(hi).
	lo := 0
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if at(mid) <= avail {
			lo = mid
		} else {
			hi = mid
		}
	}
	left := avail - at(lo)
	for i, w := range widths {
		nw := max(floors[i], min(w, lo))
		if nw < w && left > 0 && nw == lo {
			nw++
			left--
		}
		widths[i] = nw
	}
}

// longestWord returns the width of the widest word in runs no wider than
// limit: text between spaces and breaks, a word running on across runs. A
// wide character (CJK) is a word of its own, as a line may break beside
// it.
func longestWord(runs []run, limit int) int {
	longest, cur := 0, 0
	word := func(w int) {
		if cur+w <= limit {
			longest = max(longest, cur+w)
		}
		cur = 0
	}
	for _, r := range runs {
		if r.brk {
			word(0)
			continue
		}
		for t := r.text; t != ""; {
			if t[0] < 0x80 {
				if t[0] == ' ' {
					word(0)
				} else {
					cur++
				}
				t = t[1:]
				continue
			}
			cluster, w := xansi.FirstGraphemeCluster(t, xansi.GraphemeWidth)
			if cluster == "" {
				break
			}
			t = t[len(cluster):]
			if w > 1 {
				word(0)
				word(w)
				continue
			}
			cur += w
		}
	}
	word(0)
	return longest
}

// stackedTable lays a table out a row at a time, one line per cell with
// its column's header before it, the rows apart by a thin rule: what a
// table too wide for the width becomes.
func (l *layouter) stackedTable(t *Table, cols, width int) []ansi.Line {
	headStyle := Over(l.st.Strong, ansi.Style{})
	var out []ansi.Line
	for r, row := range t.Rows {
		if r > 0 {
			out = append(out, ansi.Line{{Text: strings.Repeat("┄", width), Style: l.st.Frame}})
		}
		for i := range cols {
			var runs []run
			if i < len(t.Header) {
				runs = l.flatten(runs, t.Header[i], headStyle, "")
			}
			runs = append(runs, run{text: ": ", style: headStyle})
			if i < len(row) {
				runs = l.flatten(runs, row[i], ansi.Style{}, "")
			}
			out = wrapRunsIn(runs, width, out, &l.mem)
		}
	}
	if len(t.Rows) == 0 {
		runs := []run{}
		for i := range cols {
			if i > 0 {
				runs = append(runs, run{text: " · "})
			}
			if i < len(t.Header) {
				runs = l.flatten(runs, t.Header[i], headStyle, "")
			}
		}
		out = wrapRunsIn(runs, width, out, &l.mem)
	}
	return out
}
