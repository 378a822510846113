package render

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/value"
)

// Width presets of the reserved `width` attribute (SPEC §7.4).
const (
	PresetNormal = "normal"
	PresetNarrow = "narrow"
	PresetWide   = "wide"
	PresetFull   = "full"
	PresetFit    = "fit"
)

// Context is what a component sees while it draws one directive. The
// reserved `width` and `align` attributes have already been taken out of
// Attrs and applied by the frame.
type Context struct {
	// Name is the directive name as the note wrote it.
	Name string
	// Form is the form the directive was written in.
	Form Form
	// Attrs are the directive's attributes without `width` and `align`;
	// an alias's preset attributes come first, so the note's win in Get.
	Attrs Attrs
	// Label is a leaf directive's `[...]` label or an inline directive's
	// text.
	Label []Inline
	// Blocks is a container's body.
	Blocks []Block
	// Width is the width in cells the component's lines must fit. For a
	// self-sizing component it is the full width available and the
	// component sizes its box with BoxWidth; for the others the frame has
	// already applied the width preset.
	Width int
	// Preset is the `width` preset ("" when absent, else one of the Preset
	// constants; unknown values read as "").
	Preset string
	// Align is the `align` attribute ("", "left", "center" or "right").
	Align string
	// Style is the surrounding inline style of an inline directive.
	Style ansi.Style

	l        *layouter
	children []childLayout
}

// childLayout remembers the child blocks a component laid out, so that
// the headings and focusables inside them can be placed on the page.
// Each line of the child's that one of them starts on carries an anchor:
// a span with no text whose target is first plus the anchor's index. The
// component moves the spans where it likes; placeChildren finds the
// anchors in its output and takes them out again.
type childLayout struct {
	from, to marks
	first    ansi.Target
	// at is the child's line each anchor is on; of names, for every
	// heading and then every focusable from on, the anchor of its line.
	at []int
	of []int32
}

// Attr returns the value of an attribute and whether it is present.
func (c *Context) Attr(key string) (string, bool) { return c.Attrs.Get(key) }

// Level is the color level the page will be encoded at.
func (c *Context) Level() ansi.Level { return c.l.opt.Level }

// Styles are the theme's drawing styles.
func (c *Context) Styles() *Styles { return &c.l.st }

// Values are the stored script values (nil when there are none).
func (c *Context) Values() value.Values { return c.l.opt.Values }

// Now is the clock the caller passed for relative dates.
func (c *Context) Now() time.Time { return c.l.opt.Now }

// Live is the viewer's interactive state, or nil for the static form
// (render, export, and the body of an inert container).
func (c *Context) Live() *LiveState {
	if live := c.l.opt.Live; live != stringMode {
		return live
	}
	return nil
}

// Registry is the registry the page is laid out with.
func (c *Context) Registry() *Registry { return c.l.reg }

// Diagnose reports a problem with the note on the page's diagnostics
// (printed to stderr by the CLI, shown in the viewer's pane).
func (c *Context) Diagnose(format string, a ...any) {
	c.l.diagnose(fmt.Sprintf(format, a...))
}

// LabelText returns the label's visible text without styles.
func (c *Context) LabelText() string { return plainText(c.Label) }

// Layout lays child blocks out at width, exactly as the page would,
// blank-line separated. Lay children out once, at their final width.
// Where a heading or focusable block starts, a line carries a span with
// no text (an anchor); keep the spans of a line together when placing it,
// and the page puts those headings and blocks where the line ends up.
func (c *Context) Layout(blocks []Block, width int) []ansi.Line {
	return c.layoutChildren(blocks, width, false)
}

// LayoutFit lays child blocks out like Layout, with the self-sizing
// components among them that set no width drawn at their natural width:
// the body of a fit wrapper.
func (c *Context) LayoutFit(blocks []Block, width int) []ansi.Line {
	return c.layoutChildren(blocks, width, true)
}

// ExactlyWide reports whether lines, which Layout returned for width,
// are the lines of the box drawn last (a card, a dashed box), as it
// returned them, each exactly width cells wide: a frame drawn around them
// need not measure them. Boxes nested n deep would otherwise measure each
// line n times.
func (c *Context) ExactlyWide(lines []ansi.Line, width int) bool {
	return c.l.takeBoxed(lines, width)
}

