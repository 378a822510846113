package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/markii/markii/ansi"
)

// maxIndentDepth bounds how many nested quotes and lists still indent,
// and minIndentWidth is the narrowest column they indent down to; deeper
// content is laid out without further indentation, so that deep nesting
// stays readable and a pathological note keeps bounded output.
const (
	maxIndentDepth = 48
	minIndentWidth = 12
)

// Layout lays doc out into styled lines at opt.Width. It is a pure function
// of its inputs: it reads no environment, clock, terminal or file. Blocks
// are separated by one blank line; the page holds no trailing blank line.
func Layout(doc *Document, opt Options) *Page {
	if opt.Width < 1 {
		opt.Width = 1
	}
	l := newLayouter(opt)
	if doc != nil {
		l.packNotice(doc)
		l.page.Lines = l.blocks(doc.Blocks, opt.Width)
		l.placeTargets()
	}
	return l.page
}

// Stream lays doc out exactly as Layout does but hands the lines to emit a
// top-level block at a time (with the blank separator lines) instead of
// keeping the whole page, so a long note is never held twice. It consumes
// doc: each top-level block is released once it has been drawn. emit must
// not keep the lines it is handed after it returns (encode or copy them):
// their storage is reused for the next block. It returns the page's
// diagnostics, or the first error emit returns.
func Stream(doc *Document, opt Options, emit func(lines []ansi.Line) error) ([]string, error) {
	s := NewStreamer(opt, emit)
	if doc == nil {
		return nil, nil
	}
	err := s.Add(doc)
	return s.Diagnostics(), err
}

// Streamer lays out a note that arrives in pieces (see ParseChunks) as
// Stream lays out a whole document: the lines it emits are those Stream
// emits for the document the pieces make up together.
type Streamer struct {
	l       *layouter
	emit    func(lines []ansi.Line) error
	started bool
	noticed bool
}

// NewStreamer returns a Streamer that hands each block's lines to emit.
// As with Stream, emit must not keep the lines after it returns.
func NewStreamer(opt Options, emit func(lines []ansi.Line) error) *Streamer {
	if opt.Width < 1 {
		opt.Width = 1
	}
	l := newLayouter(opt)
	l.streaming = true
	return &Streamer{l: l, emit: emit}
}

// Add lays out the next piece of the note. The first piece carries the
// frontmatter. It consumes doc like Stream and returns the first error
// emit returns.
func (s *Streamer) Add(doc *Document) error {
	l := s.l
	if !s.noticed {
		s.noticed = true
		l.packNotice(doc)
	}
	for i, b := range doc.Blocks {
		// Every line handed out so far has been emitted, so the line
		// storage is drawn from again.
		l.mem.reset()
		lines := l.block(b, l.opt.Width)
		doc.Blocks[i] = nil
		if len(lines) == 0 {
			continue
		}
		if s.started {
			if err := s.emit(append(l.mem.lines(1), nil)); err != nil {
				return err
			}
		}
		s.started = true
		if err := s.emit(lines); err != nil {
			return err
		}
		// Lines already emitted are not kept: their storage is drawn
		// from again for the next block.
		l.page.Headings = l.page.Headings[:0]
		l.page.Focusables = l.page.Focusables[:0]
		l.page.Wide = l.page.Wide[:0]
	}
	return nil
}

// Diagnostics returns what the layout so far has to report.
func (s *Streamer) Diagnostics() []string { return s.l.page.Diagnostics }

// packNotice records, once per layout, that packs the note's frontmatter
// names are not installed.
func (l *layouter) packNotice(doc *Document) {
	if d := packDiagnostic(doc, l.reg, l.opt.Packs); d != "" {
		l.page.Diagnostics = append(l.page.Diagnostics, d)
	}
}

