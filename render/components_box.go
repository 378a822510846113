package render

import (
	"slices"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/sanitize"
)

// boxComponents are the standard components drawn as boxes and sections.
func boxComponents() []Component {
	return []Component{
		{Name: "callout", Form: FormContainer, SelfSizing: true, Block: callout},
		{Name: "card", Form: FormContainer, SelfSizing: true, Block: card},
		{Name: "details", Form: FormContainer, Block: details},
		{Name: "tabs", Form: FormContainer, Block: tabs},
		{Name: "tab", Form: FormContainer, Block: tab},
		{Name: "figure", Form: FormContainer, Block: figure},
	}
}

// CalloutTypes are the values of a callout's `type`, the first the
// default.
var CalloutTypes = []string{"info", "success", "accent", "warning", "danger"}

// calloutHeads are the icon and name of each callout type, in the order
// of CalloutTypes: an array the linker lays out, so that no map is built
// when a process starts.
var calloutHeads = [...][2]string{
	{"ℹ", "Info"},
	{"✓", "Success"},
	{"★", "Important"},
	{"▲", "Warning"},
	{"✕", "Danger"},
}

// CalloutHead is the icon and label of a callout type, as the terminal
// and the HTML export show it; a type that is not one of CalloutTypes is
// info. A non-empty label (the directive's `[label]`, or an alert's name)
// replaces the type's.
func CalloutHead(kind, label string) string {
	h := calloutHeads[0]
	for i, t := range CalloutTypes {
		if t == kind {
			h = calloutHeads[i]
			break
		}
	}
	if label != "" {
		h[1] = label
	}
	return h[0] + " " + h[1]
}

// tone is the style of a component's color name (a callout's type, a
// badge's variant), or def for a name without one.
func (st *Styles) tone(name string, def ansi.Style) ansi.Style {
	switch name {
	case "info":
		return st.Info
	case "success":
		return st.Success
	case "accent":
		return st.Accent
	case "warning":
		return st.Warning
	case "danger":
		return st.Danger
	}
	return def
}

// callout draws a colored aside: every line starts with a bar in the type's
// color, then the icon and label, an optional bold title and the body at
// the box width minus the bar. Its children are laid out in string mode.
// A fit callout is as wide as the bar plus its widest line (header, title
// or body), so a short body is not broken up.
func callout(c *Context) []ansi.Line {
	k := newKit(c)
	kind := k.enum("type", CalloutTypes[0], CalloutTypes...)
	align := k.textAlign()
	title, _ := k.attr("title")
	tone := k.st.tone(kind, k.st.Info)
	head := CalloutHead(kind, strings.TrimSpace(c.LabelText()))
	natural := 0
	if c.Preset == PresetFit {
		natural = 2 + max(ansi.Width(head), ansi.Width(title), c.Measure(c.Blocks, max(c.Width-2, 1)))
	}
	box := c.BoxWidth(natural)
	inner := max(box-2, 1)
	if box < 3 {
		// No room for the bar beside a cell of text: the body alone.
		inner = box
	}

	var body []ansi.Line
	body = append(body, line(truncate(head, inner), Over(tone, ansi.Style{Bold: true})))
	if title != "" {
		body = append(body, c.WrapSpans([]ansi.Span{{Text: title, Style: ansi.Style{Bold: true}}}, inner)...)
	}
	body = append(body, alignText(c.LayoutInert(c.Blocks, inner), align, inner)...)
	body = k.withMarkers(body, inner)
	if box < 3 {
		return body
	}
	for i, ln := range body {
		body[i] = barLine(ln, tone)
	}
	return body
}

// calloutBars are the bars of callouts nested maxJoinedFrames deep, cut
// from one string as the dashed frames are (see leftFrames).
const calloutBars = "▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ ▌ "

// barLine puts a callout's bar in front of ln, a line the callout owns.
// A line of a callout of the same tone inside it starts with that
// callout's bar, which the new bar joins in place, cut from calloutBars:
// callouts nested deep then neither copy nor reallocate their lines at
// every level. An empty line gets the bar alone.
func barLine(ln ansi.Line, tone ansi.Style) ansi.Line {
	if len(ln) == 0 {
		return ansi.Line{{Text: "▌", Style: tone}}
	}
	if plainSpan(ln[0], tone) && strings.HasPrefix(calloutBars, ln[0].Text) {
		ln[0].Text = joinFrame(calloutBars, "▌ ", ln[0].Text, true)
		return ln
	}
	out := make(ansi.Line, 0, len(ln)+1)
	out = append(out, ansi.Span{Text: "▌ ", Style: tone})
	return append(out, ln...)
}