// BoxLines returns the lines of a box drawn around body, which Layout
// returned: head lines for the box to fill above body's lines, then
// body's lines, then one line for its bottom edge. When exact (what
// ExactlyWide said of body) the box may take body's own storage over,
// moving its lines down in place, so that boxes nested n deep move their
// lines n times rather than allocate and copy them n times.
func (c *Context) BoxLines(body []ansi.Line, exact bool, head int) []ansi.Line {
	return c.l.boxRoom(body, exact, head)
}

// SetExactlyWide records that lines, which the component is about to
// return, are each exactly width cells wide (see ExactlyWide).
func (c *Context) SetExactlyWide(lines []ansi.Line, width int) {
	c.l.boxed, c.l.boxedWidth = lines, width
}

func (c *Context) layoutChildren(blocks []Block, width int, fit bool) []ansi.Line {
	saved := c.l.fitChildren
	c.l.fitChildren = fit
	defer func() { c.l.fitChildren = saved }()
	from := c.l.mark()
	c.l.depth++
	lines := c.l.blocks(blocks, max(width, 1))
	c.l.depth--
	if ch, ok := c.l.anchorChild(lines, from); ok {
		c.children = append(c.children, ch)
	}
	return lines
}

// anchorChild puts an anchor on each line of a component's child lines
// where one of the headings or focusables recorded since from starts (on
// the first line that is not blank when it starts on a blank one). It
// reports false when there is nothing to place. A streamed page keeps no
// headings or focusables, so its lines get no anchors.
func (l *layouter) anchorChild(lines []ansi.Line, from marks) (childLayout, bool) {
	to := l.mark()
	if to == from || l.streaming {
		return childLayout{}, false
	}
	ch := childLayout{from: from, to: to, of: make([]int32, 0, to.h-from.h+to.f-from.f)}
	for _, h := range l.page.Headings[from.h:to.h] {
		l.anchorAt(&ch, lines, h.Line, h.EndLine)
	}
	for _, f := range l.page.Focusables[from.f:to.f] {
		l.anchorAt(&ch, lines, f.Line, f.EndLine)
	}
	return ch, true
}

// anchorAt records in ch the anchor of a heading or focusable on lines
// [line, end) of lines: on its first line that is not blank, a new anchor
// unless the last one is on that line already.
func (l *layouter) anchorAt(ch *childLayout, lines []ansi.Line, line, end int) {
	for line < len(lines)-1 && line < end-1 && len(lines[line]) == 0 {
		line++
	}
	k := len(ch.at) - 1
	if k < 0 || ch.at[k] != line {
		l.newAnchor(ch, lines, line)
		k++
	}
	ch.of = append(ch.of, int32(k))
}

// newAnchor puts a new anchor at the start of line of lines (when the line
// is there) and records it in ch.
func (l *layouter) newAnchor(ch *childLayout, lines []ansi.Line, line int) {
	t := l.newTarget("")
	if len(ch.at) == 0 {
		ch.first = t
	}
	ch.at = append(ch.at, line)
	if line >= 0 && line < len(lines) {
		ln := lines[line]
		nl := l.mem.line(len(ln) + 1)
		nl = append(nl, ansi.Span{Target: t})
		lines[line] = append(nl, ln...)
	}
}

// Inline draws inline content as spans on one line (hard breaks become
// spaces), in the surrounding style.
func (c *Context) Inline(content []Inline) []ansi.Span {
	return runsToSpans(c.l.flatten(nil, content, c.Style, ""))
}

// Wrap draws inline content wrapped at width in base style.
func (c *Context) Wrap(content []Inline, base ansi.Style, width int) []ansi.Line {
	return c.l.paragraph(content, base, width)
}

// WrapSpans wraps spans at width the way paragraphs are wrapped.
func (c *Context) WrapSpans(spans []ansi.Span, width int) []ansi.Line {
	return wrapRuns(spansToRuns(nil, spans, ansi.Style{}, 0), width, nil)
}