// layouter holds the state of one Layout call.
type layouter struct {
	opt   Options
	st    Styles
	reg   *Registry
	page  *Page
	depth int
	// lists is the nesting depth of bullet lists (for the marker glyph).
	lists int
	// components is the nesting depth of block components; tooDeep is set
	// once the depth limit has been reported.
	components int
	tooDeep    bool
	// measuring counts the fit-width measurements in progress.
	measuring int
	// fitChildren asks the self-sizing components directly inside a fit
	// wrapper to take their natural width when they set no width.
	fitChildren bool
	// headings counts headings in document order (their BlockID).
	headings int
	// ids counts focusable blocks per kind in document order.
	ids map[FocusKind]int
	// highlighted counts the bytes of code highlighted so far.
	highlighted int
	// mem holds the spans of the page's lines and the layout's scratch
	// buffers (see arena).
	mem arena
	// wide says a table or code block of the top-level block being laid
	// out was laid out wider than its width.
	wide bool
	// streaming is set when the page's headings are dropped after every
	// block, so that their text is not worth extracting.
	streaming bool
	// targetURL holds, for each target handed out since the first
	// targetBase (target t at t-targetBase-1), the link it draws, or ""
	// for a part of a focusable block or an anchor. Targets whose lines
	// have all been placed are forgotten (see forgetTargets).
	targetURL  []string
	targetBase ansi.Target
	// inLink is the target of the link being flattened, 0 outside links.
	inLink ansi.Target
	// places is where the targets of the lines placed so far are.
	places targetPlaces
	// boxed holds the lines of the dashed box drawn last when every one
	// of them is exactly boxedWidth cells wide (see fallback.go).
	boxed      []ansi.Line
	boxedWidth int
}

// newTarget hands out a target for the spans of one link to url, or of a
// part of a focusable block when url is "". A streamed page keeps no
// targets, so its spans get none.
func (l *layouter) newTarget(url string) ansi.Target {
	if l.streaming {
		return 0
	}
	l.targetURL = append(l.targetURL, url)
	return l.targetBase + ansi.Target(len(l.targetURL))
}

func newLayouter(opt Options) *layouter {
	reg := opt.Registry
	if reg == nil {
		reg = StandardRegistry()
	}
	return &layouter{opt: opt, st: NewStyles(opt.Theme), reg: reg, page: &Page{}}
}

// marks remembers how many headings and focusables a page had, so that
// those recorded after it can be moved when their lines are placed.
type marks struct{ h, f, w int }

func (l *layouter) mark() marks {
	return marks{len(l.page.Headings), len(l.page.Focusables), len(l.page.Wide)}
}

// shift moves every heading, focusable and wide block recorded since m
// down by n lines.
func (l *layouter) shift(m marks, n int) {
	if n == 0 {
		return
	}
	for i := m.h; i < len(l.page.Headings); i++ {
		l.page.Headings[i].Line += n
		l.page.Headings[i].EndLine += n
	}
	for i := m.f; i < len(l.page.Focusables); i++ {
		l.page.Focusables[i].Line += n
		l.page.Focusables[i].EndLine += n
	}
	for i := m.w; i < len(l.page.Wide); i++ {
		l.page.Wide[i].Line += n
		l.page.Wide[i].EndLine += n
	}
}

// scrollable reports whether a table or code block laid out at width may
// be laid out wider (Options.ScrollWidth): one outside any component's
// frame, whose lines nothing to their right needs to line up with (at the
// top level, in a list, a quote or a footnote).
func (l *layouter) scrollable(width int) bool {
	return l.opt.ScrollWidth > width && l.components == 0 && l.measuring == 0
}

// laidWide notes that the top-level block being laid out has a table or
// code block laid out wider than its width (see block).
func (l *layouter) laidWide() { l.wide = true }

// blocks lays out a block sequence at width, one blank line between
// non-empty blocks.
func (l *layouter) blocks(bs []Block, width int) []ansi.Line {
	return l.blocksSep(bs, width, true)
}

func (l *layouter) blocksSep(bs []Block, width int, blankBetween bool) []ansi.Line {
	// A sequence of one drawn block (the usual list item) is that block's
	// lines; a longer one is collected in a borrowed buffer.
	var single, out []ansi.Line
	collecting, long := false, len(bs) > 64
	if long {
		// A long sequence (a whole note) grows its own slice once or twice
		// rather than copying it at every doubling from one block.
		out, collecting = make([]ansi.Line, 0, 6*len(bs)), true
	}
	for _, b := range bs {
		m := l.mark()
		lines := l.block(b, width)
		if len(lines) == 0 {
			continue
		}
		if single == nil && !collecting {
			single = lines
			continue
		}
		if !collecting {
			collecting = true
			out = append(l.mem.borrowLines(), single...)
			single = nil
		}
		out = l.appendBlock(out, lines, m, blankBetween)
	}
	switch {
	case !collecting:
		return single
	case long:
		return out
	}
	return l.mem.keepLines(out)
}

