package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/sanitize"
)

// This file holds the fallbacks of SPEC §2: what a directive looks like
// when no component answers to its name, when it is written in the wrong
// form, or when its component fails. Content is never lost.
//
// A pack cannot declare a terminal layout of its own for these boxes (a
// template naming which attribute is the title, the value, the caption):
// the box already shows every attribute, so nothing is hidden without one,
// and a template is a new manifest contract that the reference's packs do
// not have. When one is added it belongs in the pack manifest as data
// read from the user's installed packs, never from the note.

// unknownBlock draws a leaf or container directive nobody registered: a
// compact dim dashed box across the width holding its content (why it is
// not drawn goes to the page's diagnostics, never into the note):
// the label, the attributes (attrs, the reserved width and align already
// taken out) as `key: value` lines, and the body. A reader of a pack
// component markii cannot draw still gets its numbers, columns and
// questions, which packs usually keep in attributes.
func (l *layouter) unknownBlock(name string, d *Directive, attrs Attrs, width int) []ansi.Line {
	inner := max(width-4, 1)
	var content []ansi.Line
	if len(d.Label) > 0 {
		content = l.paragraph(d.Label, ansi.Style{}, inner)
	}
	if len(attrs) > 0 {
		if len(content) > 0 {
			content = append(content, nil)
		}
		content = l.attrLines(content, attrs, inner)
	}
	m := l.mark()
	fits := math.MaxInt
	if len(d.Blocks) > 0 {
		l.depth++
		body := l.blocks(d.Blocks, inner)
		l.depth--
		if len(content) > 0 && len(body) > 0 {
			content = append(content, nil)
		}
		l.shift(m, len(content))
		if l.takeBoxed(body, inner) {
			fits = len(content)
		}
		if content == nil {
			// The body's lines are this box's to frame: no copy.
			content = body
		} else {
			content = append(content, body...)
		}
	}
	l.diagnose(unknownLabel(name, l.opt.Packs))
	lines, at := l.dashedBox("", content, width, fits)
	l.shift(m, at)
	return lines
}

// maxFallbackAttrs is how many attributes a fallback box lists; the rest
// are counted. maxFallbackValue is the most cells of one value it shows.
const (
	maxFallbackAttrs = 24
	maxFallbackValue = 240
)

// attrLines appends attrs to dst as `key: value` lines (a bare key alone),
// wrapped to width: the key dim, the value as written. Keys and values
// were sanitized on their way into the tree; a value longer than
// maxFallbackValue cells is cut with "…", and attributes past
// maxFallbackAttrs are counted on a last line.
func (l *layouter) attrLines(dst []ansi.Line, attrs Attrs, width int) []ansi.Line {
	dim := l.st.Dim
	for i, a := range attrs {
		if i == maxFallbackAttrs {
			more := fmt.Sprintf("… %d more attributes", len(attrs)-i)
			return wrapRuns([]run{{text: more, style: dim}}, width, dst)
		}
		runs := []run{{text: a.Key, style: dim}}
		if !a.Bare {
			runs = append(runs, run{text: ":", style: dim}, run{text: " "}, run{text: truncate(a.Value, maxFallbackValue)})
		}
		dst = wrapRuns(runs, width, dst)
	}
	return dst
}

// unknownLabel names a component nobody registered. A pack component
// (`ana_timeline`) also names its pack: markii draws no pack components,
// so the reader learns where the box came from. When the pack is
// installed (named in packs with its engine), the label says why the
// component is not drawn.
func unknownLabel(name string, packs map[string]string) string {
	if pack, _, ok := strings.Cut(name, "_"); ok && isPackName(pack) {
		if engine, installed := packs[pack]; installed {
			return "component `" + name + "` from pack " + pack + " (engine " + sanitize.Inline(engine) + ") cannot be drawn in a terminal"
		}
		return "unknown component `" + name + "` from pack " + pack
	}
	return "unknown component `" + name + "`"
}

// isPackName reports whether s has the shape of a pack namespace:
// lowercase kebab-case starting with a letter.
func isPackName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || isASCIIDigit(c) || c == '-') {
			return false
		}
	}
	return true
}

// failedBlock draws a block directive whose component failed.
func (l *layouter) failedBlock(name string, width int) []ansi.Line {
	lines, _ := l.dashedBox("component `"+name+"` failed to render", nil, width, 0)
	return lines
}

