package render

import (
	"strings"

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
	headStyle := Over(l.st.Strong, ansi.Style{})
	// Flatten every cell once; wrapping reuses the runs.
	flat := func(row [][]Inline, st ansi.Style) [][]run {
		out := make([][]run, cols)
		for i := 0; i < cols && i < len(row); i++ {
			out[i] = l.flatten(nil, row[i], st, "")
		}
		return out
	}
	header := flat(t.Header, headStyle)
	rows := make([][][]run, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = flat(r, ansi.Style{})
	}
	widths := make([]int, cols)
	measure := func(cells [][]run) {
		for i, c := range cells {
			for _, ln := range wrapRuns(c, 1<<30, nil) {
				widths[i] = max(widths[i], ln.Width())
			}
		}
	}
	measure(header)
	for _, r := range rows {
		measure(r)
	}
	for i := range widths {
		widths[i] = max(widths[i], 1)
	}
	shrinkColumns(widths, width-(3*cols+1))

	frame := l.st.Frame
	rule := func(left, mid, right string) ansi.Line {
		var b strings.Builder
		b.WriteString(left)
		for i, w := range widths {
			if i > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(right)
		return ansi.Line{{Text: b.String(), Style: frame}}
	}
	align := func(i int) Align {
		if i < len(t.Align) {
			return t.Align[i]
		}
		return AlignNone
	}
	out := []ansi.Line{rule("┌", "┬", "┐")}
	emitRow := func(cells [][]run) {
		wrapped := make([][]ansi.Line, cols)
		height := 1
		for i := range cells {
			wrapped[i] = wrapRuns(cells[i], widths[i], nil)
			height = max(height, len(wrapped[i]))
		}
		for k := 0; k < height; k++ {
			ln := make(ansi.Line, 0, 4*cols+1)
			ln = append(ln, ansi.Span{Text: "│", Style: frame})
			for i := range cells {
				var cell ansi.Line
				if k < len(wrapped[i]) {
					cell = wrapped[i][k]
				}
				pad := widths[i] - cell.Width()
				left := 0
				switch align(i) {
				case AlignRight:
					left = pad
				case AlignCenter:
					left = pad / 2
				}
				ln = append(ln, ansi.Span{Text: blank(1 + left)})
				ln = append(ln, cell...)
				ln = append(ln, ansi.Span{Text: blank(max(pad-left, 0) + 1)}, ansi.Span{Text: "│", Style: frame})
			}
			out = append(out, ln)
		}
	}
	emitRow(header)
	if len(rows) > 0 {
		out = append(out, rule("├", "┼", "┤"))
	}
	for _, r := range rows {
		emitRow(r)
	}
	return append(out, rule("└", "┴", "┘"))
}

// shrinkColumns narrows widths until their sum fits avail: the widest
// column (leftmost on ties) loses a cell at a time, and no column goes
// below tableMinColumn. It works in steps, not cell by cell, so a huge
// cell costs no more than a small one.
func shrinkColumns(widths []int, avail int) {
	total := 0
	for _, w := range widths {
		total += w
	}
	for total > avail {
		top, second, count, first := 0, 0, 0, -1
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
		if top <= tableMinColumn {
			return
		}
		floor := max(second, tableMinColumn)
		excess := total - avail
		step := min(top-floor, excess/count)
		if step >= 1 {
			for i, w := range widths {
				if w == top {
					widths[i] -= step
					total -= step
				}
			}
			continue
		}
		widths[first]--
		total--
	}
}