// appendBlock appends a block's lines, laid out from marks m, to out:
// after a blank line when blankBetween and out has lines.
func (l *layouter) appendBlock(out, lines []ansi.Line, m marks, blankBetween bool) []ansi.Line {
	if blankBetween && len(out) > 0 {
		out = append(out, nil)
	}
	l.shift(m, len(out))
	return append(out, lines...)
}

// block lays out one block at width. A top-level block laid out wider
// than the page is recorded in Page.Wide, its lines placed like a
// heading's.
func (l *layouter) block(b Block, width int) []ansi.Line {
	if width < 1 {
		width = 1
	}
	if l.depth > 0 || !l.scrollable(width) {
		return l.blockAt(b, width)
	}
	l.wide = false
	lines := l.blockAt(b, width)
	if l.wide {
		w := 0
		for _, ln := range lines {
			w = max(w, ln.Width())
		}
		if w > width {
			l.page.Wide = append(l.page.Wide, WideBlock{Line: 0, EndLine: len(lines), Width: w})
		}
	}
	l.wide = false
	return lines
}

// blockAt lays out one block at width, by its kind's step of the
// layouter (drawnBlock).
func (l *layouter) blockAt(b Block, width int) []ansi.Line {
	if d, ok := b.(drawnBlock); ok {
		return d.layout(l, width)
	}
	return nil
}

// drawnBlock is a block that names the step of the layouter that lays it
// out; every kind of block is one.
type drawnBlock interface {
	layout(l *layouter, width int) []ansi.Line
}

func (b *Heading) layout(l *layouter, width int) []ansi.Line     { return l.heading(b, width) }
func (b *Paragraph) layout(l *layouter, width int) []ansi.Line   { return l.paragraphBlock(b, width) }
func (b *CodeBlock) layout(l *layouter, width int) []ansi.Line   { return l.codeOrDiagram(b, width) }
func (b *ScriptBlock) layout(l *layouter, width int) []ansi.Line { return l.scriptBlock(b, width) }
func (b *Quote) layout(l *layouter, width int) []ansi.Line       { return l.quote(b, width) }
func (b *List) layout(l *layouter, width int) []ansi.Line        { return l.list(b, width) }
func (*ThematicBreak) layout(l *layouter, width int) []ansi.Line { return l.rule(width) }
func (b *Table) layout(l *layouter, width int) []ansi.Line       { return l.table(b, width) }
func (b *Directive) layout(l *layouter, width int) []ansi.Line   { return l.directive(b, width) }
func (b *Footnotes) layout(l *layouter, width int) []ansi.Line   { return l.footnotes(b, width) }

// paragraphBlock lays out a paragraph: a picture when it is one image
// alone, else its wrapped text.
func (l *layouter) paragraphBlock(b *Paragraph, width int) []ansi.Line {
	if pic := l.standaloneImage(b, width); pic != nil {
		return pic
	}
	return l.paragraph(b.Content, ansi.Style{}, width)
}

// codeOrDiagram lays out a code block: a mermaid one as a diagram.
func (l *layouter) codeOrDiagram(b *CodeBlock, width int) []ansi.Line {
	if strings.EqualFold(b.Lang, "mermaid") {
		return l.diagram(b, width)
	}
	return l.codeBlock(b, width)
}

// rule draws a thematic break across the width.
func (l *layouter) rule(width int) []ansi.Line {
	return []ansi.Line{{{Text: strings.Repeat("─", width), Style: l.st.Rule}}}
}

// paragraph wraps inline content at width.
func (l *layouter) paragraph(content []Inline, st ansi.Style, width int) []ansi.Line {
	// Each inline makes at least one run: room for them at once, so a
	// paragraph of many inlines does not copy its runs at every doubling.
	runs := slices.Grow(l.mem.scratch[:0], len(content))
	l.mem.scratch = nil
	runs = l.flatten(runs, content, st, "")
	lines := wrapRunsIn(runs, width, nil, &l.mem)
	clear(runs)
	l.mem.scratch = runs[:0]
	return lines
}

// headingMarks are the markers that show a heading's level when there is
// no color to show it, as the note's source writes them; headingHangs
// indent a wrapped heading's later lines under its text.
var (
	headingMarks = [6]string{"# ", "## ", "### ", "#### ", "##### ", "###### "}
	headingHangs = [6]string{"  ", "   ", "    ", "     ", "      ", "       "}
)