// framePad is the blank column inside each edge of a card, so its text
// never touches the frame. A card narrower than minPaddedText cells of
// text (deep nesting, a narrow terminal) keeps those cells for its text,
// unless it is fit to its content, whose width counts the padding.
const (
	framePad      = 1
	minPaddedText = 8
)

// card draws a framed panel with the title woven into the top edge. The
// body is laid out once at the inner width (box - 2) less a column of
// padding inside each edge (see framePad); text=center|right pads each body line and lays the body
// out in string mode.
func card(c *Context) []ansi.Line {
	k := newKit(c)
	align := k.textAlign()
	title, _ := k.attr("title")
	natural := 40
	if title != "" {
		natural = ansi.Width(title) + 6 + 2*framePad
	}
	box := c.BoxWidth(natural)
	if box < 3 {
		return cardTooNarrow(c, k, align)
	}
	inner := box - 2
	pad := 0
	if inner-2*framePad >= minPaddedText || (c.Preset == PresetFit && inner > 2*framePad) {
		pad = framePad
	}
	text := inner - 2*pad
	var body []ansi.Line
	if align == "left" {
		body = c.Layout(c.Blocks, text)
	} else {
		body = alignText(c.LayoutInert(c.Blocks, text), align, text)
	}
	// A body that is one box drawn at the text width (a card in a card)
	// has lines exactly that wide: they are not measured again.
	exact := c.ExactlyWide(body, text)
	fits := true
	out := c.BoxLines(body, exact, 1)
	out[0] = frameTop(title, box, k.st)
	for i := 1; i <= len(body); i++ {
		w := text
		if !exact {
			w = framedWidth(out[i])
		}
		fits = fits && w <= text
		out[i] = frameRow(out[i], w, inner, pad, k.st.Frame, "│")
	}
	out[len(out)-1] = line("└"+strings.Repeat("─", inner)+"┘", k.st.Frame)
	if fits {
		c.SetExactlyWide(out, box)
	}
	return k.withMarkers(out, c.Width)
}

// cardTooNarrow draws a card too narrow for a frame around a cell of
// text: the body alone, at the width there is.
func cardTooNarrow(c *Context, k *kit, align string) []ansi.Line {
	w := max(c.Width, 1)
	return k.withMarkers(alignText(c.LayoutInert(c.Blocks, w), align, w), w)
}

// frameTop is the top edge of a solid frame box cells wide, with the title
// woven in as `┌─ Title ───┐` (shortened with "…" when it does not fit).
func frameTop(title string, box int, st *Styles) ansi.Line {
	inner := box - 2
	if title == "" || inner < 5 {
		return line("┌"+strings.Repeat("─", inner)+"┐", st.Frame)
	}
	t := truncate(title, inner-4)
	fill := inner - 3 - ansi.Width(t)
	return ansi.Line{
		{Text: "┌─ ", Style: st.Frame},
		{Text: t, Style: ansi.Style{Bold: true}},
		{Text: " " + strings.Repeat("─", fill) + "┐", Style: st.Frame},
	}
}

// frameRow is one body line of a frame: edge, pad blank cells, the line
// (w cells wide), blank up to inner cells, edge.
func frameRow(ln ansi.Line, w, inner, pad int, frame ansi.Style, edge string) ansi.Line {
	rest := inner - pad - w
	if pad == 1 && edge == "│" {
		return paddedFrameRow(ln, rest, frame)
	}
	out := make(ansi.Line, 0, len(ln)+4)
	out = append(out, ansi.Span{Text: edge, Style: frame})
	if pad > 0 {
		out = append(out, ansi.Span{Text: blank(pad)})
	}
	out = append(out, ln...)
	if rest > 0 {
		out = append(out, ansi.Span{Text: blank(rest)})
	}
	return append(out, ansi.Span{Text: edge, Style: frame})
}

