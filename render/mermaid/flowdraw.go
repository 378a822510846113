package mermaid

import (
	"cmp"
	"slices"
)

// gapPlan is the space between layer k and layer k+1: a row (or column)
// for arrowheads pointing up when any edge has one, the tracks edges run
// across on, a row for labels when layers are rows (or the columns for
// them when they are columns), and the row of the arrowheads pointing
// down.
type gapPlan struct {
	headUp bool
	tracks int
	labels int
	size   int
	// bottoms and tops are the rows of frame lines: the bottoms of the
	// frames that end above, after the arrowheads pointing up, and the
	// tops of those that start below, before the arrowheads pointing down.
	bottoms, tops int
}

// measure routes the edges onto tracks and returns the drawing's width
// and height.
func (l *flowLayout) measure() (w, h int) {
	n := len(l.layers)
	l.band = make([]int, n)
	l.mpos = make([]int, n)
	l.gaps = make([]gapPlan, max(n-1, 0))
	for _, nd := range l.nodes {
		l.band[nd.layer] = max(l.band[nd.layer], nd.msize)
	}
	l.straighten()
	tops, bottoms := l.frameRows()
	bySeg := make([][]int, max(n-1, 0))
	for i, s := range l.segs {
		k := l.nodes[s.upper].layer
		bySeg[k] = append(bySeg[k], i)
	}
	for k := range l.gaps {
		l.planGap(k, bySeg[k], bottoms[k], tops[k+1])
	}
	m := tops[0]
	for k := range l.layers {
		l.mpos[k] = m
		m += l.band[k]
		if k < len(l.gaps) {
			m += l.gaps[k].size
		}
	}
	m += bottoms[len(l.layers)-1]
	l.frameLines(tops, bottoms)
	l.checkFrames()
	c := 0
	for _, nd := range l.nodes {
		c = max(c, nd.cross+nd.csize+nd.extra)
	}
	for _, f := range l.frames {
		c = max(c, f.cHi+1)
	}
	if l.dir.horizontal() {
		return m, c
	}
	return c, m
}

// planGap plans the gap below layer k, crossed by segs, with the given
// rows of frame bottoms above and frame tops below its edges: routes
// the segments onto tracks and sizes it.
func (l *flowLayout) planGap(k int, segs []int, bottoms, tops int) {
	g := &l.gaps[k]
	for _, i := range segs {
		s := &l.segs[i]
		g.headUp = g.headUp || s.headUp
		g.labels = max(g.labels, l.labelRoom(s))
	}
	groups := l.trackGroups(segs)
	tracks := assignTracks(groups)
	for _, gr := range groups {
		for _, i := range gr.segs {
			l.segs[i].track = gr.track
		}
	}
	g.tracks = max(tracks, 1)
	g.bottoms, g.tops = bottoms, tops
	g.size = g.tracks + g.labels + 1 + g.bottoms + g.tops
	if g.headUp {
		g.size++
	}
	if l.dir.horizontal() {
		g.size++ // the stub out of a box's side
	}
}

// labelRoom is the rows (columns, when layers are columns) a segment's
// label takes in its gap; one for a segment onto a frame, whose
// arrowhead stands in the last before the frame tops.
func (l *flowLayout) labelRoom(s *seg) int {
	room := 0
	switch {
	case len(s.lines) == 0:
	case l.dir.horizontal():
		room = widest(s.lines) + 2
	default:
		room = len(s.lines)
	}
	if s.downFrame >= 0 {
		room = max(room, 1)
	}
	return room
}

// trackGroups groups the segments of one gap that run on one track:
// those that leave a real node's shared tail port together, each other
// segment alone.
func (l *flowLayout) trackGroups(segs []int) []*trackGroup {
	index := map[[2]int]int{}
	var groups []*trackGroup
	for _, i := range segs {
		s := &l.segs[i]
		a, b := l.ends(s)
		key := [2]int{s.upper, s.upPort}
		if s.headUp || l.nodes[s.upper].real < 0 {
			key = [2]int{-1 - i, 0}
		}
		j, ok := index[key]
		if !ok {
			j = len(groups)
			index[key] = j
			groups = append(groups, &trackGroup{lo: a, hi: a, a: a, first: i})
		}
		gr := groups[j]
		gr.lo, gr.hi = min(gr.lo, b), max(gr.hi, b)
		gr.bs = append(gr.bs, b)
		gr.segs = append(gr.segs, i)
	}
	return groups
}

