package mermaid

import (
	"cmp"
	"slices"
	"strings"

	"github.com/markii/markii/ansi"
)

// Subgraphs are drawn as dotted frames with their titles: the nodes of
// one subgraph are kept together in each layer, a frame's sides get
// room of their own beside the nodes around it, and its top and bottom
// lines rows of their own between the layers. A frame that would still
// hold a node not in it, or cut through another frame, is left out and
// its nodes drawn as if it were not there.

// frame is a subgraph's frame: its sides at cross positions cLo and cHi,
// the layers of its first and last nodes, and its top and bottom lines
// on the main axis once measured.
type frame struct {
	sub, cLo, cHi, first, last, top, bottom int
	drop                                    bool
}

// subHeights works out how deep each subgraph's subgraphs nest.
func (l *flowLayout) subHeights() {
	subs := l.fc.subs
	l.subHeight = make([]int, len(subs))
	// A subgraph's parent is always declared before it.
	for s := len(subs) - 1; s >= 0; s-- {
		if p := subs[s].parent; p >= 0 {
			l.subHeight[p] = max(l.subHeight[p], l.subHeight[s]+1)
		}
	}
}

// chain is the subgraphs s is in, outermost first, s last.
func (l *flowLayout) chain(s int) []int {
	var out []int
	for ; s >= 0; s = l.fc.subs[s].parent {
		out = append(out, s)
	}
	slices.Reverse(out)
	return out
}

// lca is the innermost subgraph both a and b are in, or -1.
func (l *flowLayout) lca(a, b int) int {
	ca, cb := l.chain(a), l.chain(b)
	s := -1
	for i := 0; i < len(ca) && i < len(cb) && ca[i] == cb[i]; i++ {
		s = ca[i]
	}
	return s
}

// cluster reorders layer k so that the nodes of each subgraph stand
// together, each group where the mean position of its nodes puts it.
func (l *flowLayout) cluster(k int) {
	if len(l.fc.subs) == 0 {
		return
	}
	layer := l.layers[k]
	chains := make(map[int][]int, len(layer))
	for _, v := range layer {
		chains[v] = l.chain(l.nodes[v].sub)
	}
	var group func(nodes []int, d int) []int
	group = func(nodes []int, d int) []int {
		type grp struct {
			key, sum, n int
			members     []int
		}
		var groups []*grp
		byKey := map[int]*grp{}
		for _, v := range nodes {
			key := -1 - v
			if c := chains[v]; len(c) > d {
				key = c[d]
			}
			g := byKey[key]
			if g == nil {
				g = &grp{key: key}
				byKey[key] = g
				groups = append(groups, g)
			}
			g.sum += l.nodes[v].pos
			g.n++
			g.members = append(g.members, v)
		}
		slices.SortStableFunc(groups, func(a, b *grp) int { return cmp.Compare(a.sum*b.n, b.sum*a.n) })
		out := make([]int, 0, len(nodes))
		for _, g := range groups {
			if g.key >= 0 {
				out = append(out, group(g.members, d+1)...)
			} else {
				out = append(out, g.members...)
			}
		}
		return out
	}
	copy(layer, group(slices.Clone(layer), 0))
	for i, v := range layer {
		l.nodes[v].pos = i
	}
}

// sep is how far the node at i in layer starts before the next one: its
// box, its labels, the gap, and room for the sides of the frames
// between them.
func (l *flowLayout) sep(layer []int, i int) int {
	n := &l.nodes[layer[i]]
	s := n.csize + n.extra + l.gap()
	if i+1 == len(layer) || len(l.fc.subs) == 0 {
		return s
	}
	a, b := l.chain(n.sub), l.chain(l.nodes[layer[i+1]].sub)
	common := 0
	for common < len(a) && common < len(b) && a[common] == b[common] {
		common++
	}
	for _, c := range [][]int{a[common:], b[common:]} {
		for _, sub := range c {
			s += 2 + 2*l.subHeight[sub]
		}
	}
	return s
}