// paddedFrameRow is frameRow for a solid frame with one cell of padding,
// rest cells short of its right edge. The edge and its padding are one
// span (`│ `, ` │`, as the dashed frame's `┆ `; the frame style has no
// background, so the cell looks the same), which lets the frame of a
// card around it join it in place: cards nested n deep neither copy every
// line at every level nor grow it by n spans.
func paddedFrameRow(ln ansi.Line, rest int, frame ansi.Style) ansi.Line {
	n := len(ln)
	if rest == 1 && n > 1 && solidFrameCut(ln[0], frame, solidLeftFrames) && solidFrameCut(ln[n-1], frame, solidRightFrames) {
		ln[0].Text = joinFrame(solidLeftFrames, "│ ", ln[0].Text, true)
		ln[n-1].Text = joinFrame(solidRightFrames, " │", ln[n-1].Text, false)
		return ln
	}
	out := make(ansi.Line, 0, n+3)
	out = append(out, ansi.Span{Text: solidLeftFrames[:len("│ ")], Style: frame})
	out = append(out, ln...)
	if rest <= 0 {
		return append(out, ansi.Span{Text: "│", Style: frame})
	}
	if rest > 1 {
		out = append(out, ansi.Span{Text: blank(rest - 1)})
	}
	return append(out, ansi.Span{Text: solidRightFrames[:len(" │")], Style: frame})
}

// solidFrameCut reports whether sp is solid frame edges alone, in the
// frame's style: a cut of frames that a further edge can join.
func solidFrameCut(sp ansi.Span, frame ansi.Style, frames string) bool {
	return plainSpan(sp, frame) && len(sp.Text)+len("│ ") <= len(frames) && strings.HasPrefix(frames, sp.Text)
}

// solidLeftFrames and solidRightFrames are maxJoinedFrames edges of solid
// frames with their padding cell (constants, so that nothing is built
// when the package starts).
const (
	solidLeftFrames  = "│ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ "
	solidRightFrames = " │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │ │"
)

// focusPrefix is the live form's heading prefix: an accent `› ` on the
// focused block, two spaces on the others; its spans carry target, the
// block's Focusable.MarkTarget.
func focusPrefix(focused bool, st *Styles, target ansi.Target) ansi.Span {
	if focused {
		return ansi.Span{Text: "› ", Style: st.Accent, Target: target}
	}
	return ansi.Span{Text: "  ", Target: target}
}

// prefixed wraps spans at the width left after prefix and puts prefix in
// front of the first line (and as much blank in front of the others).
func prefixed(c *Context, prefix ansi.Span, spans []ansi.Span) []ansi.Line {
	pw := ansi.Width(prefix.Text)
	if c.Width <= pw {
		return c.WrapSpans(spans, c.Width)
	}
	lines := c.WrapSpans(spans, c.Width-pw)
	for i, ln := range lines {
		p := prefix
		if i > 0 {
			p = ansi.Span{Text: blank(pw)}
		}
		lines[i] = append(ansi.Line{p}, ln...)
	}
	return lines
}

// widgetID returns the BlockID of a tabs or details block. The two share
// one sequence, so LiveState.Focus names either unambiguously.
func widgetID(c *Context) BlockID { return c.NextID(FocusTabs) }

// details draws a collapsible section. Static: a dim `▸ Title (collapsible
// section, shown expanded)` line (`▾` when open) and the body indented 2.
// Live: `▸`/`▾` and the bold title, the body only while open.
func details(c *Context) []ansi.Line {
	k := newKit(c)
	title := k.str("title", "Details")
	if title == "" {
		title = "Details"
	}
	open := k.flag("open")
	id := BlockID(-1)
	if !c.Inert() {
		id = widgetID(c)
	}
	live := c.Live()
	if live == nil {
		return staticDetails(c, k, title, open, id)
	}
	if o, ok := live.Open[id]; ok {
		open = o
	}
	return liveDetails(c, k, title, open, live.Focus == id, id)
}

