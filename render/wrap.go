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
	text  string
	style ansi.Style
	link  string
	brk   bool
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

	line  ansi.Line
	lineW int

	// The run and byte range that the line's last span was sliced from,
	// so the next word of the same run can extend it.
	lastRun, lastStart, lastEnd int

	// The pending gap (spaces between the previous word and the next).
	gap, gapRun, gapStart int

	word  []piece
	wordW int
}

// wrappers recycles wrappers and their word buffers: a paragraph or table
// cell is wrapped by every layout, often more than once.
var wrappers = sync.Pool{New: func() any { return &wrapper{word: make([]piece, 0, 16)} }}

// spanSlab hands out the span storage of lines in large blocks, so that
// laying out a long note does not allocate once per line. Each line gets
// a capped window; a line that outgrows it moves to its own array.
type spanSlab struct{ buf []ansi.Span }

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
	if out == nil {
		n := 0
		for i := range runs {
			n += len(runs[i].text)
		}
		out = make([]ansi.Line, 0, n/width+1)
	}
	w := wrappers.Get().(*wrapper)
	*w = wrapper{runs: runs, width: width, out: out, slab: slab, lastRun: -1, gapRun: -1, word: w.word[:0]}
	defer func() {
		*w = wrapper{word: w.word[:0]}
		wrappers.Put(w)
	}()
	for i := range runs {
		r := &runs[i]
		if r.brk {
			w.flushWord()
			w.emit()
			continue
		}
		t := r.text
		pos := 0
		for pos < len(t) {
			j := strings.IndexByte(t[pos:], ' ')
			if j < 0 {
				w.addPiece(i, pos, len(t))
				break
			}
			j += pos
			if j > pos {
				w.addPiece(i, pos, j)
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
	if len(w.line) > 0 {
		w.emit()
	}
	return w.out
}

func (w *wrapper) addPiece(r, start, end int) {
	pw := ansi.Width(w.runs[r].text[start:end])
	w.word = append(w.word, piece{r, start, end, pw})
	w.wordW += pw
}

// emit ends the current line.
func (w *wrapper) emit() {
	w.out = append(w.out, w.line)
	w.line = nil
	w.lineW = 0
	w.lastRun = -1
	w.gap = 0
	w.gapRun = -1
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
	if w.gapRun >= 0 && w.gapRun == w.lastRun && w.gapStart == w.lastEnd {
		w.lastEnd += w.gap
		w.line[len(w.line)-1].Text = w.runs[w.lastRun].text[w.lastStart:w.lastEnd]
	} else {
		st, link := ansi.Style{}, ""
		if w.gapRun >= 0 {
			st, link = w.runs[w.gapRun].style, w.runs[w.gapRun].link
		}
		w.line = append(w.line, ansi.Span{Text: blank(w.gap), Style: st, Link: link})
		w.lastRun = -1
	}
	w.lineW += w.gap
	w.gap = 0
}

// appendPiece adds a word fragment that fits on the current line.
func (w *wrapper) appendPiece(p piece) {
	if p.r == w.lastRun && p.start == w.lastEnd {
		w.lastEnd = p.end
		w.line[len(w.line)-1].Text = w.runs[p.r].text[w.lastStart:w.lastEnd]
	} else {
		r := &w.runs[p.r]
		if w.line == nil {
			w.line = w.slab.line(4)
		}
		w.line = append(w.line, ansi.Span{Text: r.text[p.start:p.end], Style: r.style, Link: r.link})
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