// sectionMark starts a level 3 heading in color, where the levels around
// it share its weight.
const sectionMark = "▎ "

// heading draws a heading so that each level differs from its neighbours
// in more than a shade, at every color level:
//
//	1  bold, the heading color, over a heavy rule (━) as wide as its text
//	2  bold, the heading color, over a light dim rule (─)
//	3  bold, the accent color, after a ▎ marker in the accent color
//	4  bold, the text color
//	5  bold, muted
//	6  italic, muted
//
// Without color every heading starts with its level's # markers, and the
// first two keep their rules.
func (l *layouter) heading(h *Heading, width int) []ansi.Line {
	lvl := min(max(h.Level, 1), 6)
	st := l.st.Headings[lvl-1]
	mark := l.headingMark(lvl, st)
	marked := mark.Text != "" && width-ansi.Width(mark.Text) >= minIndentWidth
	inner := width
	if marked {
		inner -= ansi.Width(mark.Text)
	}
	lines := l.paragraph(h.Content, st, inner)
	if len(lines) == 0 {
		return nil
	}
	if marked {
		lines = l.prefixLines(lines, width, mark, ansi.Span{Text: blank(ansi.Width(mark.Text))})
	}
	if lvl <= 2 {
		lines = append(lines, l.headingRule(lines, lvl))
	}
	l.recordHeading(h, lvl, len(lines))
	return lines
}

// headingMark is the marker a heading of level lvl starts with, if any:
// its # markers without color, the section mark at level 3.
func (l *layouter) headingMark(lvl int, st ansi.Style) ansi.Span {
	switch {
	case l.opt.Level == ansi.None:
		return ansi.Span{Text: headingMarks[lvl-1], Style: st}
	case lvl == 3:
		return ansi.Span{Text: sectionMark, Style: l.st.HeadingMark}
	}
	return ansi.Span{}
}

// headingRule is the rule under a heading of the first two levels, as
// wide as its text, which also marks it when there is no color.
func (l *layouter) headingRule(lines []ansi.Line, lvl int) ansi.Line {
	w := 0
	for _, ln := range lines {
		w = max(w, ln.Width())
	}
	if lvl == 2 {
		return ansi.Line{{Text: ruleCut(lightRules, 0, "─", w), Style: l.st.SubheadingRule}}
	}
	return ansi.Line{{Text: ruleCut(heavyRules, 0, "━", w), Style: l.st.HeadingRule}}
}

// recordHeading adds heading h, laid out on lines lines, to the page's
// headings (without its text when streaming).
func (l *layouter) recordHeading(h *Heading, lvl, lines int) {
	text := ""
	if !l.streaming {
		text = plainText(h.Content)
	}
	l.page.Headings = append(l.page.Headings, HeadingRef{
		ID:      BlockID(l.headings),
		Level:   lvl,
		Text:    text,
		Line:    0,
		EndLine: lines,
	})
	l.headings++
}

func (l *layouter) scriptBlock(s *ScriptBlock, width int) []ansi.Line {
	text := "⚙ " + s.Name
	if s.Label != "" {
		text += " · " + s.Label
	}
	var out []ansi.Line
	for _, part := range hardBreak(text, width) {
		out = append(out, ansi.Line{{Text: part, Style: l.st.Dim}})
	}
	return out
}

// prefixLines prepends first to the first line and rest to the others,
// which are width cells wide at most. An empty line gets the prefix with
// trailing spaces trimmed.
//
// A line it copies gets room for the prefixes the containers around it
// may still add (each takes two cells or more of the page's width), and
// a line with such room is prefixed in place: deep nesting would
// otherwise copy every line once per level.
func (l *layouter) prefixLines(lines []ansi.Line, width int, first, rest ansi.Span) []ansi.Line {
	room := min(max(l.opt.Width-width, 0)/2, maxIndentDepth)
	for i, ln := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if len(ln) == 0 {
			p.Text = strings.TrimRight(p.Text, " ")
			if p.Text == "" {
				continue
			}
		}
		if nl, ok := l.mem.prepend(ln, p); ok {
			lines[i] = nl
			continue
		}
		nl := l.mem.roomyLine(len(ln)+1, room)
		nl = append(nl, p)
		lines[i] = append(nl, ln...)
	}
	return lines
}