// frameLines places the frames' top and bottom lines on the main axis,
// given each layer's rows of frame tops above it and bottoms below it.
func (l *flowLayout) frameLines(tops, bottoms []int) {
	for i := range l.frames {
		f := &l.frames[i]
		// Outer tops first, the innermost next to the arrowheads; inner
		// bottoms first, after any arrowheads pointing up.
		f.top = l.mpos[f.first] - 1 - (tops[f.first] - f.top)
		if f.first == 0 {
			f.top++
		}
		f.bottom = l.mpos[f.last] + l.band[f.last] + (bottoms[f.last] - 1 - f.bottom)
		if f.last < len(l.gaps) && l.gaps[f.last].headUp {
			f.bottom++
		}
	}
}

// straighten moves a port on a node's lower side by a cell or two when
// that lines it up with a port it leads to, so that the edge runs
// straight.
func (l *flowLayout) straighten() {
	for v := range l.nodes {
		n := &l.nodes[v]
		if n.real < 0 {
			continue
		}
		for p := range n.downOff {
			best := l.nearestShift(n, p)
			off := n.downOff[p] + best
			if best != 0 && off >= 1 && off <= n.csize-2 && portFree(n.downOff, p, off) {
				n.downOff[p] = off
			}
		}
	}
}

// nearestShift is the smallest move, of one or two cells, that lines
// n's lower port p up with a port one of its segments leads to, or 0.
func (l *flowLayout) nearestShift(n *lnode, p int) int {
	a := n.cross + n.downOff[p]
	best := 0
	for _, i := range n.downs {
		s := &l.segs[i]
		if s.upPort != p {
			continue
		}
		_, b := l.ends(s)
		if d := b - a; d != 0 && abs(d) <= 2 && (best == 0 || abs(d) < abs(best)) {
			best = d
		}
	}
	return best
}

