package viewer

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/render"
	"github.com/markii/markii/value"
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

// startCmds are the reader's work in the background once the first
// frame is drawn: the whole note's layout, if the first frame showed a
// part, and its pictures' decoding.
func (rd *reader) startCmds() []tea.Cmd {
	var cmds []tea.Cmd
	if rd.loading {
		// Let the first frame reach the terminal before the whole note
		// is parsed alongside the reader.
		full := rd.layoutFull()
		cmds = append(cmds, afterFirstFrame(func() tea.Msg { return startFullMsg{full} }))
	}
	if n := rd.note; n.Pictures != nil && n.Images == nil {
		decode := n.Pictures
		cmds = append(cmds, afterFirstFrame(func() tea.Msg {
			images, refused := decode()
			return picturesMsg{note: n, images: images, refused: refused}
		}))
	}
	return cmds
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
func (rd *reader) layoutFull() tea.Cmd {
	gen, width, version := rd.loadGen, rd.pageWidth, rd.liveVersion
	src := rd.note.Source
	opt := rd.pg.opt
	opt.Width = width
	opt.Values = make(value.Values, len(rd.values))
	for k, v := range rd.values {
		opt.Values[k] = v
	}
	live := copyLive(rd.pg.live)
	memory := rd.pg.memory
	return func() tea.Msg {
		p := &page{src: src, opt: opt, folded: map[int]bool{}, live: live, memory: memory}
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
// one, keeping the reader's place, folds and search, and then does what
// waited for it (see pendingList), and asks the root to grow an open
// table of contents (readerPageArrived). A page laid out for a width or
// state the reader has since changed is laid out again in the
// background.
func (rd *reader) fullPage(msg fullPageMsg) (readerAction, tea.Cmd) {
	if msg.gen != rd.loadGen || !rd.loading {
		return readerNone, nil
	}
	if msg.width != rd.pageWidth || msg.version != rd.liveVersion {
		return readerNone, rd.layoutFull()
	}
	unfound := rd.swapIn(msg.page)
	for _, a := range rd.pending.take(pendingAnchor, pendingBlock, pendingJump) {
		rd.donePending(a)
	}
	return readerPageArrived, rd.afterArrival(unfound)
}

// swapIn makes p, the whole note's page, the one on screen at the same
// place, with the folds and the search carried over; unfound says the
// search had found nothing in the part shown before.
func (rd *reader) swapIn(p *page) (unfound bool) {
	rd.loading = false
	top := rd.topLine()
	p.refold(rd.pg.foldKeys())
	p.buildRows()
	rd.pg = p
	unfound = rd.search.query != "" && len(rd.search.matches) == 0
	rd.search.rerun(p)
	if rd.focus >= len(p.targets) {
		rd.focus = -1
	}
	rd.top = p.rowOf(top)
	rd.scrollTo(rd.top)
	return unfound
}

// afterArrival shows, once the whole page is there, the search hit that
// waited for its block to open, or else the first match of a search
// that found nothing in the part shown so far.
func (rd *reader) afterArrival(unfound bool) tea.Cmd {
	if rd.pending.find(pendingReveal) != nil {
		// A search hit whose block was opened: land on it.
		return rd.landRevealed()
	}
	if unfound && len(rd.search.matches) > 0 {
		rd.search.firstFrom(rd.topLine())
		return rd.showMatch()
	}
	return nil
}

// donePending does one thing that waited for the whole page.
func (rd *reader) donePending(a pendingAction) {
	switch a.kind {
	case pendingAnchor:
		rd.restore(a.anchor)
	case pendingBlock:
		rd.top = rd.pg.rowOf(a.block.after(rd.pg))
		rd.scrollTo(rd.top)
	case pendingJump:
		// A G, %, Ng or anchor followed while loading means the whole
		// note's place.
		switch j := a.jump; {
		case j.anchor != "":
			rd.message = ""
			rd.goAnchor(j.anchor)
		case j.line > 0:
			rd.goLine(j.line)
		default:
			rd.scrollTo(percentRow(j.percent, rd.maxTop()))
		}
	}
}

// pendingKind is what waits for a page being laid out, in the order it
// is done once the page arrives.
type pendingKind int

const (
	// pendingAnchor keeps the reader's place relative to the headings
	// (a resize, pictures arriving).
	pendingAnchor pendingKind = iota
	// pendingBlock keeps the place around a block that changed height
	// (a details block opened, a tab switched, a value changed). The
	// place is one: an anchor or a block, not both.
	pendingBlock
	// pendingJump is a G, %, Ng or anchor followed while loading.
	pendingJump
	// pendingReveal is a search hit in a block being opened.
	pendingReveal
)

// pendingAction is one thing to do once the page being laid out arrives.
type pendingAction struct {
	kind   pendingKind
	anchor anchor
	block  blockPlace
	jump   jump
	reveal revealing
}

// pendingList is what waits for the page being laid out, at most one of
// each kind, ordered by kind, which is the order it is done in.
type pendingList []pendingAction

// find returns the waiting action of kind k, or nil.
func (l pendingList) find(k pendingKind) *pendingAction {
	for i := range l {
		if l[i].kind == k {
			return &l[i]
		}
	}
	return nil
}

// put adds a, replacing the action of its kind; an anchor or a block
// replaces the other too, as the reader has one place.
func (l *pendingList) put(a pendingAction) {
	l.drop(a.kind)
	if a.kind == pendingAnchor || a.kind == pendingBlock {
		l.drop(pendingAnchor, pendingBlock)
	}
	i := 0
	for i < len(*l) && (*l)[i].kind < a.kind {
		i++
	}
	*l = slices.Insert(*l, i, a)
}

// drop forgets the actions of kinds ks.
func (l *pendingList) drop(ks ...pendingKind) {
	*l = slices.DeleteFunc(*l, func(a pendingAction) bool { return slices.Contains(ks, a.kind) })
}

// take removes and returns the actions of kinds ks, in order.
func (l *pendingList) take(ks ...pendingKind) []pendingAction {
	var out []pendingAction
	for _, a := range *l {
		if slices.Contains(ks, a.kind) {
			out = append(out, a)
		}
	}
	l.drop(ks...)
	return out
}

// resizeLater lays a long note out at the new width in the background;
// the reader keeps the old page until the new one is ready.
func (rd *reader) resizeLater() tea.Cmd {
	if rd.pending.find(pendingAnchor) == nil {
		rd.pending.put(pendingAction{kind: pendingAnchor, anchor: rd.anchor()})
	}
	rd.loadGen++
	rd.loading = true
	return rd.layoutFull()
}
