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
	move := func(d int) { p.move(d, height) }
	switch {
	case key.Matches(msg, keys.Down):
		move(1)
	case key.Matches(msg, keys.Up):
		move(-1)
	case key.Matches(msg, keys.PageDown):
		move(height)
	case key.Matches(msg, keys.PageUp):
		move(-height)
	case key.Matches(msg, keys.HalfDown):
		move(max(height/2, 1))
	case key.Matches(msg, keys.HalfUp):
		move(-max(height/2, 1))
	case key.Matches(msg, keys.Top):
		move(-len(p.items))
	case key.Matches(msg, keys.Bottom):
		move(len(p.items))
	case key.Matches(msg, paneEnter):
		if p.selectable && len(p.items) > 0 {
			return paneChoose
		}
		return paneClose
	case key.Matches(msg, paneCloseKey):
		return paneClose
	}
	return paneNone
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