// BoxWidth is the box width a self-sizing component should use given its
// natural width (the width it needs to show everything on one line):
// narrow is max(20, round(width/2)), fit the natural width, the others the
// whole width; never more than Width nor less than 1.
func (c *Context) BoxWidth(natural int) int {
	return presetWidth(c.Preset, c.Width, natural)
}

func presetWidth(preset string, width, natural int) int {
	w := width
	switch preset {
	case PresetNarrow:
		w = max(20, int(math.Round(float64(width)/2)))
	case PresetFit:
		w = natural
	}
	return max(1, min(w, width))
}

// NextID returns the next BlockID for a focusable block of kind, counted
// in document order.
func (c *Context) NextID(kind FocusKind) BlockID {
	if c.l.ids == nil {
		c.l.ids = map[FocusKind]int{}
	}
	id := c.l.ids[kind]
	c.l.ids[kind] = id + 1
	return BlockID(id)
}

// NewTarget returns a target for spans the component draws. With a url,
// the spans that carry it are one link a viewer can focus and follow,
// wherever the page puts them; with "", they are a part of a focusable
// block named in Focusable.MarkTarget or TitleTarget.
func (c *Context) NewTarget(url string) ansi.Target { return c.l.newTarget(url) }

// AddFocusable records a focusable block; its Line and EndLine count from
// the first line the component returns.
func (c *Context) AddFocusable(f Focusable) {
	c.l.page.Focusables = append(c.l.page.Focusables, f)
}

// Nested returns the context a component would be given for d, a
// directive in its body that it draws itself (a row's cells): the same
// page, width and style, with d's own name, form, label, body and
// attributes, `width` and `align` taken out as the frame would.
func (c *Context) Nested(d *Directive) *Context {
	attrs, preset, align := reserved(d.Attrs)
	return &Context{Name: d.Name, Form: d.Form, Attrs: attrs, Label: d.Label, Blocks: d.Blocks,
		Width: c.Width, Preset: preset, Align: align, Style: c.Style, l: c.l}
}

// stringMode is the Live state children of string-mode containers
// (callout, text-aligned card and row, standalone cell) are laid out with:
// tabs and details inside them show their static form and are not
// focusable.
var stringMode = &LiveState{Focus: -1}

// Inert reports whether the component is drawn inside a container whose
// body is static text (a card, a callout, a row cell laid out with
// LayoutInert): there an interactive component draws its static form and
// records no focusable block.
func (c *Context) Inert() bool { return c.l.opt.Live == stringMode }

// LayoutInert lays child blocks out like Layout, with every interactive
// component among them drawn in its static form: the body of a box whose
// lines are reframed or realigned, which a viewer could not focus into.
func (c *Context) LayoutInert(blocks []Block, width int) []ansi.Line {
	saved := c.l.opt.Live
	c.l.opt.Live = stringMode
	defer func() { c.l.opt.Live = saved }()
	return c.Layout(blocks, width)
}

// maxMeasureDepth is how many fit-width measurements may be in progress at
// once. With one, a fit box inside a box being measured counts as the
// whole width, and nested fit boxes cost a layout of their content per
// level instead of doubling it at every level.
const maxMeasureDepth = 1

// Measure returns the widest line of blocks laid out at width, forgetting
// everything that layout recorded and counted (the blocks are laid out
// again at their final width).
//
// Each nested measurement doubles the work below it, so a measurement
// inside maxMeasureDepth others reports the whole width instead.
func (c *Context) Measure(blocks []Block, width int) int {
	if c.l.measuring >= maxMeasureDepth {
		return width
	}
	c.l.measuring++
	defer func() { c.l.measuring-- }()
	m := c.l.mark()
	n := len(c.children)
	ids := make(map[FocusKind]int, len(c.l.ids))
	for k, v := range c.l.ids {
		ids[k] = v
	}
	headings := c.l.headings
	diags := len(c.l.page.Diagnostics)
	w := widest(c.LayoutInert(blocks, max(width, 1)))
	c.l.dropMarks(m)
	c.children = c.children[:n]
	c.l.ids = ids
	c.l.headings = headings
	c.l.page.Diagnostics = c.l.page.Diagnostics[:diags]
	return w
}