// member reports whether node v is in subgraph s.
func (l *flowLayout) member(v, s int) bool {
	for t := l.nodes[v].sub; t >= 0; t = l.fc.subs[t].parent {
		if t == s {
			return true
		}
	}
	return false
}

// extent is subgraph s's frame around its nodes as they are placed, or
// false when it has none.
func (l *flowLayout) extent(s int) (frame, bool) {
	f := frame{sub: s, first: -1}
	for v, n := range l.nodes {
		if !l.member(v, s) {
			continue
		}
		lo, hi := n.cross, n.cross+n.csize+n.extra-1
		if f.first < 0 {
			f.cLo, f.cHi, f.first, f.last = lo, hi, n.layer, n.layer
			continue
		}
		f.cLo, f.cHi = min(f.cLo, lo), max(f.cHi, hi)
		f.first, f.last = min(f.first, n.layer), max(f.last, n.layer)
	}
	if f.first < 0 {
		return f, false
	}
	pad := 1 + 2*l.subHeight[s]
	f.cLo -= pad
	f.cHi += pad
	if !l.dir.horizontal() {
		// The title sits in the top line.
		f.cHi = max(f.cHi, f.cLo+widest([]string{l.fc.subs[s].title})+5)
	}
	return f, true
}

// pushFrames moves the nodes that are not in a subgraph but stand
// within its frame's span, in the layers the frame crosses, out to its
// sides, with the rest of their layer beyond them; inner frames first,
// twice over, since moving for one frame can widen another.
func (l *flowLayout) pushFrames() {
	if len(l.fc.subs) == 0 {
		return
	}
	order := make([]int, len(l.fc.subs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(l.chain(b)), len(l.chain(a))) })
	for range 2 {
		for _, s := range order {
			f, ok := l.extent(s)
			if !ok {
				continue
			}
			for k := f.first; k <= f.last; k++ {
				l.clearFrame(l.layers[k], s, f)
			}
		}
		l.pushApart(order)
	}
}

// clearFrame moves the nodes of layer that are not in subgraph s out of
// its frame f to the side they are on, with the rest of the layer
// beyond them.
func (l *flowLayout) clearFrame(layer []int, s int, f frame) {
	lo, hi := l.memberRun(layer, s, (f.cLo+f.cHi)/2)
	if hi+1 < len(layer) {
		if d := f.cHi + 2 - l.nodes[layer[hi+1]].cross; d > 0 {
			for _, v := range layer[hi+1:] {
				l.nodes[v].cross += d
			}
		}
	}
	if lo > 0 {
		n := &l.nodes[layer[lo-1]]
		if d := n.cross + n.csize + n.extra - 1 - (f.cLo - 2); d > 0 {
			for _, v := range layer[:lo] {
				l.nodes[v].cross -= d
			}
		}
	}
}