// staticDetails draws a details block expanded, saying it is collapsible.
func staticDetails(c *Context, k *kit, title string, open bool, id BlockID) []ansi.Line {
	glyph := "▸ "
	if open {
		glyph = "▾ "
	}
	head := []ansi.Span{
		{Text: glyph, Style: k.st.Dim},
		{Text: title, Style: Over(k.st.Dim, ansi.Style{Bold: true})},
		{Text: " (collapsible section, shown expanded)", Style: k.st.Dim},
	}
	out := indentedBody(c, c.WrapSpans(head, c.Width), c.Blocks)
	if id >= 0 {
		c.AddFocusable(Focusable{ID: id, Kind: FocusDetails, Line: 0, EndLine: len(out), Label: title, Open: open})
	}
	return k.withMarkers(out, c.Width)
}

// liveDetails draws a details block in the viewer: its title after the
// focus marker, and its body when open.
func liveDetails(c *Context, k *kit, title string, open, focused bool, id BlockID) []ansi.Line {
	glyph := "▸ "
	hint := "  enter to open"
	if open {
		glyph, hint = "▾ ", "  enter to close"
	}
	var head []ansi.Span
	titleStyle, glyphStyle := Over(k.st.Dim, ansi.Style{Bold: true}), k.st.Dim
	if focused {
		titleStyle, glyphStyle = Over(k.st.Accent, ansi.Style{Bold: true}), k.st.Accent
	}
	mark, titled := c.NewTarget(""), c.NewTarget("")
	head = append(head, ansi.Span{Text: glyph, Style: glyphStyle}, ansi.Span{Text: title, Style: titleStyle, Target: titled})
	if focused {
		head = append(head, ansi.Span{Text: hint, Style: k.st.Dim})
	}
	out := prefixed(c, focusPrefix(focused, k.st, mark), head)
	var hidden []HiddenPanel
	if open {
		out = indentedBody(c, out, c.Blocks)
	} else {
		hidden = []HiddenPanel{{Lines: c.Skip(c.Blocks, max(c.Width-2, 1))}}
	}
	c.AddFocusable(Focusable{ID: id, Kind: FocusDetails, Line: 0, EndLine: len(out), Label: title, Open: open, MarkTarget: mark, TitleTarget: titled, Hidden: hidden})
	return k.withMarkers(out, c.Width)
}

// indentedBody appends blocks laid out two columns in, as the body of a
// details block or a live tab, to out.
func indentedBody(c *Context, out []ansi.Line, blocks []Block) []ansi.Line {
	body := c.Layout(blocks, max(c.Width-2, 1))
	out = slices.Grow(out, len(body))
	for _, ln := range body {
		out = append(out, padLeft(ln, 2))
	}
	return out
}

// panel is one tab of a tabs block.
type panel struct {
	label  string
	blocks []Block
}

// panels collects a tabs block's panels: each `tab` child is one; any other
// block becomes an unlabeled panel of its own so no content is lost.
func panels(blocks []Block) []panel {
	var ps []panel
	for _, b := range blocks {
		d, ok := b.(*Directive)
		if !ok || d.Name != "tab" || d.Form != FormContainer {
			if p, ok := b.(*Paragraph); ok && strings.TrimSpace(plainText(p.Content)) == "" {
				continue
			}
			ps = append(ps, panel{blocks: []Block{b}})
			continue
		}
		label := "Tab"
		for i := len(d.Attrs) - 1; i >= 0; i-- {
			if d.Attrs[i].Key == "label" && !d.Attrs[i].Bare {
				label = d.Attrs[i].Value
				break
			}
		}
		ps = append(ps, panel{label: label, blocks: d.Blocks})
	}
	return ps
}

// tabs draws a panel switcher. Static: every panel as a bold label (the
// first marked ` (active)`) over its body, a blank line between panels.
// Live: a header strip of labels, the active one bold and bracketed, then
// the active panel's body only, indented to the strip's first label.
func tabs(c *Context) []ansi.Line {
	k := newKit(c)
	ps := panels(c.Blocks)
	labels := make([]string, len(ps))
	for i, p := range ps {
		labels[i] = p.label
	}
	id := BlockID(-1)
	if !c.Inert() && len(ps) > 0 {
		id = widgetID(c)
	}
	live := c.Live()
	if live == nil {
		return staticTabs(c, k, ps, labels, id)
	}
	if len(ps) == 0 {
		return k.withMarkers(nil, c.Width)
	}
	active := live.ActiveTab[id]
	if active < 0 || active >= len(ps) {
		active = 0
	}
	focused := live.Focus == id
	mark, titled := c.NewTarget(""), c.NewTarget("")
	out := prefixed(c, focusPrefix(focused, k.st, mark), tabStrip(ps, active, focused, k.st, titled))
	// The panel starts under the strip's first label, past the focus
	// marker's two columns, as a details body does.
	var hidden []HiddenPanel
	for i, p := range ps {
		if i == active {
			out = indentedBody(c, out, p.blocks)
		} else {
			hidden = append(hidden, HiddenPanel{Panel: i, Lines: c.Skip(p.blocks, max(c.Width-2, 1))})
		}
	}
	c.AddFocusable(Focusable{ID: id, Kind: FocusTabs, Line: 0, EndLine: len(out), Label: ps[active].label, Panels: labels, MarkTarget: mark, TitleTarget: titled, Hidden: hidden})
	return k.withMarkers(out, c.Width)
}