func (l *layouter) quote(q *Quote, width int) []ansi.Line {
	if l.depth >= maxIndentDepth || width-2 < minIndentWidth {
		l.depth++
		defer func() { l.depth-- }()
		return l.blocks(q.Blocks, width)
	}
	l.depth++
	inner := l.blocks(q.Blocks, width-2)
	l.depth--
	bar := ansi.Span{Text: "│ ", Style: l.st.Quote}
	return l.prefixLines(inner, width, bar, bar)
}

// bullets are the list marker glyphs by nesting depth, each followed by
// the space that separates it from the item.
var bullets = [...]string{"• ", "◦ ", "▪ ", "▫ "}

func (l *layouter) list(ls *List, width int) []ansi.Line {
	indent := l.depth < maxIndentDepth && width-2 >= minIndentWidth
	if !ls.Ordered {
		l.lists++
		defer func() { l.lists-- }()
	}
	l.depth++
	defer func() { l.depth-- }()
	numbers, ends := numbering(ls)
	out := l.mem.borrowLines()
	for i, it := range ls.Items {
		first, hang := l.itemHead(ls, it, i, numbers, ends)
		if !indent {
			hang = 0
		}
		m := l.mark()
		body := l.blocksSep(it.Blocks, width-hang, !ls.Tight)
		if len(out) > 0 && !ls.Tight {
			out = append(out, nil)
		}
		if len(body) == 0 {
			body = []ansi.Line{nil}
		}
		if indent {
			body = l.hangItem(body, first, hang, width)
		} else {
			// The marker takes a line of its own above the body.
			out = append(out, first)
		}
		l.shift(m, len(out))
		out = append(out, body...)
	}
	return l.mem.keepLines(out)
}

// numbering returns an ordered list's markers, written into one string
// and cut at ends, right-aligned to the widest number; "" for a bullet
// list.
func numbering(ls *List) (numbers string, ends []int) {
	if !ls.Ordered {
		return "", nil
	}
	last := ls.Start + len(ls.Items) - 1
	markW := max(len(strconv.Itoa(ls.Start)), len(strconv.Itoa(last))) + 1
	delim := ". "
	if ls.Delimiter == ')' {
		delim = ") "
	}
	return orderedMarkers(ls.Start, len(ls.Items), markW, delim)
}

// hangItem indents an item's body by hang cells and starts its first line
// with the item's marker, first.
func (l *layouter) hangItem(body []ansi.Line, first ansi.Line, hang, width int) []ansi.Line {
	pad := ansi.Span{Text: blank(hang)}
	body = l.prefixLines(body, width, pad, pad)
	nl := l.mem.line(len(body[0]) + len(first))
	nl = append(nl, first...)
	if len(body[0]) > 0 {
		nl = append(nl, body[0][1:]...)
	}
	body[0] = nl
	return body
}

// itemHead is the start of item i's first line, its marker (the item's
// number, sliced from numbers at ends, or the bullet of the list's depth)
// and any task box, and how many cells it takes.
func (l *layouter) itemHead(ls *List, it *ListItem, i int, numbers string, ends []int) (ansi.Line, int) {
	marker, markStyle := "", l.st.Accent
	if ls.Ordered {
		marker, markStyle = numbers[ends[i]:ends[i+1]], l.st.Muted
	} else {
		marker = bullets[(l.lists-1)%len(bullets)]
	}
	first := l.mem.line(3)
	first = append(first, ansi.Span{Text: marker, Style: markStyle})
	hang := ansi.Width(marker)
	if it.Task == nil {
		return first, hang
	}
	box, boxStyle := "[ ]", l.st.Muted
	if *it.Task {
		box, boxStyle = "[x]", l.st.Success
	}
	return append(first, ansi.Span{Text: box, Style: boxStyle}, ansi.Span{Text: " "}), hang + 4
}

// orderedMarkers writes the markers of count ordered items from start,
// each number right-aligned in width-1 cells and followed by delim, into
// one string; marker i is markers[ends[i]:ends[i+1]].
func orderedMarkers(start, count, width int, delim string) (markers string, ends []int) {
	var b strings.Builder
	b.Grow(count * (width - 1 + len(delim)))
	ends = make([]int, 1, count+1)
	var digits [20]byte
	for i := range count {
		n := strconv.AppendInt(digits[:0], int64(start+i), 10)
		b.WriteString(blank(width - len(n) - 1))
		b.Write(n)
		b.WriteString(delim)
		ends = append(ends, b.Len())
	}
	return b.String(), ends
}
