package viewer

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// pane is a full-screen list the reader opens over the note: the help,
// the table of contents and the diagnostics are panes. A selectable pane
// has a cursor and reports the chosen row.
type pane struct {
	title      string
	items      []string
	selectable bool
	cursor     int
	offset     int
}

// paneAction is what a pane asks its parent to do.
type paneAction int

const (
	paneNone paneAction = iota
	paneClose
	paneChoose
)

// A pane scrolls by the reader's own keys (keys.Down … keys.Bottom);
// these close it or choose its item.
var (
	paneCloseKey = key.NewBinding(key.WithKeys("q", "esc", "?", "h", "f1", "t", "D", "backspace"))
	paneEnter    = key.NewBinding(key.WithKeys("enter"))
)

// newPane makes a pane; the chrome makes its items inert when it draws
// them.
func newPane(title string, items []string, selectable bool) *pane {
	return &pane{title: title, items: items, selectable: selectable}
}

// update handles a key; height is the number of item rows shown.
func (p *pane) update(msg tea.KeyPressMsg, height int) paneAction {
	height = max(height, 1)
	if d, ok := moveOf(paneMoves, msg, height, len(p.items)); ok {
		p.move(d, height)
		return paneNone
	}
	switch {
	case key.Matches(msg, paneEnter) && p.selectable && len(p.items) > 0:
		return paneChoose
	case key.Matches(msg, paneEnter), key.Matches(msg, paneCloseKey):
		return paneClose
	}
	return paneNone
}

// moveKey is a key that moves in a list: by how much, in a list of items
// showing height rows.
type moveKey struct {
	keys *key.Binding
	by   func(height, items int) int
}

// moveOf is how far msg moves in a list of items showing height rows,
// by the first of moves it matches; ok is false when it matches none.
func moveOf(moves []moveKey, msg tea.KeyPressMsg, height, items int) (d int, ok bool) {
	for _, mv := range moves {
		if key.Matches(msg, *mv.keys) {
			return mv.by(height, items), true
		}
	}
	return 0, false
}

// The moves of the keys in moveKey tables.
func lineDown(int, int) int    { return 1 }
func lineUp(int, int) int      { return -1 }
func pageDown(h, _ int) int    { return h }
func pageUp(h, _ int) int      { return -h }
func halfDown(h, _ int) int    { return max(h/2, 1) }
func halfUp(h, _ int) int      { return -max(h/2, 1) }
func toFirst(_, items int) int { return -items }
func toLast(_, items int) int  { return items }

// paneMoves are the reader's keys that move in a pane.
var paneMoves = []moveKey{
	{&keys.Down, lineDown}, {&keys.Up, lineUp}, {&keys.PageDown, pageDown}, {&keys.PageUp, pageUp},
	{&keys.HalfDown, halfDown}, {&keys.HalfUp, halfUp}, {&keys.Top, toFirst}, {&keys.Bottom, toLast},
}

// move moves the cursor d items, keeping it among the height rows
// shown; a pane without a cursor scrolls d rows.
func (p *pane) move(d, height int) {
	if p.selectable {
		p.cursor = max(0, min(p.cursor+d, max(len(p.items)-1, 0)))
		if p.cursor < p.offset {
			p.offset = p.cursor
		}
		if p.cursor >= p.offset+height {
			p.offset = p.cursor - height + 1
		}
		return
	}
	p.offset = max(0, min(p.offset+d, max(len(p.items)-height, 0)))
}

// view draws the pane into height rows of width cells.
func (p *pane) view(c *chrome, width, height int) []string {
	out := make([]string, 0, height)
	out = append(out, c.title(" "+p.title+"  (esc closes)", width))
	rows := height - 1
	for i := p.offset; i < len(p.items) && len(out) < height; i++ {
		text := c.plain("  "+p.items[i], width)
		if p.selectable && i == p.cursor {
			text = c.selected("› "+p.items[i], width)
		}
		out = append(out, text)
	}
	if len(p.items) == 0 && rows > 0 {
		out = append(out, c.dim("  (nothing here)", width))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return out
}

// fit cuts s to width cells, marking a cut with an ellipsis.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	s = strings.TrimRight(s, " ")
	return xansi.Truncate(s, width, "…")
}
