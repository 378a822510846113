package render

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/markii/markii/ansi"
)

// footnoteMarker is the text of footnote n's reference and of its entry
// in the footnotes section.
func footnoteMarker(n int) string { return "[" + strconv.Itoa(n) + "]" }

// footnoteRef draws a reference as its marker, right after the text it
// follows. A terminal cannot link to a place in the page (OSC 8 takes
// only URLs), so the marker matches the entry in the footnotes section.
func (l *layouter) footnoteRef(dst []run, n *FootnoteRef, st ansi.Style, link string) []run {
	return append(dst, run{text: footnoteMarker(n.Number), style: Over(st, l.st.Accent), link: link})
}

// footnotes draws the footnotes section: a rule, then each note under its
// marker, the markers right-aligned to the widest one and the note's
// blocks hanging beside it. Where the width leaves no room for the hang,
// the marker takes a line of its own above the note.
func (l *layouter) footnotes(f *Footnotes, width int) []ansi.Line {
	if len(f.Notes) == 0 {
		return nil
	}
	markW := 0
	for _, fn := range f.Notes {
		markW = max(markW, len(footnoteMarker(fn.Number)))
	}
	hang := markW + 1
	indent := width-hang >= minIndentWidth
	out := l.mem.borrowLines()
	out = append(out, ansi.Line{{Text: strings.Repeat("─", width), Style: l.st.Rule}})
	for _, fn := range f.Notes {
		mark := footnoteMarker(fn.Number)
		marker := ansi.Span{Text: blank(markW-len(mark)) + mark + " ", Style: l.st.Accent}
		m := l.mark()
		if !indent {
			out = append(out, ansi.Line{{Text: mark, Style: l.st.Accent}})
			l.shift(m, len(out))
			out = append(out, l.blocks(fn.Blocks, width)...)
			continue
		}
		l.depth++
		body := l.blocks(fn.Blocks, width-hang)
		l.depth--
		if len(body) == 0 {
			body = []ansi.Line{nil}
		}
		body = l.prefixLines(body, width, marker, ansi.Span{Text: blank(hang)})
		l.shift(m, len(out))
		out = append(out, body...)
	}
	return l.mem.keepLines(out)
}

// mayDefineFootnote reports whether body may hold a footnote definition:
// `[^`, a label without a line break and `]:`.
func mayDefineFootnote(body []byte) bool {
	for {
		i := bytes.Index(body, []byte("[^"))
		if i < 0 {
			return false
		}
		body = body[i+2:]
		end := bytes.IndexAny(body, "]\n")
		if end > 0 && body[end] == ']' && end+1 < len(body) && body[end+1] == ':' {
			return true
		}
	}
}
