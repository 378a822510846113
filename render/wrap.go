package render

import (
	"slices"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/rivo/uniseg"
)

// run is a piece of inline text in one style, the unit the wrapper works
// on. brk marks a hard line break (text is then empty).
type run struct {
	text   string
	style  ansi.Style
	link   string
	target ansi.Target
	brk    bool
}

// spaces is sliced for gap spans so that no gap allocates.
const spaces = "                                                                                                                                "

// blank returns n spaces without allocating for common widths.
func blank(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

// wrapper greedily fills lines of at most width cells from runs. Words are
// split at spaces; a word wider than the line is broken between grapheme
// clusters. Text of consecutive words from one run is kept as one
// substring of the run's text, so a plain paragraph costs one span per
// line and no string building.
type wrapper struct {
	runs  []run
	width int
	out   []ansi.Line
	mem   *arena

	// line collects the current line's spans; a finished line is copied
	// into exactly sized storage, so the buffer is reused line after line.
	line  ansi.Line
	lineW int
	// lines collects the lines when the caller passed no slice to append
	// to; they are copied into exactly sized storage at the end.
	lines []ansi.Line

	// measuring makes the wrapper build no line at all but only record in
	// widest the width that Line.Width reports for the widest line it
	// would have built. spansW is the width of the current line's spans
	// other than the last one.
	measuring bool
	spansW    int
	widest    int

	// The run and byte range that the line's last span was sliced from,
	// so the next word of the same run can extend it.
	lastRun, lastStart, lastEnd int

	// The pending gap (spaces between the previous word and the next).
	gap, gapRun, gapStart int

	word  []piece
	wordW int
}

// piece is a word fragment: runs[r].text[start:end], w cells wide.
type piece struct{ r, start, end, w int }

// wrapRuns wraps runs at width and appends the lines to out.
func wrapRuns(runs []run, width int, out []ansi.Line) []ansi.Line {
	return wrapRunsIn(runs, width, out, nil)
}

// wrapRunsIn is wrapRuns taking line storage from mem (nil for none).
func wrapRunsIn(runs []run, width int, out []ansi.Line, mem *arena) []ansi.Line {
	if width < 1 {
		width = 1
	}
	w := getWrapper(runs, width, mem)
	defer putWrapper(w)
	own := out == nil
	if own {
		out = w.lines
	}
	w.out = slices.Grow(out, expectedLines(runs, width))
	w.run()
	if !own {
		return w.out
	}
	if len(w.out) == 0 {
		return []ansi.Line{}
	}
	lines := mem.copyLines(w.out)
	clear(w.out)
	w.lines = w.out[:0]
	return lines
}

// expectedLines estimates the lines runs wrap to at width: their bytes
// over the width, plus their breaks. It counts a cell a byte, so text of
// wider encodings (CJK, emoji, combining marks) is estimated high, which
// costs only spare line headers. Room for that many at once spares a long
// paragraph the copies of its line list growing a doubling at a time.
func expectedLines(runs []run, width int) int {
	bytes, breaks := 0, 0
	for i := range runs {
		bytes += len(runs[i].text)
		if runs[i].brk {
			breaks++
		}
	}
	return bytes/width + breaks
}

// runsWidth returns the width of the widest line wrapRuns(runs, n, nil)
// draws for any n at least as wide as that line, as Line.Width measures
// it, without building the lines.
func runsWidth(runs []run) int {
	w := getWrapper(runs, 1<<30, nil)
	defer putWrapper(w)
	w.measuring = true
	w.run()
	return w.widest
}

// run wraps the runs.
func (w *wrapper) run() {
	for i := range w.runs {
		if w.runs[i].brk {
			w.flushWord()
			w.emit()
			continue
		}
		w.wrapText(i)
	}
	w.flushWord()
	if w.measuring {
		w.measureLine()
		return
	}
	if len(w.line) > 0 {
		w.emit()
	}
}

// wrapText adds the words of runs[i] and the gaps between them.
func (w *wrapper) wrapText(i int) {
	t := w.runs[i].text
	// In ASCII text a word's width is its length.
	ascii := isASCII(t)
	pos := 0
	for pos < len(t) {
		j := wordEnd(t, pos)
		if j == len(t) {
			w.addPiece(i, pos, len(t), ascii)
			break
		}
		if j > pos {
			w.addPiece(i, pos, j, ascii)
		}
		w.flushWord()
		k := spacesEnd(t, j)
		w.addGap(i, j, k)
		pos = k
	}
}

// wordEnd returns the index of the first space in t from pos, or len(t).
// Words are short: a plain loop finds the next space faster than a call
// to strings.IndexByte.
func wordEnd(t string, pos int) int {
	for pos < len(t) && t[pos] != ' ' {
		pos++
	}
	return pos
}

// spacesEnd returns the index of the first byte in t from pos that is not
// a space, or len(t).
func spacesEnd(t string, pos int) int {
	for pos < len(t) && t[pos] == ' ' {
		pos++
	}
	return pos
}

// addGap adds the spaces runs[i].text[j:k] to the gap before the next
// word; a gap of spaces from more than one place is not kept as text.
func (w *wrapper) addGap(i, j, k int) {
	if w.gap == 0 {
		w.gapRun, w.gapStart = i, j
	} else {
		w.gapRun = -1
	}
	w.gap += k - j
}

// addPiece adds runs[r].text[start:end] to the word being collected;
// ascii says the run's text is all ASCII.
func (w *wrapper) addPiece(r, start, end int, ascii bool) {
	pw := end - start
	if !ascii {
		pw = ansi.Width(w.runs[r].text[start:end])
	}
	w.word = append(w.word, piece{r, start, end, pw})
	w.wordW += pw
}

// emit ends the current line.
func (w *wrapper) emit() {
	if w.measuring {
		w.measureLine()
	} else {
		var ln ansi.Line
		if len(w.line) > 0 {
			ln = append(w.mem.line(len(w.line)), w.line...)
			w.line = w.line[:0]
		}
		w.out = append(w.out, ln)
	}
	w.lineW = 0
	w.lastRun = -1
	w.gap = 0
	w.gapRun = -1
}

// measureLine ends the line being measured: the widest line so far is
// at least as wide as it (measuring only).
func (w *wrapper) measureLine() {
	w.closeSpan()
	w.widest = max(w.widest, w.spansW)
	w.spansW = 0
}

// closeSpan adds the width of the span the last piece went into to
// spansW (measuring only).
func (w *wrapper) closeSpan() {
	if w.lastRun >= 0 {
		w.spansW += ansi.Width(w.runs[w.lastRun].text[w.lastStart:w.lastEnd])
	}
}

// flushWord places the word collected so far.
func (w *wrapper) flushWord() {
	if len(w.word) == 0 {
		return
	}
	if w.lineW > 0 {
		if w.lineW+w.gap+w.wordW <= w.width {
			w.appendGap()
			for _, p := range w.word {
				w.appendPiece(p)
			}
			w.word, w.wordW, w.gap = w.word[:0], 0, 0
			return
		}
		w.emit()
	}
	w.gap = 0
	w.gapRun = -1
	if w.wordW <= w.width {
		for _, p := range w.word {
			w.appendPiece(p)
		}
	} else {
		for _, p := range w.word {
			w.breakPiece(p)
		}
	}
	w.word, w.wordW = w.word[:0], 0
}

// appendGap writes the pending gap, extending the last span when the gap
// directly follows it in the same run.
func (w *wrapper) appendGap() {
	if w.gap == 0 {
		return
	}
	switch {
	case w.gapRun >= 0 && w.gapRun == w.lastRun && w.gapStart == w.lastEnd:
		w.lastEnd += w.gap
		if !w.measuring {
			w.line[len(w.line)-1].Text = w.runs[w.lastRun].text[w.lastStart:w.lastEnd]
		}
	case w.measuring:
		w.closeSpan()
		w.spansW += w.gap
		w.lastRun = -1
	default:
		var gap ansi.Span
		if w.gapRun >= 0 {
			r := &w.runs[w.gapRun]
			gap = ansi.Span{Style: r.style, Link: r.link, Target: r.target}
		}
		gap.Text = blank(w.gap)
		w.line = append(w.line, gap)
		w.lastRun = -1
	}
	w.lineW += w.gap
	w.gap = 0
}

// appendPiece adds a word fragment that fits on the current line.
func (w *wrapper) appendPiece(p piece) {
	switch {
	case p.r == w.lastRun && p.start == w.lastEnd:
		w.lastEnd = p.end
		if !w.measuring {
			w.line[len(w.line)-1].Text = w.runs[p.r].text[w.lastStart:w.lastEnd]
		}
	case w.measuring:
		w.closeSpan()
		w.lastRun, w.lastStart, w.lastEnd = p.r, p.start, p.end
	default:
		r := &w.runs[p.r]
		w.line = append(w.line, ansi.Span{Text: r.text[p.start:p.end], Style: r.style, Link: r.link, Target: r.target})
		w.lastRun, w.lastStart, w.lastEnd = p.r, p.start, p.end
	}
	w.lineW += p.w
}

// breakPiece places a fragment of an over-long word grapheme cluster by
// grapheme cluster, starting new lines as they fill.
func (w *wrapper) breakPiece(p piece) {
	t := w.runs[p.r].text
	pos := p.start
	state := -1
	for pos < p.end {
		if c := t[pos]; c >= ' ' && c < 0x7f && (pos+1 == p.end || t[pos+1] < 0x80) {
			// A printable ASCII character followed by ASCII is a cluster
			// of its own, one cell wide: no grapheme rule joins the two.
			if w.lineW > 0 && w.lineW+1 > w.width {
				w.emit()
			}
			w.appendPiece(piece{p.r, pos, pos + 1, 1})
			pos++
			state = -1
			continue
		}
		cluster, _, _, ns := uniseg.FirstGraphemeClusterInString(t[pos:p.end], state)
		state = ns
		cw := ansi.Width(cluster)
		if w.lineW > 0 && w.lineW+cw > w.width {
			w.emit()
		}
		w.appendPiece(piece{p.r, pos, pos + len(cluster), cw})
		pos += len(cluster)
	}
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// hardBreak splits text (no line feeds) into lines of at most width
// cells between grapheme clusters, for preformatted text.
func hardBreak(text string, width int) []string {
	if ansi.Width(text) <= width {
		return []string{text}
	}
	if width < 1 {
		width = 1
	}
	var out []string
	start, lineW, pos := 0, 0, 0
	state := -1
	for pos < len(text) {
		cluster, _, _, ns := uniseg.FirstGraphemeClusterInString(text[pos:], state)
		state = ns
		cw := ansi.Width(cluster)
		if lineW > 0 && lineW+cw > width {
			out = append(out, text[start:pos])
			start, lineW = pos, 0
		}
		lineW += cw
		pos += len(cluster)
	}
	return append(out, text[start:])
}
