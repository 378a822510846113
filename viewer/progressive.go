package viewer

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/render"
)

// A long note is shown at once from its beginning while the whole note is
// parsed and laid out in the background; the full page then replaces the
// partial one at the same place.
const (
	// progressiveFrom is the note size from which the first frame comes
	// from a prefix: laying out 64 KB takes a few milliseconds, a note
	// ten times that size takes longer than the whole first-frame budget.
	progressiveFrom = 64 << 10
	// prefixBytes is about how much of a long note the first frame lays
	// out: several screens of the tallest terminal, at the cost of a few
	// milliseconds.
	prefixBytes = 16 << 10
	// keepTreeUpTo is the largest note whose parsed tree is kept between
	// layouts; a larger note is parsed again when it must be laid out
	// again, which keeps memory near the size of the page.
	keepTreeUpTo = 512 << 10
)

// firstFrameHead is how long the whole-note layout waits so that the
// first frame is drawn first.
const firstFrameHead = 60 * time.Millisecond

// afterFirstFrame runs do in the background once the first frame has had
// its head start, for work that must not delay it.
func afterFirstFrame(do func() tea.Msg) tea.Cmd {
	return tea.Tick(firstFrameHead, func(time.Time) tea.Msg { return do() })
}

// startFullMsg starts the whole-note layout.
type startFullMsg struct{ cmd tea.Cmd }

// fullPageMsg carries the whole note's page, laid out in the background.
type fullPageMsg struct {
	gen  int
	page *page
	// width and version are the layout width and live-state version the
	// page was laid out for.
	width, version int
}

// layoutFull lays out the whole source in the background for the page
// state as it is now.
func (m *Model) layoutFull() tea.Cmd {
	gen, width, version := m.loadGen, m.pageWidth, m.liveVersion
	src := m.note.Source
	opt := m.pg.opt
	opt.Width = width
	opt.Values = make(render.Values, len(m.values))
	for k, v := range m.values {
		opt.Values[k] = v
	}
	live := copyLive(m.pg.live)
	return func() tea.Msg {
		p := &page{src: src, opt: opt, folded: map[int]bool{}, live: live}
		p.layout()
		return fullPageMsg{gen: gen, page: p, width: width, version: version}
	}
}

func copyLive(l render.LiveState) render.LiveState {
	out := render.LiveState{Focus: l.Focus, ActiveTab: map[render.BlockID]int{}, Open: map[render.BlockID]bool{}, Folded: map[render.BlockID]bool{}}
	for k, v := range l.ActiveTab {
		out.ActiveTab[k] = v
	}
	for k, v := range l.Open {
		out.Open[k] = v
	}
	for k, v := range l.Folded {
		out.Folded[k] = v
	}
	return out
}

// fullPage swaps the whole note's page in for the partial or outdated
// one, keeping the reader's place, folds and search. A page laid out for
// a width or state the reader has since changed is laid out again in the
// background.
func (m *Model) fullPage(msg fullPageMsg) tea.Cmd {
	if msg.gen != m.loadGen || !m.loading {
		return nil
	}
	if msg.width != m.pageWidth || msg.version != m.liveVersion {
		return m.layoutFull()
	}
	m.loading = false
	top := m.topLine()
	p := msg.page
	p.refold(m.pg.foldKeys())
	p.buildRows()
	m.pg = p
	// A search that found nothing in the part shown so far goes to its
	// first match once the rest of the note is there.
	unfound := m.search.query != "" && len(m.search.matches) == 0
	m.search.rerun(p)
	if m.focus >= len(p.targets) {
		m.focus = -1
	}
	switch a, bp := m.pending, m.pendingBlock; {
	case a != nil:
		m.pending, m.pendingBlock = nil, nil
		m.restore(*a)
	case bp != nil:
		m.pendingBlock = nil
		m.top = p.rowOf(bp.after(p))
	default:
		m.top = p.rowOf(top)
	}
	m.scrollTo(m.top)
	if j := m.after; j != nil {
		// A G, %, Ng or anchor followed while loading means the whole note's
		// place.
		m.after = nil
		switch {
		case j.anchor != "":
			m.message = ""
			m.goAnchor(j.anchor)
		case j.line > 0:
			m.goLine(j.line)
		default:
			m.scrollTo(percentRow(j.percent, m.maxTop()))
		}
	}
	if m.paneKind == tocPane {
		// The contents grow to the whole note's, the cursor kept.
		cur := m.pane.cursor
		m.openPane(tocPane)
		m.pane.cursor = min(cur, max(len(m.pane.items)-1, 0))
		m.pane.offset = max(m.pane.cursor-m.bodyHeight()/2, 0)
	}
	if m.revealing != nil {
		// A search hit whose block was opened: land on it.
		return m.landRevealed()
	}
	if unfound && len(m.search.matches) > 0 {
		m.search.firstFrom(m.topLine())
		return m.showMatch()
	}
	return nil
}

// resizeLater lays a long note out at the new width in the background;
// the reader keeps the old page until the new one is ready.
func (m *Model) resizeLater() tea.Cmd {
	if m.pending == nil {
		a := m.anchor()
		m.pending, m.pendingBlock = &a, nil
	}
	m.loadGen++
	m.loading = true
	return m.layoutFull()
}
