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
func (rd *reader) reveal(h hiddenMatch) tea.Cmd {
	t := rd.pg.target(h.target)
	depth := 0
	if p := rd.pending.find(pendingReveal); p != nil {
		depth = p.reveal.depth + 1
	}
	if depth > maxRevealDepth {
		rd.pending.drop(pendingReveal)
		return nil
	}
	rd.pending.put(pendingAction{kind: pendingReveal, reveal: revealing{kind: t.kind, id: t.id, query: rd.search.query, nth: h.nth, count: h.count, depth: depth}})
	cmd := rd.relayout(func() {
		if t.kind == render.FocusDetails {
			rd.pg.live.Open[t.id] = true
		} else {
			rd.pg.live.ActiveTab[t.id] = h.panel
		}
	}, h.target)
	if cmd != nil {
		// A long note is laid out in the background; fullPage lands.
		return cmd
	}
	return rd.landRevealed()
}

// landRevealed makes the revealed hit the current match and shows it:
// the hits inside the opened block are its header's, then the opened
// panel's, so the hit is nth of the block's last count.
func (rd *reader) landRevealed() tea.Cmd {
	p := rd.pending.find(pendingReveal)
	if p == nil {
		return nil
	}
	r := p.reveal
	if r.query != rd.search.query || len(rd.search.matches) == 0 {
		rd.pending.drop(pendingReveal)
		return nil
	}
	ti := rd.pg.targetOf(r.kind, r.id)
	if ti < 0 {
		rd.pending.drop(pendingReveal)
		return nil
	}
	t := rd.pg.target(ti)
	first, last := rd.search.within(t.line, t.end)
	if first < 0 {
		// The hit did not survive the layout (it spanned a line break):
		// show the block.
		rd.pending.drop(pendingReveal)
		rd.scrollTo(rd.pg.rowOf(t.line) - rd.bodyHeight()/3)
		return nil
	}
	rd.search.current = max(first, min(last, last-r.count+1+r.nth))
	if rd.search.matches[rd.search.current].hidden == nil {
		rd.pending.drop(pendingReveal)
	}
	// A hit hidden again (a block inside the opened one) reveals again.
	return rd.showMatch()
}

// targetOf is the index of the target of kind and id, -1 if there is none.
func (p *page) targetOf(kind render.FocusKind, id render.BlockID) int {
	for i := range p.targets {
		if t := p.target(i); t.kind == kind && t.id == id {
			return i
		}
	}
	return -1
}

// within is the first and last of the matches on lines from line up to
// end, -1 and -1 if there are none.
func (s *searcher) within(line, end int) (first, last int) {
	first, last = -1, -1
	for i, mt := range s.matches {
		if mt.line < line || mt.line >= end {
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	return first, last
}
