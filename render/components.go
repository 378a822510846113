package render

import (
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/valuefmt"
	"github.com/markii/markii/sanitize"
	"github.com/rivo/uniseg"
)

// This file holds what the standard components share: attribute reading
// with the ignored-value markers of SPEC §7.6, data binding, text
// alignment and frame helpers. Each component lives in a components_*.go
// file, listed by that file's table function (boxComponents and so on),
// which standardComponents gathers when a registry is first needed.

// kit is a component's view of its directive while it draws: attribute
// readers that remember which values were ignored, so the component can
// show the `[name: attribute ignored]` markers.
type kit struct {
	c       *Context
	st      *Styles
	ignored []string
}

func newKit(c *Context) *kit { return &kit{c: c, st: c.Styles()} }

// attr returns an attribute's value; a bare key (`{open}`) reads as absent
// here, like the reference's null.
func (k *kit) attr(key string) (string, bool) {
	for i := len(k.c.Attrs) - 1; i >= 0; i-- {
		a := k.c.Attrs[i]
		if a.Key == key {
			if a.Bare {
				return "", false
			}
			return a.Value, true
		}
	}
	return "", false
}

// str returns an attribute's value or def when absent.
func (k *kit) str(key, def string) string {
	if v, ok := k.attr(key); ok {
		return v
	}
	return def
}

// flag reports whether a bare attribute (or any spelling of it) is present.
func (k *kit) flag(key string) bool {
	_, ok := k.c.Attrs.Get(key)
	return ok
}

