package viewer

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
)

// chrome draws the viewer's own text (status bar, panes, dialog, the
// shown link address) at the level the caller chose. It is the one writer
// of that text: every method takes plain strings, whatever their origin
// (a file name, a path, a link target, a message, a diagnostic), and makes
// them inert with sanitize.Visible (invisible characters shown) before it measures, cuts and encodes
// them, so no caller can hand the terminal a control character.
type chrome struct {
	level ansi.Level
	st    render.Styles
	// match and current are the search highlight styles.
	match, current ansi.Style
	// linkFocus marks the focused link.
	linkFocus ansi.Style
	// graphemes says the terminal counts cells by grapheme cluster (it
	// declared mode 2027); else every text is drawn cell-safe (see
	// cellSafe).
	graphemes bool
	// joined says the terminal joins ZWJ sequences into one cell and
	// counts other code points one by one (tmux from 3.3; see
	// graphemes.go): each text is drawn as ansi.CellSafeJoined says.
	joined bool
}

func newChrome(level ansi.Level, t theme.Theme) *chrome {
	st := render.NewStyles(t)
	if level == ansi.None {
		// Without color the marks are the viewer's own attributes (see
		// noColorLine): reverse video for a match, underlined and bold
		// too for the current one.
		return &chrome{
			level:     level,
			st:        st,
			match:     ansi.Style{Inverse: true},
			current:   ansi.Style{Inverse: true, Underline: true, Bold: true},
			linkFocus: ansi.Style{Inverse: true, Underline: true},
		}
	}
	return &chrome{
		level:     level,
		st:        st,
		match:     ansi.Style{FG: render.ColorOf(t.CodeBG), BG: render.ColorOf(t.Warning)},
		current:   ansi.Style{FG: render.ColorOf(t.CodeBG), BG: render.ColorOf(t.Accent), Bold: true},
		linkFocus: ansi.Style{Inverse: true, Underline: true},
	}
}

// encode writes text that is already inert and cut to size in style st.
// Only the methods below call it.
func (c *chrome) encode(s string, st ansi.Style) string {
	return string(ansi.AppendLine(nil, c.cellSafe(ansi.Line{{Text: s, Style: st}}), c.level))
}

// cellSafe returns line as the terminal is to be sent it: as it is where
// the terminal counts cells by grapheme cluster, as bubbletea's renderer
// then does too; elsewhere with each cluster drawn so that a count by
// code point, the renderer's and the terminal's, gives it the cells the
// layout gave it (see ansi.CellSafe). A line that changes is copied.
func (c *chrome) cellSafe(line ansi.Line) ansi.Line {
	if c.graphemes {
		return line
	}
	safe := ansi.CellSafe
	if c.joined {
		safe = ansi.CellSafeJoined
	}
	out := line
	for i, s := range line {
		if t := safe(s.Text); t != s.Text {
			if &out[0] == &line[0] {
				out = append(ansi.Line(nil), line...)
			}
			out[i].Text = t
		}
	}
	return out
}

// line draws s in style st, cut to width cells.
func (c *chrome) line(s string, st ansi.Style, width int) string {
	return c.encode(fit(sanitize.Visible(s), width), st)
}

func (c *chrome) plain(s string, width int) string { return c.line(s, ansi.Style{}, width) }
func (c *chrome) title(s string, width int) string { return c.line(s, ansi.Style{Bold: true}, width) }
func (c *chrome) dim(s string, width int) string   { return c.line(s, c.st.Dim, width) }
func (c *chrome) selected(s string, width int) string {
	return c.line(s, ansi.Style{Inverse: true}, width)
}

// segment is a run of chrome text in one style.
type segment struct {
	text  string
	style ansi.Style
}

// row draws segments side by side, cut together to width cells.
func (c *chrome) row(segs []segment, width int) string {
	line := make(ansi.Line, 0, len(segs))
	left := width
	for _, s := range segs {
		t := sanitize.Visible(s.text)
		if w := ansi.Width(t); w > left {
			t = xansi.Truncate(t, max(left, 0), "…")
		}
		if t == "" {
			continue
		}
		left -= ansi.Width(t)
		line = append(line, ansi.Span{Text: t, Style: s.style})
		if left <= 0 {
			break
		}
	}
	return string(ansi.AppendLine(nil, c.cellSafe(line), c.level))
}

// wrapped draws s bold over at most limit rows of width cells.
func (c *chrome) wrapped(s string, width, limit int) []string {
	rows := hardWrap(sanitize.Visible(s), width, limit)
	for i, r := range rows {
		rows[i] = c.encode(r, ansi.Style{Bold: true})
	}
	return rows
}

