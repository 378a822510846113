package viewer

import (
	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/render"
)

// revealing is a search hit in text a block hides, while the block is
// opened: the block, and which of the hits in the opened panel it is.
type revealing struct {
	kind  render.FocusKind
	id    render.BlockID
	query string
	// nth is the hit's place among the count hits in the panel.
	nth, count int
	// depth counts the blocks opened for this hit (one hidden in another).
	depth int
}

// maxRevealDepth bounds how many nested blocks one hit opens.
const maxRevealDepth = 16

// reveal opens the block that hides search hit h: a details body opens,
// a tabs block switches to the hit's panel. Once the page is laid out
// again the hit is a match on it, and the reader lands there.
func (m *Model) reveal(h hiddenMatch) tea.Cmd {
	t := m.pg.target(h.target)
	depth := 0
	if r := m.revealing; r != nil {
		depth = r.depth + 1
	}
	if depth > maxRevealDepth {
		m.revealing = nil
		return nil
	}
	m.revealing = &revealing{kind: t.kind, id: t.id, query: m.search.query, nth: h.nth, count: h.count, depth: depth}
	cmd := m.relayout(func() {
		if t.kind == render.FocusDetails {
			m.pg.live.Open[t.id] = true
		} else {
			m.pg.live.ActiveTab[t.id] = h.panel
		}
	}, h.target)
	if cmd != nil {
		// A long note is laid out in the background; fullPage lands.
		return cmd
	}
	return m.landRevealed()
}

// landRevealed makes the revealed hit the current match and shows it:
// the hits inside the opened block are its header's, then the opened
// panel's, so the hit is nth of the block's last count.
func (m *Model) landRevealed() tea.Cmd {
	r := m.revealing
	if r == nil {
		return nil
	}
	if r.query != m.search.query || len(m.search.matches) == 0 {
		m.revealing = nil
		return nil
	}
	ti := -1
	for i := range m.pg.targets {
		if t := m.pg.target(i); t.kind == r.kind && t.id == r.id {
			ti = i
			break
		}
	}
	if ti < 0 {
		m.revealing = nil
		return nil
	}
	t := m.pg.target(ti)
	first, last := -1, -1
	for i, mt := range m.search.matches {
		if mt.line >= t.line && mt.line < t.end {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		// The hit did not survive the layout (it spanned a line break):
		// show the block.
		m.revealing = nil
		m.scrollTo(m.pg.rowOf(t.line) - m.bodyHeight()/3)
		return nil
	}
	m.search.current = max(first, min(last, last-r.count+1+r.nth))
	if m.search.matches[m.search.current].hidden == nil {
		m.revealing = nil
	}
	// A hit hidden again (a block inside the opened one) reveals again.
	return m.showMatch()
}