// enum reads a closed-set attribute. A value outside allowed falls back to
// def, is remembered for the marker and is reported as a diagnostic.
func (k *kit) enum(key, def string, allowed ...string) string {
	v, ok := k.attr(key)
	if !ok {
		return def
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	k.ignored = append(k.ignored, key)
	k.c.Diagnose("%s: \"%s\" is not a valid %s value (ignored)", k.c.Name, v, key)
	return def
}

// textAlign reads the `text` attribute (left, center, right).
func (k *kit) textAlign() string { return k.enum("text", "left", "left", "center", "right") }

// format reads the `format` attribute; an unknown name formats as plain
// and leaves a marker.
func (k *kit) format() string {
	return k.enum("format", valuefmt.Plain, valuefmt.Plain, valuefmt.Number, valuefmt.Compact,
		valuefmt.Percent, valuefmt.Date, valuefmt.Relative)
}

// markerText is the dim marker for every ignored attribute.
func (k *kit) markerText() string {
	parts := make([]string, len(k.ignored))
	for i, a := range k.ignored {
		parts[i] = "[" + k.c.Name + ": " + a + " ignored]"
	}
	return strings.Join(parts, " ")
}

// withMarkers appends the ignored-attribute marker line to a block's lines.
func (k *kit) withMarkers(lines []ansi.Line, width int) []ansi.Line {
	if len(k.ignored) == 0 {
		return lines
	}
	return append(lines, k.c.WrapSpans([]ansi.Span{{Text: k.markerText(), Style: k.st.Dim}}, width)...)
}

// inlineMarkers appends the marker to an inline component's spans.
func (k *kit) inlineMarkers(spans []ansi.Span) []ansi.Span {
	if len(k.ignored) == 0 {
		return spans
	}
	return append(spans, ansi.Span{Text: " " + k.markerText(), Style: Over(k.c.Style, k.st.Dim)})
}

// bound resolves the `data` attribute. ok is false when the directive has
// no `data` attribute.
func (k *kit) bound() (Resolved, bool) {
	path, ok := k.attr("data")
	if !ok {
		return Resolved{}, false
	}
	return NewValueReader(k.c.Values()).Resolve(path), true
}

// text returns a value as display text: formatted, and made inert by the
// inline sanitizer (values are data, never markup).
func (k *kit) text(v any, format, decimals string) string {
	return sanitize.Inline(valuefmt.Format(v, format, decimals, k.c.Now()))
}

// stringMode is the Live state children of string-mode containers
// (callout, text-aligned card and row, standalone cell) are laid out with:
// tabs and details inside them show their static form and are not
// focusable.
var stringMode = &LiveState{Focus: -1}

// inert reports whether the component is being drawn inside a string-mode
// container.
func (c *Context) inert() bool { return c.l.opt.Live == stringMode }

// layoutInert lays child blocks out in string mode.
func (c *Context) layoutInert(blocks []Block, width int) []ansi.Line {
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

// measure returns the widest line of blocks laid out at width, forgetting
// everything that layout recorded and counted (the blocks are laid out
// again at their final width).
//
// Each nested measurement doubles the work below it, so a measurement
// inside maxMeasureDepth others reports the whole width instead.
func (c *Context) measure(blocks []Block, width int) int {
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
	w := widest(c.layoutInert(blocks, max(width, 1)))
	c.l.dropMarks(m)
	c.children = c.children[:n]
	c.l.ids = ids
	c.l.headings = headings
	c.l.page.Diagnostics = c.l.page.Diagnostics[:diags]
	return w
}

// skip lays out blocks that the live form hides (a closed details body, an
// inactive tab panel) and throws the lines away, so the headings and
// focusable blocks inside still take their IDs and the IDs of everything
// after them do not depend on what is open. It returns the text the
// hidden blocks hold, for a search to find: their lines that are not
// blank, then the hidden text of the blocks hidden inside them.
func (c *Context) skip(blocks []Block, width int) []string {
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

// live returns the viewer's state for interactive forms, or nil for the
// static form.
func (c *Context) live() *LiveState {
	if live := c.Live(); live != stringMode {
		return live
	}
	return nil
}

// padLeft returns line with n spaces in front.
func padLeft(line ansi.Line, n int) ansi.Line {
	if n <= 0 || len(line) == 0 {
		return line
	}
	out := make(ansi.Line, 0, len(line)+1)
	out = append(out, ansi.Span{Text: blank(n)})
	return append(out, line...)
}

// padRight returns line padded with spaces to width cells.
func padRight(line ansi.Line, width int) ansi.Line {
	w := line.Width()
	if w >= width {
		return line
	}
	return append(line[:len(line):len(line)], ansi.Span{Text: blank(width - w)})
}

// alignText pads every line to text alignment within width (each line on
// its own).
func alignText(lines []ansi.Line, text string, width int) []ansi.Line {
	if text != "center" && text != "right" {
		return lines
	}
	for i, ln := range lines {
		pad := width - ln.Width()
		if text == "center" {
			pad /= 2
		}
		lines[i] = padLeft(ln, pad)
	}
	return lines
}

// widest returns the display width of the widest line.
func widest(lines []ansi.Line) int {
	w := 0
	for _, ln := range lines {
		w = max(w, ln.Width())
	}
	return w
}

// truncate shortens s to at most width cells, ending in "…" when cut.
func truncate(s string, width int) string {
	if ansi.Width(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	w := 0
	state := -1
	rest := s
	for len(rest) > 0 {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if w+cw > width-1 {
			break
		}
		b.WriteString(cluster)
		w += cw
	}
	return b.String() + "…"
}

// line is a one-span line.
func line(text string, st ansi.Style) ansi.Line { return ansi.Line{{Text: text, Style: st}} }

// MissingPacks returns the packs a note's frontmatter `uses:` names for
// which reg has no component (a pack's components are named
// `pack_component`), in the order the note lists them.
func MissingPacks(doc *Document, reg *Registry) []string {
	return missingPacks(doc, reg, nil)
}

// missingPacks is MissingPacks that also counts the packs in installed
// (Options.Packs) as present.
func missingPacks(doc *Document, reg *Registry, installed map[string]string) []string {
	if doc == nil || doc.Frontmatter == nil {
		return nil
	}
	if reg == nil {
		reg = StandardRegistry()
	}
	var missing []string
	for _, pack := range doc.Frontmatter.Uses {
		_, present := installed[pack]
		for name := range reg.components {
			if present {
				break
			}
			present = strings.HasPrefix(name, pack+"_")
		}
		if !present && !containsString(missing, pack) {
			missing = append(missing, pack)
		}
	}
	return missing
}

// PackDiagnostic is the one diagnostic a render gives for packs the note
// uses that are not installed, or "" when there are none. Their
// components show as unknown-component boxes.
func PackDiagnostic(doc *Document, reg *Registry) string {
	return packDiagnostic(doc, reg, nil)
}

// packDiagnostic is PackDiagnostic that also counts the packs in installed
// (Options.Packs) as present.
func packDiagnostic(doc *Document, reg *Registry, installed map[string]string) string {
	missing := missingPacks(doc, reg, installed)
	if len(missing) == 0 {
		return ""
	}
	if len(missing) == 1 {
		return "this note uses pack " + missing[0] + ", which is not installed; its components show as unknown-component boxes"
	}
	return "this note uses packs " + strings.Join(missing, ", ") + ", which are not installed; their components show as unknown-component boxes"
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
