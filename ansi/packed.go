package ansi

import "strings"

// PackedLines holds lines compactly for as long as they are kept, as a
// viewer keeps a long page: the text of each line is one substring of a
// large shared buffer, and each span is where its text ends on the line
// plus an index into a table of the distinct (style, link, image)
// combinations the lines use. A span costs 12 bytes instead of the 64 of
// a Span, and the text a line was cut from (a note's source) is not kept.
// Neighbouring spans that Compact would merge are merged as they are
// added. The zero PackedLines holds no lines; a PackedLines must not be
// copied once lines are added.
type PackedLines struct {
	lines []packedLine
	// spans are held in blocks of spanBlock, so that storage never grows
	// by copying what it holds; nspans counts them.
	spans  [][]packedSpan
	nspans int
	attrs  []attrs
	index  map[attrs]uint32
	// buf is the buffer line text is written to; a new one is started
	// when a line does not fit, so the text handed out never moves.
	buf strings.Builder
	// bufBytes counts the bytes of every buffer started.
	bufBytes int
}

// packedBuffer is how much text one shared buffer holds, and spanBlock
// how many spans one block of them.
const (
	packedBuffer = 64 << 10
	spanBlock    = 4 << 10
)

type packedLine struct {
	text string
	// span is the index of the line's first span; the next line's first
	// span ends it.
	span uint32
}

type packedSpan struct {
	// end is where the span's text ends in its line's text.
	end    uint32
	attrs  uint32
	target Target
}

// attrs is everything of a span but its text and target.
type attrs struct {
	style Style
	link  string
	image *Image
}

// Len returns the number of lines.
func (p *PackedLines) Len() int { return len(p.lines) }

// Text returns line i's visible text (Line.Text of the line added).
func (p *PackedLines) Text(i int) string { return p.lines[i].text }

// Empty reports whether line i has no spans (a blank line).
func (p *PackedLines) Empty(i int) bool { return p.spanEnd(i) == p.lines[i].span }

// spanEnd is one past the index of line i's last span.
func (p *PackedLines) spanEnd(i int) uint32 {
	if i+1 < len(p.lines) {
		return p.lines[i+1].span
	}
	return uint32(p.nspans)
}

// span returns span j.
func (p *PackedLines) span(j uint32) *packedSpan { return &p.spans[j/spanBlock][j%spanBlock] }

// addSpan appends s and returns where it is held.
func (p *PackedLines) addSpan(s packedSpan) *packedSpan {
	k := p.nspans / spanBlock
	if k == len(p.spans) {
		p.spans = append(p.spans, make([]packedSpan, 0, spanBlock))
	}
	p.spans[k] = append(p.spans[k], s)
	p.nspans++
	return &p.spans[k][len(p.spans[k])-1]
}

// Line returns line i as spans, in new storage the caller may change.
// Spans that were merged when added come back as one.
func (p *PackedLines) Line(i int) Line {
	pl := p.lines[i]
	end := p.spanEnd(i)
	if end == pl.span {
		return nil
	}
	out := make(Line, 0, end-pl.span)
	from := uint32(0)
	for j := pl.span; j < end; j++ {
		s := p.span(j)
		a := p.attrs[s.attrs]
		out = append(out, Span{Text: pl.text[from:s.end], Style: a.style, Link: a.link, Image: a.image, Target: s.target})
		from = s.end
	}
	return out
}

// Bytes returns about how much memory the lines hold.
func (p *PackedLines) Bytes() int {
	const line, span, attr = 24, 12, 48
	return p.bufBytes + line*cap(p.lines) + span*spanBlock*len(p.spans) + attr*cap(p.attrs)
}

// Append adds lines at the end. It keeps no reference to them or to the
// strings of their text or links.
func (p *PackedLines) Append(lines ...Line) {
	for _, l := range lines {
		p.appendLine(l)
	}
}

func (p *PackedLines) appendLine(l Line) {
	n := 0
	for _, s := range l {
		n += len(s.Text)
	}
	if p.buf.Cap()-p.buf.Len() < n {
		p.buf = strings.Builder{}
		p.buf.Grow(max(n, packedBuffer))
		p.bufBytes += p.buf.Cap()
	}
	start := p.buf.Len()
	first := uint32(p.nspans)
	var last *packedSpan
	var lastAttrs attrs
	for _, s := range l {
		p.buf.WriteString(s.Text)
		a := attrs{style: s.Style, link: s.Link, image: s.Image}
		end := uint32(p.buf.Len() - start)
		if last != nil && a == lastAttrs && s.Target == last.target && a.image == nil {
			last.end = end
			continue
		}
		last, lastAttrs = p.addSpan(packedSpan{end: end, attrs: p.attrsIndex(a), target: s.Target}), a
	}
	p.lines = append(p.lines, packedLine{text: p.buf.String()[start:], span: first})
}

// attrsIndex returns a's index in the table, adding it when it is new.
func (p *PackedLines) attrsIndex(a attrs) uint32 {
	if i, ok := p.index[a]; ok {
		return i
	}
	if p.index == nil {
		p.index = map[attrs]uint32{}
	}
	// The table outlives the lines the link came from.
	a.link = strings.Clone(a.link)
	i := uint32(len(p.attrs))
	p.attrs = append(p.attrs, a)
	p.index[a] = i
	return i
}

// Clip releases the room the storage grew ahead of what it holds; call it
// once the last line is added.
func (p *PackedLines) Clip() {
	p.lines = append([]packedLine(nil), p.lines...)
	if n := len(p.spans); n > 0 {
		p.spans[n-1] = append([]packedSpan(nil), p.spans[n-1]...)
	}
	p.index = nil
	p.buf = strings.Builder{}
}