// memberRun is where subgraph s's members stand together in layer, from
// lo to hi; with none there, the empty run (hi = lo-1) before the first
// node whose centre is at or past mid.
func (l *flowLayout) memberRun(layer []int, s, mid int) (lo, hi int) {
	lo, hi = -1, -1
	for i, v := range layer {
		if l.member(v, s) {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo >= 0 {
		return lo, hi
	}
	lo = len(layer)
	for i, v := range layer {
		if n := &l.nodes[v]; n.cross+n.csize/2 >= mid {
			lo = i
			break
		}
	}
	return lo, lo - 1
}

// pushApart moves two frames that share a layer, neither inside the
// other, apart: the one whose nodes stand to the right, with the rest
// of each of its layers beyond it, goes right until the frames are two
// columns apart.
func (l *flowLayout) pushApart(order []int) {
	for i, a := range order {
		for _, b := range order[i+1:] {
			left, right, ok := l.sideBySide(a, b)
			if !ok {
				continue
			}
			if d := left.cHi + 2 - right.cLo; d > 0 {
				l.shiftFrame(right, d)
			}
		}
	}
}

// sideBySide is the frames of subgraphs a and b, the one whose centre
// is further left first, when they share a layer and neither is inside
// the other.
func (l *flowLayout) sideBySide(a, b int) (left, right frame, ok bool) {
	if slices.Contains(l.chain(a), b) || slices.Contains(l.chain(b), a) {
		return left, right, false
	}
	fa, okA := l.extent(a)
	fb, okB := l.extent(b)
	if !okA || !okB || fa.last < fb.first || fb.last < fa.first {
		return left, right, false
	}
	if fa.cLo+fa.cHi > fb.cLo+fb.cHi {
		return fb, fa, true
	}
	return fa, fb, true
}

// shiftFrame moves the nodes of f's subgraph d columns along, with the
// rest of each of its layers beyond them.
func (l *flowLayout) shiftFrame(f frame, d int) {
	for k := f.first; k <= f.last; k++ {
		layer := l.layers[k]
		from := slices.IndexFunc(layer, func(v int) bool { return l.member(v, f.sub) })
		if from < 0 {
			continue
		}
		for _, v := range layer[from:] {
			l.nodes[v].cross += d
		}
	}
}

// placeFrames puts each subgraph's frame around its nodes, outer frames
// first.
func (l *flowLayout) placeFrames() {
	l.frames = l.frames[:0]
	for s := range l.fc.subs {
		if f, ok := l.extent(s); ok {
			l.frames = append(l.frames, f)
		}
	}
	slices.SortStableFunc(l.frames, func(a, b frame) int {
		return cmp.Compare(len(l.chain(a.sub)), len(l.chain(b.sub)))
	})
}

// frameRows works out the rows of frame lines each gap holds: tops[k]
// the rows of the top lines of the frames whose first layer is k,
// bottoms[k] the rows of the bottom lines of those whose last layer is
// k. Frames side by side share a row; a frame's top line is below the
// top of a frame around it and its bottom line above the other's
// bottom. Each frame's row index within its gap is in f.top and
// f.bottom until measure places them.
func (l *flowLayout) frameRows() (tops, bottoms []int) {
	tops, bottoms = make([]int, len(l.layers)), make([]int, len(l.layers))
	// rows assigns row indexes to the frames at one end, outer first.
	assign := func(fs []int, set func(f, row int), get func(f int) int) int {
		n := 0
		for i, a := range fs {
			row := 0
			for _, b := range fs[:i] {
				fa, fb := &l.frames[a], &l.frames[b]
				overlap := fa.cLo <= fb.cHi+1 && fb.cLo <= fa.cHi+1
				if overlap {
					row = max(row, get(b)+1)
				}
			}
			set(a, row)
			n = max(n, row+1)
		}
		return n
	}
	for k := range l.layers {
		var starting, ending []int
		for i, f := range l.frames {
			if f.first == k {
				starting = append(starting, i)
			}
			if f.last == k {
				ending = append(ending, i)
			}
		}
		tops[k] = assign(starting, func(f, r int) { l.frames[f].top = r }, func(f int) int { return l.frames[f].top })
		bottoms[k] = assign(ending, func(f, r int) { l.frames[f].bottom = r }, func(f int) int { return l.frames[f].bottom })
	}
	return tops, bottoms
}

// checkFrames leaves out a frame that holds a node not in it or cuts
// through another frame.
func (l *flowLayout) checkFrames() {
	for i := range l.frames {
		f := &l.frames[i]
		if l.holdsOutsider(f) {
			f.drop = true
		}
		for j := range i {
			if o := &l.frames[j]; !o.drop && cuts(f, o) {
				f.drop = true
			}
		}
	}
}

// holdsOutsider reports whether a node's box that is not in f's subgraph
// stands within frame f.
func (l *flowLayout) holdsOutsider(f *frame) bool {
	for _, n := range l.nodes {
		if n.real < 0 || slices.Contains(l.chain(n.sub), f.sub) {
			continue
		}
		m0 := l.mpos[n.layer]
		if n.cross <= f.cHi && n.cross+n.csize-1 >= f.cLo && m0 <= f.bottom && m0+n.msize-1 >= f.top {
			return true
		}
	}
	return false
}

// cuts reports whether frame f cuts through frame o: they overlap and f
// is not wholly inside o.
func cuts(f, o *frame) bool {
	disjoint := f.cLo > o.cHi || f.cHi < o.cLo || f.top > o.bottom || f.bottom < o.top
	inside := f.cLo > o.cLo && f.cHi < o.cHi && f.top > o.top && f.bottom < o.bottom
	return !disjoint && !inside
}

// drawFrames draws the frames that are kept, dotted, their titles in
// their top lines.
func (l *flowLayout) drawFrames(g *grid) {
	for _, f := range l.frames {
		if f.drop {
			continue
		}
		x0, y0 := l.xy(f.cLo, f.top)
		x1, y1 := l.xy(f.cHi, f.bottom)
		g.hline(x0, x1, y0, dotted, Border)
		g.hline(x0, x1, y1, dotted, Border)
		g.vline(x0, y0, y1, dotted, Border)
		g.vline(x1, y0, y1, dotted, Border)
	}
}

// drawTitles writes each kept frame's title in its top line, or its
// bottom line, where no edge crosses the line if there is such a place,
// and marks in l.cut the subgraphs whose titles do not fit whole.
func (l *flowLayout) drawTitles(g *grid) {
	l.cut = make([]bool, len(l.fc.subs))
	for _, f := range l.frames {
		t := l.fc.subs[f.sub].title
		if f.drop || t == "" {
			continue
		}
		x0, y0 := l.xy(f.cLo, f.top)
		x1, y1 := l.xy(f.cHi, f.bottom)
		shown := fit(t, x1-x0-5)
		l.cut[f.sub] = shown != t
		shown = " " + shown + " "
		x, y := titlePlace(g, ansi.Width(shown), x0, x1, y0, y1)
		g.text(x, y, shown, Label)
	}
}

// titlePlace is where a title tw cells wide goes on a frame from x0 to
// x1 and from y0 to y1: the first place in its top line, then its
// bottom line, that no edge crosses, or the start of its top line.
func titlePlace(g *grid, tw, x0, x1, y0, y1 int) (int, int) {
	for _, y := range []int{y0, y1} {
		for x := x0 + 2; x+tw <= x1-1; x++ {
			if g.clear(x, y, tw) {
				return x, y
			}
		}
	}
	return x0 + 2, y0
}

// legend is a line for each subgraph whose title is not in its frame:
// the frame is left out, or has no node to frame, or is too narrow for
// the title. The line names the subgraph's nodes, so the grouping a
// frame would show is still told.
func (l *flowLayout) legend(width int) []Line {
	kept := make([]bool, len(l.fc.subs))
	for _, f := range l.frames {
		kept[f.sub] = !f.drop && !l.cut[f.sub]
	}
	var out []Line
	for s, sg := range l.fc.subs {
		if kept[s] || sg.title == "" || sg.inBlock {
			continue
		}
		text := "┄ " + sg.title
		if names := l.memberNames(s); len(names) > 0 {
			text += ": " + strings.Join(names, ", ")
		}
		for _, ln := range wrapHard([]string{text}, width) {
			out = append(out, Line{{Text: ln, Class: Label}})
		}
	}
	return out
}

// memberNames are the text of the nodes in subgraph s.
func (l *flowLayout) memberNames(s int) []string {
	var names []string
	for _, n := range l.fc.nodes {
		if slices.Contains(l.chain(n.sub), s) {
			names = append(names, strings.Join(n.lines, " "))
		}
	}
	return names
}