// Skip lays out blocks that the live form hides (a closed details body, an
// inactive tab panel) and throws the lines away, so the headings and
// focusable blocks inside still take their IDs and the IDs of everything
// after them do not depend on what is open. It returns the text the
// hidden blocks hold, for a search to find (Focusable.Hidden): their lines
// that are not blank, then the hidden text of the blocks hidden inside
// them.
func (c *Context) Skip(blocks []Block, width int) []string {
	m := c.l.mark()
	n := len(c.children)
	lines := c.Layout(blocks, max(width, 1))
	var text []string
	for _, ln := range lines {
		if t := ln.Text(); strings.TrimSpace(t) != "" {
			text = append(text, t)
		}
	}
	for _, f := range c.l.page.Focusables[m.f:] {
		for _, h := range f.Hidden {
			text = append(text, h.Lines...)
		}
	}
	c.l.dropMarks(m)
	c.children = c.children[:n]
	return text
}

// diagnose records one diagnostic line.
func (l *layouter) diagnose(msg string) {
	l.page.Diagnostics = append(l.page.Diagnostics, msg)
}

// reserved splits the reserved layout attributes off attrs.
func reserved(attrs Attrs) (rest Attrs, preset, align string) {
	rest = make(Attrs, 0, len(attrs))
	for _, a := range attrs {
		switch a.Key {
		case "width":
			preset = ""
			switch a.Value {
			case PresetNormal, PresetNarrow, PresetWide, PresetFull, PresetFit:
				preset = a.Value
			}
		case "align":
			align = ""
			switch a.Value {
			case "left", "center", "right":
				align = a.Value
			}
		default:
			rest = append(rest, a)
		}
	}
	return rest, preset, align
}

// maxComponentDepth is how deep block components nest before the frame
// stops drawing them: deeper directives show their label and body laid
// out plainly, so that pathological nesting stays linear in time and
// output (every frame copies its children's lines, and a fit-width box
// lays its children out twice).
const maxComponentDepth = 12

// directive lays out a leaf or container directive through the registry.
func (l *layouter) directive(d *Directive, width int) []ansi.Line {
	if l.components >= maxComponentDepth {
		return l.tooDeepDirective(d, width)
	}
	l.components++
	defer func() { l.components-- }()
	comp, presetAttrs, target, ok := l.reg.Lookup(d.Name)
	attrs, preset, align := reserved(withPreset(presetAttrs, d.Attrs))
	fit := l.fitChildren
	l.fitChildren = false
	defer func() { l.fitChildren = fit }()
	if !ok {
		return l.unknownBlock(target, d, attrs, width)
	}
	if fit && preset == "" && comp.SelfSizing {
		preset = PresetFit
	}
	ctx := &Context{Name: d.Name, Form: d.Form, Attrs: attrs, Label: d.Label, Blocks: d.Blocks,
		Preset: preset, Align: align, l: l}
	start := l.mark()
	lines, failed := l.drawComponent(comp, ctx, width)
	if failed {
		l.dropMarks(start)
		return l.failedBlock(d.Name, width)
	}
	l.placeChildren(ctx, lines)
	return alignLines(lines, align, width, comp.SelfSizing)
}

// tooDeepDirective lays out a directive nested past maxComponentDepth
// plainly, saying so once per page.
func (l *layouter) tooDeepDirective(d *Directive, width int) []ansi.Line {
	if !l.tooDeep {
		l.tooDeep = true
		l.diagnose(fmt.Sprintf("components nested more than %d deep are drawn without their frames", maxComponentDepth))
	}
	return l.plainDirective(d, width)
}

// withPreset is a directive's attributes after those its preset gives.
func withPreset(presetAttrs, attrs Attrs) Attrs {
	if len(presetAttrs) > 0 {
		return append(append(Attrs(nil), presetAttrs...), attrs...)
	}
	return attrs
}