// dashedBox draws a dim dashed frame of the full width around a title and,
// when there is any, a blank line and the content. Below five columns
// there is no room for a frame and the lines are drawn bare. at is the
// line the content starts on. The content from content[fits] on is known
// to fill the width inside the frame exactly (see takeBoxed).
func (l *layouter) dashedBox(title string, content []ansi.Line, width, fits int) (lines []ansi.Line, at int) {
	dim := l.st.Dim
	inner := width - 4
	var titleLines []ansi.Line
	if title != "" {
		titleLines = wrapRuns([]run{{text: title, style: dim}}, max(inner, 1), nil)
	}
	if inner < 1 {
		return bareBox(titleLines, content)
	}
	edge := strings.Repeat("╌", width-2)
	head := 1 + len(titleLines)
	if len(titleLines) > 0 && len(content) > 0 {
		head++ // a blank line between the title and the content
	}
	// Content that is only the box drawn last (fits == 0) is this box's
	// to take over.
	lines = l.boxRoom(content, fits == 0, head)
	lines[0] = ansi.Line{{Text: "┌" + edge + "┐", Style: dim}}
	side := dashedSides{inner: inner, dim: dim, exact: true}
	for i, t := range titleLines {
		lines[1+i] = side.frame(t, framedWidth(t))
	}
	if len(content) > 0 {
		if len(titleLines) > 0 {
			lines[head-1] = side.frame(nil, 0)
		}
		at = head
		for i := range content {
			w := inner
			if i < fits {
				w = framedWidth(lines[head+i])
			}
			lines[head+i] = side.frame(lines[head+i], w)
		}
	}
	lines[len(lines)-1] = ansi.Line{{Text: "└" + edge + "┘", Style: dim}}
	if side.exact {
		l.boxed, l.boxedWidth = lines, width
	}
	return lines, at
}

// boxRoom returns the lines of a box around body: head lines for the box
// to fill above body's lines, then body's lines, then one line for the
// bottom edge. When owned says body is the lines of the box drawn last,
// passed up unchanged (see takeBoxed), and it has room, body's own storage
// is used, its lines moved down in place; new storage keeps room for the
// boxes around this one to do the same. Boxes nested n deep then move
// their lines n times rather than allocate and copy them n times.
func (l *layouter) boxRoom(body []ansi.Line, owned bool, head int) []ansi.Line {
	n := len(body)
	size := head + n + 1
	if owned && cap(body) >= size {
		out := body[:size]
		copy(out[head:], body)
		return out
	}
	// The boxes around this one need two lines each, or more with a
	// title; one with less room than it needs allocates.
	spare := 4 * max(l.components-1, 0)
	out := make([]ansi.Line, size, size+spare)
	copy(out[head:], body)
	return out
}

// takeBoxed reports whether lines, laid out at width, are the lines of
// the dashed box drawn last, as it returned them, and each of them is
// exactly width cells wide: a box drawn around them then need not measure
// them. Boxes nested n deep would otherwise measure each line n times.
// Only a box's own lines passed up unchanged qualify: a container that
// adds to them (a quote, an indent) returns other lines, or lays the box
// out narrower than width.
func (l *layouter) takeBoxed(lines []ansi.Line, width int) bool {
	b := l.boxed
	l.boxed = nil
	return len(lines) > 0 && len(lines) == len(b) && &lines[0] == &b[0] && l.boxedWidth == width
}

// bareBox is a dashed box with no room for its frame: the title's lines,
// a blank line when there is content, and the content, which starts on
// line at.
func bareBox(titleLines, content []ansi.Line) (lines []ansi.Line, at int) {
	if len(content) > 0 {
		titleLines = append(titleLines, nil)
	}
	return append(titleLines, content...), len(titleLines)
}

// dashedSides draws the sides of a dashed box around lines inner columns
// wide.
//
// Boxes nested many deep frame each line once per level. A line of the
// box inside is framed in place, its frame joined to that box's frame
// (the encoder merges spans of one style anyway), and frames of up to
// maxJoinedFrames levels are cut from one string: this keeps nesting
// linear in time and memory. Other lines are cut from one backing array,
// slab.
type dashedSides struct {
	inner int
	dim   ansi.Style
	slab  []ansi.Span
	// exact says every line framed so far fit the inner width.
	exact bool
}