// portFree reports whether port p may move to off: no other port of
// offs is within a cell of it.
func portFree(offs []int, p, off int) bool {
	for q, o := range offs {
		if q != p && abs(o-off) < 2 {
			return false
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// trackGroup is the edges in one gap that leave one port: the line
// from the port at a runs to a track and along it from lo to hi, and
// from it to each lower port in bs.
type trackGroup struct {
	lo, hi, a, first int
	bs, segs         []int
	track            int
}

// assignTracks gives each group that turns its track (-1 for the ones
// that run straight) and returns how many tracks there are. A group
// whose upper line would cross another's track, or the other's lower
// lines its own, gets a track above the other's where the two do not
// ask for both (a left-edge channel router with vertical constraints);
// groups that do not overlap share a track.
func assignTracks(groups []*trackGroup) int {
	need := turningGroups(groups)
	n := len(need)
	c := newTrackOrder(need)
	done := make([]bool, n)
	var rows [][]*trackGroup
	for range n {
		pick := nextGroup(done, c.indeg)
		done[pick] = true
		g := need[pick]
		t := freeTrack(rows, g, c.lowest(need, pick, done))
		if t == len(rows) {
			rows = append(rows, nil)
		}
		rows[t] = append(rows[t], g)
		g.track = t
		for _, j := range c.succs[pick] {
			c.indeg[j]--
		}
	}
	return len(rows)
}

// turningGroups marks every group as running straight (track -1) and
// returns those that turn, in order of their spans.
func turningGroups(groups []*trackGroup) []*trackGroup {
	var need []*trackGroup
	for _, g := range groups {
		g.track = -1
		if g.lo != g.hi {
			need = append(need, g)
		}
	}
	slices.SortStableFunc(need, func(x, y *trackGroup) int {
		return cmp.Or(cmp.Compare(x.lo, y.lo), cmp.Compare(x.hi, y.hi), cmp.Compare(x.first, y.first))
	})
	return need
}

// trackOrder is which groups' tracks must be above which: preds[j] the
// groups above j, succs[i] those below i, indeg[j] how many of j's
// predecessors are not yet on a track.
type trackOrder struct {
	preds, succs [][]int
	indeg        []int
}

// newTrackOrder finds, for each pair of groups, whether one's track must
// be above the other's and not the other way round.
func newTrackOrder(need []*trackGroup) *trackOrder {
	n := len(need)
	c := &trackOrder{preds: make([][]int, n), succs: make([][]int, n), indeg: make([]int, n)}
	for i := range n {
		for j := range n {
			if i != j && need[i].above(need[j]) && !need[j].above(need[i]) {
				c.preds[j] = append(c.preds[j], i)
				c.succs[i] = append(c.succs[i], j)
				c.indeg[j]++
			}
		}
	}
	return c
}

// lowest is the first track group pick may take: below every
// predecessor already on a track.
func (c *trackOrder) lowest(need []*trackGroup, pick int, done []bool) int {
	t := 0
	for _, p := range c.preds[pick] {
		if done[p] {
			t = max(t, need[p].track+1)
		}
	}
	return t
}

// nextGroup is the first group not yet on a track that no group left
// must be above, or the first left when the constraints make a cycle.
func nextGroup(done []bool, indeg []int) int {
	for i := range done {
		if !done[i] && indeg[i] == 0 {
			return i
		}
	}
	return slices.Index(done, false)
}

// above reports whether x's track must be above y's: x's upper line
// would cross y's track, or one of y's lower lines x's.
func (x *trackGroup) above(y *trackGroup) bool {
	if y.spans(x.a) {
		return true
	}
	return slices.ContainsFunc(y.bs, x.spans)
}

// spans reports whether cross position v is within g's track.
func (g *trackGroup) spans(v int) bool { return v >= g.lo && v <= g.hi }

// touches reports whether g and o would touch on one track.
func (g *trackGroup) touches(o *trackGroup) bool { return g.lo <= o.hi+1 && o.lo <= g.hi+1 }

// freeTrack is the first of rows from track t on where g touches no
// group, or len(rows) for a new track.
func freeTrack(rows [][]*trackGroup, g *trackGroup, t int) int {
	for ; t < len(rows); t++ {
		if !slices.ContainsFunc(rows[t], g.touches) {
			return t
		}
	}
	return t
}

// ends are the cross positions of a segment's upper and lower ports.
func (l *flowLayout) ends(s *seg) (a, b int) {
	u, d := &l.nodes[s.upper], &l.nodes[s.lower]
	return u.cross + u.downOff[s.upPort], d.cross + d.upOff[s.downPort]
}

// xy turns a (cross, main) position into a cell's (x, y).
func (l *flowLayout) xy(c, m int) (int, int) {
	if l.dir.horizontal() {
		return m, c
	}
	return c, m
}

// mline draws a line along the main axis at cross position c.
func (l *flowLayout) mline(g *grid, c, m0, m1 int, st lineStyle) {
	if l.dir.horizontal() {
		g.hline(m0, m1, c, st, Edge)
	} else {
		g.vline(c, m0, m1, st, Edge)
	}
}

// cline draws a line along the cross axis at main position m.
func (l *flowLayout) cline(g *grid, c0, c1, m int, st lineStyle) {
	if l.dir.horizontal() {
		g.vline(m, c0, c1, st, Edge)
	} else {
		g.hline(c0, c1, m, st, Edge)
	}
}

// draw draws the laid out chart on a w×h grid.
func (l *flowLayout) draw(w, h int) *grid {
	g := newGrid(w, h)
	gl := &edgeGlyphs[0]
	if l.dir.horizontal() {
		gl = &edgeGlyphs[1]
	}
	l.drawFrames(g)
	for i := range l.nodes {
		n := &l.nodes[i]
		if n.real < 0 {
			l.mline(g, n.cross, l.mpos[n.layer], l.mpos[n.layer]+l.band[n.layer]-1, n.style)
			continue
		}
		x, y := l.xy(n.cross, l.mpos[n.layer])
		if n.shape == block {
			drawBlock(g, x, y, n.w, n.h, n.lines[0], n.art)
		} else {
			drawBox(g, x, y, n.w, n.h, n.shape, n.lines)
		}
	}
	var j joins
	for i := range l.segs {
		l.drawSeg(g, &l.segs[i], gl, &j)
	}
	markJoins(g, j.exits, gl.straight, gl.exit)
	l.drawTitles(g)
	markJoins(g, j.entries, gl.straight, gl.entry)
	return g
}

// edgeGlyph is how edges are drawn in one direction: the arrowheads
// pointing down and up the layers, the marks where an edge leaves and
// enters a box, and a box's side it crosses.
type edgeGlyph struct{ down, up, exit, entry, straight string }

// edgeGlyphs are the edge glyphs when layers are rows, then when they
// are columns.
var edgeGlyphs = [2]edgeGlyph{
	{down: "▼", up: "▲", exit: "┬", entry: "┴", straight: "─"},
	{down: "►", up: "◄", exit: "├", entry: "┤", straight: "│"},
}

// mark is a cell on the grid.
type mark struct{ x, y int }

// joins are the cells where edges leave and enter boxes without an
// arrowhead, marked once the rest is drawn.
type joins struct{ exits, entries []mark }

// drawSeg draws segment s: its line, along its track when it turns,
// its arrowheads, and its label; the cells where it leaves or enters a
// box are added to j. A segment that leaves or enters a frame that is
// drawn starts or ends at the frame's line.
func (l *flowLayout) drawSeg(g *grid, s *seg, gl *edgeGlyph, j *joins) {
	r := l.segRun(s)
	a, b := l.ends(s)
	first := l.firstTrack(l.nodes[s.upper].layer)
	if s.track < 0 || a == b {
		l.mline(g, a, r.from, r.to, s.style)
	} else {
		t := first + s.track
		l.mline(g, a, r.from, t, s.style)
		l.cline(g, a, b, t, s.style)
		l.mline(g, b, t, r.to, s.style)
	}
	l.drawUpperEnd(g, s, a, r, gl, j)
	l.drawLowerEnd(g, s, b, r, gl, j)
	l.drawEdgeLabel(g, s, b, first)
}

// segRun is where a segment runs on the main axis: from start, its
// upper box's or frame's edge, to end, its lower one's; its line covers
// from to to, clear of a frame's line where an arrowhead meets it.
type segRun struct {
	start, end, from, to int
	upFrame, downFrame   *frame // the frames it leaves and enters, if drawn
}

// segRun works out where segment s runs.
func (l *flowLayout) segRun(s *seg) segRun {
	u := &l.nodes[s.upper]
	k := u.layer
	r := segRun{start: l.mpos[k] + l.band[k] - 1, end: l.mpos[k+1]}
	if u.real >= 0 {
		r.start = l.mpos[k] + u.msize - 1
	}
	r.upFrame, r.downFrame = l.keptFrame(s.upFrame), l.keptFrame(s.downFrame)
	if r.upFrame != nil {
		r.start = r.upFrame.bottom
	}
	if r.downFrame != nil {
		r.end = r.downFrame.top
	}
	r.from, r.to = r.start, r.end
	if s.headUp && r.upFrame != nil {
		r.from++ // the arrowhead is drawn clear of the frame's line
	}
	if s.headDown && r.downFrame != nil {
		r.to--
	}
	return r
}

// drawUpperEnd draws the arrowhead at a segment's upper end, at cross
// position a, or adds the cell where it leaves a box to j.
func (l *flowLayout) drawUpperEnd(g *grid, s *seg, a int, r segRun, gl *edgeGlyph, j *joins) {
	switch {
	case s.headUp:
		x, y := l.xy(a, r.start+1)
		g.put(x, y, gl.up, Edge)
	case l.nodes[s.upper].real >= 0 && r.upFrame == nil:
		x, y := l.xy(a, r.start)
		j.exits = append(j.exits, mark{x, y})
	}
}

// drawLowerEnd draws the arrowhead at a segment's lower end, at cross
// position b, keeping the frame's cell it points at clear of the
// frame's title, or adds the cell where it enters a box to j.
func (l *flowLayout) drawLowerEnd(g *grid, s *seg, b int, r segRun, gl *edgeGlyph, j *joins) {
	switch {
	case s.headDown:
		x, y := l.xy(b, r.end-1)
		g.put(x, y, gl.down, Edge)
		if r.downFrame != nil {
			g.keepClear(l.xy(b, r.end))
		}
	case l.nodes[s.lower].real >= 0 && r.downFrame == nil:
		x, y := l.xy(b, r.end)
		j.entries = append(j.entries, mark{x, y})
	}
}

// drawEdgeLabel writes a segment's label: beside its line below the
// tracks when layers are rows, before its arrowhead (its lines one
// below the other) when they are columns.
func (l *flowLayout) drawEdgeLabel(g *grid, s *seg, b, first int) {
	gp := &l.gaps[l.nodes[s.upper].layer]
	end := l.mpos[l.nodes[s.lower].layer]
	w := widest(s.lines)
	for i, ln := range s.lines {
		if l.dir.horizontal() {
			g.text(end-2-gp.tops-w, b+i, ln, Label)
		} else {
			g.text(b+2, first+gp.tracks+i, ln, Label)
		}
	}
}

// keptFrame is subgraph s's frame when it is drawn, or nil.
func (l *flowLayout) keptFrame(s int) *frame {
	for i := range l.frames {
		if f := &l.frames[i]; f.sub == s && !f.drop {
			return f
		}
	}
	return nil
}

// firstTrack is the main-axis position of the first track in the gap
// below layer k: past the frame bottoms, the arrowheads pointing up and,
// when layers are columns, the stub out of a box's side.
func (l *flowLayout) firstTrack(k int) int {
	gp := &l.gaps[k]
	first := l.mpos[k] + l.band[k] + gp.bottoms
	if gp.headUp {
		first++
	}
	if l.dir.horizontal() {
		first++
	}
	return first
}

// markJoins puts glyph on each of ms where a box's side runs straight.
func markJoins(g *grid, ms []mark, straight, glyph string) {
	for _, m := range ms {
		if p := g.at(m.x, m.y); p != nil && p.glyph == straight {
			p.glyph = glyph
		}
	}
}

// boxGlyphs are a shape's corners (top left, top right, bottom left,
// bottom right), its top and bottom line and its sides.
type boxGlyphs struct{ tl, tr, bl, br, hz, l, r string }

var shapeGlyphs = [...]boxGlyphs{
	rect:       {"┌", "┐", "└", "┘", "─", "│", "│"},
	block:      {"┌", "┐", "└", "┘", "┄", "┆", "┆"},
	round:      {"╭", "╮", "╰", "╯", "─", "│", "│"},
	stadium:    {"╭", "╮", "╰", "╯", "─", "(", ")"},
	circle:     {"╭", "╮", "╰", "╯", "─", "(", ")"},
	subroutine: {"┌", "┐", "└", "┘", "─", "│", "│"},
	cylinder:   {"╭", "╮", "╰", "╯", "─", "│", "│"},
	flag:       {"┌", "┐", "└", "┘", "─", ">", "│"},
	decision:   {"╱", "╲", "╲", "╱", "─", "│", "│"},
	hexagon:    {"╱", "╲", "╲", "╱", "─", "│", "│"},
	slanted:    {"┌", "┐", "└", "┘", "─", "/", "/"},
}

// drawBox draws a node's box at (x, y), w×h, its lines centred in it.
func drawBox(g *grid, x, y, w, h int, sh shape, lines []string) {
	gl := shapeGlyphs[sh]
	drawOutline(g, x, y, w, h, gl)
	top, inner := y+1, h-2
	if sh == cylinder {
		g.put(x, y+1, "├", Border)
		g.put(x+w-1, y+1, "┤", Border)
		for i := 1; i < w-1; i++ {
			g.put(x+i, y+1, "─", Border)
		}
		top, inner = y+2, h-3
	}
	drawSides(g, x, y, w, h, sh, top+(inner-1)/2)
	start := top + (inner-len(lines))/2
	for i, ln := range lines {
		lw := widest([]string{ln})
		g.text(x+(w-lw)/2, start+i, ln, Text)
	}
}

// drawOutline draws a box's top and bottom lines and its corners.
func drawOutline(g *grid, x, y, w, h int, gl boxGlyphs) {
	for i := 1; i < w-1; i++ {
		g.put(x+i, y, gl.hz, Border)
		g.put(x+i, y+h-1, gl.hz, Border)
	}
	g.put(x, y, gl.tl, Border)
	g.put(x+w-1, y, gl.tr, Border)
	g.put(x, y+h-1, gl.bl, Border)
	g.put(x+w-1, y+h-1, gl.br, Border)
}

// drawSides draws a box's sides between its top and bottom lines: a
// decision's points at its middle row mid, a subroutine's inner lines,
// and nothing beside a cylinder's second top line.
func drawSides(g *grid, x, y, w, h int, sh shape, mid int) {
	gl := shapeGlyphs[sh]
	from := y + 1
	if sh == cylinder {
		from++
	}
	for j := from; j < y+h-1; j++ {
		l, r := gl.l, gl.r
		if sh == decision && j == mid {
			l, r = "<", ">"
		}
		g.put(x, j, l, Border)
		g.put(x+w-1, j, r, Border)
		if sh == subroutine {
			g.put(x+1, j, "│", Border)
			g.put(x+w-2, j, "│", Border)
		}
	}
}