// bar draws the status bar: left text, right text, padded to width.
func (c *chrome) bar(left, right string, width int) string {
	left, right = sanitize.Visible(left), sanitize.Visible(right)
	right = fit(right, width)
	gap := width - ansi.Width(right)
	left = fit(left, max(gap-1, 0))
	pad := max(width-ansi.Width(left)-ansi.Width(right), 0)
	return c.encode(left+strings.Repeat(" ", pad)+right, ansi.Style{Inverse: true})
}

// minName is the fewest cells a note's name is cut to in the status bar.
const minName = 9

// status draws the reader's status bar: " name" then rest on the left,
// right on the right, padded to width. When they do not fit, the name's
// middle goes first (down to minName cells), then the end of rest: the
// focus target or the message after the name is what the reader needs.
func (c *chrome) status(name, rest, right string, width int) string {
	name, rest = sanitize.Inline(name), sanitize.Inline(rest)
	gap := width - ansi.Width(fit(sanitize.Inline(right), width)) - 1
	if over := 1 + ansi.Width(name) + ansi.Width(rest) - gap; over > 0 {
		name = cutMiddle(name, max(ansi.Width(name)-over, minName))
	}
	return c.bar(" "+name+rest, right, width)
}

// cutMiddle cuts s to w cells by dropping its middle for an ellipsis.
func cutMiddle(s string, w int) string {
	sw := ansi.Width(s)
	if sw <= w {
		return s
	}
	if w < 3 {
		return fit(s, w)
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return xansi.Truncate(s, head, "") + "…" + xansi.TruncateLeft(s, sw-tail, "")
}

// dialog draws a box with lines of text centered in width; lipgloss only
// lays out the border (no colors). Lines wrap at word boundaries by
// display cells (render.WrapText), so the legend keeps its spacing and a
// host is never cut. fits reports whether the whole box fits in width
// columns and height rows.
func (c *chrome) dialog(lines []string, width, height int) (box []string, fits bool) {
	inner := min(max(width-6, 10), 72)
	body := make([]string, 0, len(lines))
	for _, l := range lines {
		body = append(body, wrapPlain(sanitize.Visible(l), inner)...)
	}
	b := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		Padding(0, 1).
		// The width lipgloss takes counts the border and the padding.
		Width(inner + 4).
		Render(strings.Join(body, "\n"))
	out := strings.Split(b, "\n")
	fits = len(out) <= height && ansi.Width(out[0]) <= width
	indent := strings.Repeat(" ", max((width-ansi.Width(out[0]))/2, 0))
	for i := range out {
		out[i] = c.encode(indent+out[i], ansi.Style{})
	}
	return out, fits
}

// tooSmall draws msg wrapped to width, at most height rows, bold, in place
// of a dialog that does not fit.
func (c *chrome) tooSmall(msg string, width, height int) []string {
	rows := wrapPlain(sanitize.Visible(msg), max(width, 1))
	if len(rows) > max(height, 1) {
		rows = rows[:max(height, 1)]
	}
	for i, r := range rows {
		rows[i] = c.encode(fit(r, width), ansi.Style{Bold: true})
	}
	return rows
}

// wrapPlain breaks plain text into lines of at most width cells at word
// boundaries, with markii's own wrapper.
func wrapPlain(s string, width int) []string {
	return render.WrapText(s, width)
}

// wrapEntries breaks each entry into rows of at most width cells,
// keeping its indentation; the rows after an entry's first are indented
// two cells more.
func (c *chrome) wrapEntries(entries []string, width int) []string {
	var out []string
	for _, e := range entries {
		e = sanitize.Visible(e)
		body := strings.TrimLeft(e, " ")
		lead := e[:len(e)-len(body)]
		for i, r := range wrapPlain(body, max(width-len(lead)-2, 8)) {
			if i > 0 {
				r = "  " + r
			}
			out = append(out, lead+r)
		}
	}
	return out
}

// hardWrap cuts s into rows of at most width cells, at most limit rows
// (the last ending in an ellipsis when s is longer).
func hardWrap(s string, width, limit int) []string {
	var out []string
	for s != "" && len(out) < limit {
		row := xansi.Truncate(s, max(width, 1), "")
		if row == "" {
			_, n := utf8.DecodeRuneInString(s)
			row = s[:n]
		}
		s = s[len(row):]
		if s != "" && len(out) == limit-1 {
			row = fit(row+s, width)
			s = ""
		}
		out = append(out, row)
	}
	return out
}