// frame returns ln, w cells wide, between the box's sides, padded to the
// inner width.
func (s *dashedSides) frame(ln ansi.Line, w int) ansi.Line {
	s.exact = s.exact && w <= s.inner
	pad := blank(s.inner - w)
	if n := len(ln); n > 1 && pad == "" && plainSpan(ln[0], s.dim) && plainSpan(ln[n-1], s.dim) {
		ln[0].Text = joinFrame(leftFrames, "┆ ", ln[0].Text, true)
		ln[n-1].Text = joinFrame(rightFrames, " ┆", ln[n-1].Text, false)
		return ln
	}
	if cap(s.slab)-len(s.slab) < len(ln)+3 {
		s.slab = make([]ansi.Span, 0, max(len(ln)+3, 512))
	}
	start := len(s.slab)
	s.slab = append(s.slab, ansi.Span{Text: "┆ ", Style: s.dim})
	s.slab = append(s.slab, ln...)
	if pad != "" {
		s.slab = append(s.slab, ansi.Span{Text: pad})
	}
	s.slab = append(s.slab, ansi.Span{Text: " ┆", Style: s.dim})
	return ansi.Line(s.slab[start:len(s.slab):len(s.slab)])
}

// maxJoinedFrames is how many levels of nested frames joinFrame cuts
// from one string.
const maxJoinedFrames = 64

// leftFrames and rightFrames are maxJoinedFrames edges of dashed frames
// (constants, so that nothing is built when the package starts).
const (
	leftFrames  = "┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ "
	rightFrames = " ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆ ┆"
)

// framedWidth is ln.Width(), with the frame edges and callout bars joined
// into its spans (cuts of leftFrames, rightFrames or calloutBars) and its
// blank padding measured by their length: a line inside boxes nested n
// deep may be measured once per level, and its frames are most of its
// text.
func framedWidth(ln ansi.Line) int {
	w := 0
	for _, sp := range ln {
		w += cutWidth(sp.Text)
	}
	return w
}

// cutWidth is ansi.Width(t), found without reading t when t is a cut of
// the frame edges or callout bars (two cells every four bytes) or of
// blanks.
func cutWidth(t string) int {
	switch {
	case len(t)%4 == 0 && isFrameCut(t):
		return len(t) / 2
	case strings.HasPrefix(spaces, t):
		return len(t)
	}
	return ansi.Width(t)
}

// isFrameCut reports whether t is a cut of the dashed or solid frame
// edges or of the callout bars, each two cells in four bytes.
func isFrameCut(t string) bool {
	for _, frames := range [...]string{leftFrames, rightFrames, solidLeftFrames, solidRightFrames, calloutBars} {
		if strings.HasPrefix(frames, t) {
			return true
		}
	}
	return false
}

// joinFrame returns text with one more frame edge (left before it, or
// right after it): a cut of frames when text is edges alone, else a new
// string.
func joinFrame(frames, edge, text string, left bool) string {
	if len(text)+len(edge) <= len(frames) && frames[:len(text)] == text {
		return frames[:len(text)+len(edge)]
	}
	if left {
		return edge + text
	}
	return text + edge
}

// plainSpan reports whether sp is text in style st with no link, image
// or target, so that text of st beside it can join it.
func plainSpan(sp ansi.Span, st ansi.Style) bool {
	return sp.Style == st && sp.Link == "" && sp.Image == nil && sp.Target == 0
}

// staysText reports whether d, an inline directive no component can
// draw inline, is text that happens to hold a colon rather than a
// directive: a bare `:name` with neither a label nor an attribute block,
// such as the emoticon `:D` or the route parameter in `GET /users/:name`.
// Nothing is lost by reading it as text, since a component needs a label
// or attributes to draw anything, while dropping it would cut the
// author's words. It is drawn as its source with no diagnostic; the
// listing still holds it as a directive, as the reference does.
func staysText(d *InlineDirective) bool {
	return d.Bare
}

// inlineFallback draws an inline directive that cannot be drawn by a
// component as its text, so the sentence still reads as written
// (`:dash_delta[+3%]` reads "+3%"); the reason is the caller's diagnostic,
// never part of the sentence.
func (l *layouter) inlineFallback(dst []run, content []Inline, st ansi.Style, link string) []run {
	return l.flatten(dst, content, st, link)
}
