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
// readers that report an ignored value on the page's diagnostics.
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

// withMarkers returns a block's lines as they are: an ignored attribute
// is reported on the page's diagnostics (see enum), never drawn into the
// note.
func (k *kit) withMarkers(lines []ansi.Line, width int) []ansi.Line { return lines }

// inlineMarkers returns an inline component's spans as they are (see
// withMarkers).
func (k *kit) inlineMarkers(spans []ansi.Span) []ansi.Span { return spans }

// bound resolves the `data` attribute. A directive without one gets the
// zero Resolved, which has no value (HasValue) and no Suffix.
func (k *kit) bound() Resolved {
	path, ok := k.attr("data")
	if !ok {
		return Resolved{}
	}
	return NewValueReader(k.c.Values()).Resolve(path)
}

// text returns a value as display text: formatted, and made inert by the
// inline sanitizer (values are data, never markup).
func (k *kit) text(v any, format, decimals string) string {
	return sanitize.Inline(valuefmt.Format(v, format, decimals, k.c.Now()))
}

// padLeft returns line with n spaces in front. A line that already starts
// with plain blanks gets them widened in place, so bodies indented inside
// indented bodies (details in details) are not copied at every level.
func padLeft(line ansi.Line, n int) ansi.Line {
	if n <= 0 || len(line) == 0 {
		return line
	}
	if first := line[0].Text; plainSpan(line[0], ansi.Style{}) && len(first)+n <= len(spaces) && spaces[:len(first)] == first {
		line[0].Text = spaces[:len(first)+n]
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
		w = max(w, framedWidth(ln))
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

// missingPacks returns the packs a note's frontmatter `uses:` names for
// which neither reg has a component (a pack's components are named
// `pack_component`) nor installed (Options.Packs) an entry, in the order
// the note lists them.
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

// packDiagnostic is the one diagnostic a render gives for packs the note
// uses that are not installed (missingPacks), or "" when there are none.
// Their components show as unknown-component boxes.
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