// drawComponent calls a component at the width its form and ctx.Preset
// give; failed reports that it failed.
func (l *layouter) drawComponent(comp *Component, ctx *Context, width int) (lines []ansi.Line, failed bool) {
	switch {
	case comp.Form == FormInline:
		ctx.Width = width
		var spans []ansi.Span
		spans, failed = l.callInline(comp, ctx)
		if !failed {
			lines = wrapRuns(spansToRuns(nil, spans, ansi.Style{}, 0), width, nil)
		}
	case comp.SelfSizing:
		ctx.Width = width
		lines, failed = l.callBlock(comp, ctx)
	default:
		ctx.Width = presetWidth(ctx.Preset, width, width)
		// A fit block laid out at the full width is already as wide as
		// its widest line; alignment then places it.
		lines, failed = l.callBlock(comp, ctx)
	}
	return lines, failed
}

// plainDirective lays out a directive's label and body with no component.
func (l *layouter) plainDirective(d *Directive, width int) []ansi.Line {
	var out []ansi.Line
	if len(d.Label) > 0 {
		out = l.paragraph(d.Label, ansi.Style{}, width)
	}
	m := l.mark()
	l.depth++
	body := l.blocks(d.Blocks, width)
	l.depth--
	if len(out) > 0 && len(body) > 0 {
		out = append(out, nil)
	}
	if len(out) == 0 {
		// No label: the body as it is, not a copy, so that directives
		// nested many deep take linear time.
		return body
	}
	l.shift(m, len(out))
	return append(out, body...)
}

// callBlock runs a block component, turning a panic into failed.
func (l *layouter) callBlock(comp *Component, ctx *Context) (lines []ansi.Line, failed bool) {
	defer func() {
		if r := recover(); r != nil {
			lines, failed = nil, true
			l.diagnose(fmt.Sprintf("component `%s` failed to render: %v", ctx.Name, r))
		}
	}()
	if comp.Block == nil {
		return l.blocks(ctx.Blocks, ctx.Width), false
	}
	return comp.Block(ctx), false
}

// callInline runs an inline component, turning a panic into failed.
func (l *layouter) callInline(comp *Component, ctx *Context) (spans []ansi.Span, failed bool) {
	defer func() {
		if r := recover(); r != nil {
			spans, failed = nil, true
			l.diagnose(fmt.Sprintf("component `%s` failed to render: %v", ctx.Name, r))
		}
	}()
	return comp.Inline(ctx), false
}

// dropMarks forgets headings and focusables recorded since m.
func (l *layouter) dropMarks(m marks) {
	l.page.Headings = l.page.Headings[:m.h]
	l.page.Focusables = l.page.Focusables[:m.f]
}

// placeChildren moves the headings and focusables of the child blocks a
// component laid out to where the component put their lines, which the
// anchors on those lines say, and takes the anchors out of out. Those
// whose anchor is not in the output (a child the component did not draw)
// are dropped.
func (l *layouter) placeChildren(ctx *Context, out []ansi.Line) {
	if len(ctx.children) == 0 {
		return
	}
	a := newChildAnchors(ctx.children)
	for j, ln := range out {
		out[j] = a.strip(ln, j, &l.mem)
	}
	const dropped = math.MinInt
	hs, fs := l.page.Headings, l.page.Focusables
	for i, ch := range ctx.children {
		nh := ch.to.h - ch.from.h
		for j, k := range ch.of {
			if j < nh {
				h := &hs[ch.from.h+j]
				a.move(i, k, &h.Line, &h.EndLine, dropped)
			} else {
				f := &fs[ch.from.f+j-nh]
				a.move(i, k, &f.Line, &f.EndLine, dropped)
			}
		}
	}
	first := ctx.children[0].from
	kh := slices.DeleteFunc(hs[first.h:], func(h HeadingRef) bool { return h.Line == dropped })
	l.page.Headings = hs[:first.h+len(kh)]
	kf := slices.DeleteFunc(fs[first.f:], func(f Focusable) bool { return f.Line == dropped })
	l.page.Focusables = fs[:first.f+len(kf)]
}

// childAnchors finds the anchors of a component's children in its output.
type childAnchors struct {
	children []childLayout
	// found holds, for every child's anchors in turn (child i's from
	// base[i]), the output line it is on, or -1.
	base  []int
	found []int
}

