package render

import (
	"strings"
	"sync"

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
	slab  *spanSlab

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

// wrappers recycles wrappers and their buffers: a paragraph or table cell
// is wrapped by every layout, often more than once.
var wrappers = sync.Pool{New: func() any { return &wrapper{word: make([]piece, 0, 16)} }}

// getWrapper returns a pooled wrapper set up to wrap runs at width.
func getWrapper(runs []run, width int, slab *spanSlab) *wrapper {
	w := wrappers.Get().(*wrapper)
	*w = wrapper{runs: runs, width: width, slab: slab, lastRun: -1, gapRun: -1,
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

// spanSlab hands out the span storage of lines, and the storage of line
// lists, in large blocks, so that laying out a long note does not
// allocate once per line. Each request gets a capped window; a line or
// list that outgrows it moves to its own array.
type spanSlab struct {
	buf  []ansi.Span
	rows []ansi.Line
	// roomy holds the last span of the storage of every line made by
	// roomyLine: only such a line is known to have no other holder, so
	// only it may have spans prepended in place.
	roomy map[*ansi.Span]struct{}
}

// roomyLine returns an empty line with room for n spans and for room more
// that prepend may later put in front of them without copying the line.
func (s *spanSlab) roomyLine(n, room int) ansi.Line {
	ln := s.line(n + room)
	if room > 0 {
		if s.roomy == nil {
			s.roomy = make(map[*ansi.Span]struct{})
		}
		s.roomy[&ln[:cap(ln)][cap(ln)-1]] = struct{}{}
	}
	return ln
}

// prepend puts sp in front of ln's spans in place and returns the longer
// line, when ln was made by roomyLine and has room left; otherwise it
// returns ln unchanged and false.
func (s *spanSlab) prepend(ln ansi.Line, sp ansi.Span) (ansi.Line, bool) {
	if len(ln) == cap(ln) {
		return ln, false
	}
	if _, ok := s.roomy[&ln[:cap(ln)][cap(ln)-1]]; !ok {
		return ln, false
	}
	ln = append(ln, ansi.Span{})
	copy(ln[1:], ln)
	ln[0] = sp
	return ln, true
}

// line returns an empty line with room for n spans.
func (s *spanSlab) line(n int) ansi.Line {
	if s == nil || n > 64 {
		return make(ansi.Line, 0, n)
	}
	if len(s.buf)+n > cap(s.buf) {
		// Blocks grow from small to large, so a short note does not
		// touch memory it never fills.
		s.buf = make([]ansi.Span, 0, min(max(2*cap(s.buf), 128), 2048))
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	return s.buf[start : start : start+n]
}

// lines returns an empty line list with room for n lines.
func (s *spanSlab) lines(n int) []ansi.Line {
	if s == nil || n > 256 {
		return make([]ansi.Line, 0, n)
	}
	if len(s.rows)+n > cap(s.rows) {
		s.rows = make([]ansi.Line, 0, max(min(2*cap(s.rows), 1024), 64, n))
	}
	start := len(s.rows)
	s.rows = s.rows[:start+n]
	return s.rows[start : start : start+n]
}

// copyLines returns lines copied into exactly sized storage from s.
func (s *spanSlab) copyLines(lines []ansi.Line) []ansi.Line {
	if len(lines) == 0 {
		return nil
	}
	return append(s.lines(len(lines)), lines...)
}

// recycle lets s hand out its current blocks again from the start. Only
// a caller that no longer holds any line or list s handed out may call
// it; what the blocks still reference is overwritten as they refill.
func (s *spanSlab) recycle() {
	s.buf = s.buf[:0]
	s.rows = s.rows[:0]
	clear(s.roomy)
}

// piece is a word fragment: runs[r].text[start:end], w cells wide.
type piece struct{ r, start, end, w int }

// wrapRuns wraps runs at width and appends the lines to out.
func wrapRuns(runs []run, width int, out []ansi.Line) []ansi.Line {
	return wrapRunsSlab(runs, width, out, nil)
}

// wrapRunsSlab is wrapRuns taking line storage from slab (nil for none).
func wrapRunsSlab(runs []run, width int, out []ansi.Line, slab *spanSlab) []ansi.Line {
	if width < 1 {
		width = 1
	}
	w := getWrapper(runs, width, slab)
	defer putWrapper(w)
	own := out == nil
	if own {
		out = w.lines
	}
	w.out = out
	w.run()
	if !own {
		return w.out
	}
	if len(w.out) == 0 {
		return []ansi.Line{}
	}
	lines := slab.copyLines(w.out)
	clear(w.out)
	w.lines = w.out[:0]
	return lines
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
	runs := w.runs
	for i := range runs {
		r := &runs[i]
		if r.brk {
			w.flushWord()
			w.emit()
			continue
		}
		t := r.text
		// In ASCII text a word's width is its length.
		ascii := isASCII(t)
		pos := 0
		for pos < len(t) {
			// Words are short: a plain loop finds the next space faster
			// than a call to strings.IndexByte.
			j := pos
			for j < len(t) && t[j] != ' ' {
				j++
			}
			if j == len(t) {
				w.addPiece(i, pos, len(t), ascii)
				break
			}
			if j > pos {
				w.addPiece(i, pos, j, ascii)
			}
			w.flushWord()
			k := j
			for k < len(t) && t[k] == ' ' {
				k++
			}
			if w.gap == 0 {
				w.gapRun, w.gapStart = i, j
			} else {
				w.gapRun = -1
			}
			w.gap += k - j
			pos = k
		}
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
			ln = append(w.slab.line(len(w.line)), w.line...)
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