// staticTabs draws every panel as a bold label (the first marked
// ` (active)`) over its body, a blank line between panels.
func staticTabs(c *Context, k *kit, ps []panel, labels []string, id BlockID) []ansi.Line {
	var out []ansi.Line
	for i, p := range ps {
		if i > 0 {
			out = append(out, nil)
		}
		if p.label != "" {
			head := []ansi.Span{{Text: p.label, Style: ansi.Style{Bold: true}}}
			if i == 0 {
				head = append(head, ansi.Span{Text: " (active)", Style: k.st.Dim})
			}
			out = append(out, c.WrapSpans(head, c.Width)...)
		}
		out = append(out, c.Layout(p.blocks, c.Width)...)
	}
	if id >= 0 {
		c.AddFocusable(Focusable{ID: id, Kind: FocusTabs, Line: 0, EndLine: len(out), Label: ps[0].label, Panels: labels})
	}
	return k.withMarkers(out, c.Width)
}

// tabStrip is the live header strip: the labels two cells apart, the
// active one bold, bracketed and the title target, accented when the
// block has the focus.
func tabStrip(ps []panel, active int, focused bool, st *Styles, titled ansi.Target) []ansi.Span {
	var head []ansi.Span
	for i, p := range ps {
		if i > 0 {
			head = append(head, ansi.Span{Text: "  "})
		}
		label := p.label
		if label == "" {
			label = "…"
		}
		if i != active {
			head = append(head, ansi.Span{Text: label, Style: st.Dim})
			continue
		}
		bold := ansi.Style{Bold: true}
		if focused {
			bold = Over(st.Accent, bold)
		}
		head = append(head, ansi.Span{Text: "[" + label + "]", Style: bold, Target: titled})
	}
	return head
}

// tab draws a panel outside tabs: its bold label over its body.
func tab(c *Context) []ansi.Line {
	k := newKit(c)
	label := k.str("label", "Tab")
	out := c.WrapSpans([]ansi.Span{{Text: label, Style: ansi.Style{Bold: true}}}, c.Width)
	return append(out, c.Layout(c.Blocks, c.Width)...)
}

// figure draws an image it never fetches: a dim `alt:` line, the source
// (nothing when the source is unsafe: the diagnostics say so), then the
// caption body. An empty src counts as none.
func figure(c *Context) []ansi.Line {
	k := newKit(c)
	src, hasSrc := k.attr("src")
	alt, _ := k.attr("alt")
	var out []ansi.Line
	if hasSrc {
		out = c.Picture(src)
	}
	if alt != "" {
		out = append(out, c.WrapSpans([]ansi.Span{{Text: "alt: " + alt, Style: k.st.Dim}}, c.Width)...)
	}
	if hasSrc && src != "" {
		if sanitize.SafeURL(src) {
			link, target := "", ansi.Target(0)
			if u := sanitize.URL(src); c.Level() != ansi.None && ansi.LinkAllowed(u) {
				link, target = u, c.NewTarget(u)
			}
			out = append(out, c.WrapSpans([]ansi.Span{{Text: sanitize.Visible(src), Style: k.st.Dim, Link: link, Target: target}}, c.Width)...)
		} else {
			// Said on the diagnostics, never on the page.
			c.Diagnose("figure: image source was refused as unsafe and was not shown")
		}
	}
	return append(out, c.Layout(c.Blocks, c.Width)...)
}