func newChildAnchors(children []childLayout) *childAnchors {
	base := make([]int, len(children)+1)
	for i, ch := range children {
		base[i+1] = base[i] + len(ch.at)
	}
	found := make([]int, base[len(children)])
	for i := range found {
		found[i] = -1
	}
	return &childAnchors{children: children, base: base, found: found}
}

// index is where in found an anchor span's place goes, or -1 for a span
// that is not one of the children's anchors.
func (a *childAnchors) index(s ansi.Span) int {
	if s.Text != "" || s.Image != nil || s.Target == 0 {
		return -1
	}
	for i, ch := range a.children {
		if k := int(s.Target - ch.first); s.Target >= ch.first && k < len(ch.at) {
			return a.base[i] + k
		}
	}
	return -1
}

// strip records where output line j's anchors are and returns the line
// without them: copied, not changed, since it may be shared.
func (a *childAnchors) strip(ln ansi.Line, j int, mem *arena) ansi.Line {
	anchors := 0
	for _, s := range ln {
		if x := a.index(s); x >= 0 {
			if a.found[x] < 0 {
				a.found[x] = j
			}
			anchors++
		}
	}
	if anchors == 0 {
		return ln
	}
	nl := mem.line(len(ln) - anchors)
	for _, s := range ln {
		if a.index(s) < 0 {
			nl = append(nl, s)
		}
	}
	return nl
}

// move shifts a heading's or focusable's lines by how far child i's
// anchor k moved, or marks it dropped when the anchor is gone.
func (a *childAnchors) move(i int, k int32, line, end *int, dropped int) {
	at := a.found[a.base[i]+int(k)]
	if at < 0 {
		*line = dropped
		return
	}
	delta := at - a.children[i].at[k]
	*line += delta
	*end += delta
}

// alignLines pads lines to align within width. A box (self-sizing
// component) moves as one block so that its frame stays straight; other
// blocks pad every line on its own.
func alignLines(lines []ansi.Line, align string, width int, asBlock bool) []ansi.Line {
	if align != "center" && align != "right" {
		return lines
	}
	blockW := 0
	if asBlock {
		for _, ln := range lines {
			blockW = max(blockW, ln.Width())
		}
	}
	for i, ln := range lines {
		if len(ln) == 0 {
			continue
		}
		w := blockW
		if !asBlock {
			w = ln.Width()
		}
		pad := width - w
		if pad <= 0 {
			continue
		}
		if align == "center" {
			pad /= 2
		}
		nl := make(ansi.Line, 0, len(ln)+1)
		nl = append(nl, ansi.Span{Text: blank(pad)})
		lines[i] = append(nl, ln...)
	}
	return lines
}

// inlineDirective draws an inline directive through the registry.
func (l *layouter) inlineDirective(dst []run, d *InlineDirective, st ansi.Style, link string) []run {
	comp, presetAttrs, target, ok := l.reg.Lookup(d.Name)
	if (!ok || comp.Form != FormInline) && staysText(d) {
		return append(dst, run{text: ":" + d.Name, style: st, link: link, target: l.inLink})
	}
	if !ok {
		l.diagnose(unknownLabel(target, l.opt.Packs))
		return l.inlineFallback(dst, d.Content, st, link)
	}
	if comp.Form != FormInline {
		l.diagnose("block component `" + d.Name + "` written inline")
		return l.inlineFallback(dst, d.Content, st, link)
	}
	attrs, preset, align := reserved(withPreset(presetAttrs, d.Attrs))
	ctx := &Context{Name: d.Name, Form: FormInline, Attrs: attrs, Label: d.Content,
		Width: l.opt.Width, Preset: preset, Align: align, Style: st, l: l}
	spans, failed := l.callInline(comp, ctx)
	if failed {
		return append(dst, run{text: "component `" + d.Name + "` failed to render", style: Over(st, l.st.Dim)})
	}
	dst = spansToRuns(dst, spans, st, l.inLink)
	// `:value[]` already draws its own empty state (`{value}`, SPEC §7.4);
	// the hint is for components whose text went missing.
	if plainText(d.Content) == "" && comp.Name != "value" {
		l.diagnose("`" + d.Name + "` has no content (an attribute may have been used where directive text was expected)")
	}
	return dst
}
