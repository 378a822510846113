package mermaid

import (
	"cmp"
	"slices"
)

// The layered layout of a flowchart. Nodes are put in layers by the
// longest path to them (an edge that closes a cycle, found by a depth
// first search, counts backwards); an edge across several layers passes
// through a dummy node in each layer between; a few barycenter sweeps
// order each layer; each node is then placed as near its neighbours as
// the order allows (least squares, by pool adjacent violators); and each
// edge between two adjacent layers is routed down from its upper end to
// a track of its own in the gap, across to its lower end's column and
// down into it, the edges leaving one node by one port sharing a track.
// "Cross" is the axis along a layer (x when the layers are rows), "main"
// the axis across layers.

// lnode is a node of the layout: a flowchart node or a dummy.
type lnode struct {
	real  int // index in flowchart.nodes, or -1 for a dummy
	layer int
	pos   int // index within its layer
	cross int // position of its box along the layer
	// w and h are its box's size in cells; csize and msize the same along
	// the cross and main axes; extra the cells its edge labels take past
	// its box on the cross axis.
	w, h, csize, msize, extra int
	lines                     []string
	shape                     shape
	ups, downs                []int // segments that end at it from above, leave it below
	upOff, downOff            []int // port offsets along the cross axis
	style                     lineStyle
	sub                       int // the innermost subgraph it is in, or -1
}

// seg is an edge, or a piece of one, between two adjacent layers.
type seg struct {
	upper, lower     int // lnode indices
	headUp, headDown bool
	label            string
	style            lineStyle
	upPort, downPort int // index into upper.downOff and lower.upOff
	track            int
}

// flowLayout is one layout of a flowchart in one direction.
type flowLayout struct {
	fc     *flowchart
	dir    direction
	nodes  []lnode
	segs   []seg
	layers [][]int
	// band is each layer's size on the main axis, mpos where it starts;
	// gaps are the spaces between layers.
	band, mpos []int
	gaps       []gapPlan
	// subHeight is how deep each subgraph's subgraphs nest; frames are
	// the subgraphs' frames once placed.
	subHeight []int
	frames    []frame
}

// drawFlowchart draws fc in at most width columns: in its own direction,
// or turned a quarter (top-down for left-right) when that is too wide,
// and then with its nodes' text wrapped at 32, 24, 16 and then 12 columns, as
// mermaid wraps long text in a box.
func drawFlowchart(fc *flowchart, width int) ([]Line, error) {
	if len(fc.nodes) == 0 {
		return nil, errorf(Syntax, "this flowchart has no nodes")
	}
	turned := map[direction]direction{topDown: leftRight, leftRight: topDown, bottomUp: rightLeft, rightLeft: bottomUp}[fc.dir]
	need := -1
	var last error
	for _, limit := range wrapLimits {
		g := fc
		if limit > 0 {
			var changed bool
			if g, changed = fc.wrapped(limit); !changed {
				continue
			}
		}
		for _, dir := range []direction{fc.dir, turned} {
			lines, w, err := layoutFlow(g, dir, width)
			if err == nil {
				return lines, nil
			}
			if e, ok := err.(*Error); !ok || e.Reason != TooWide {
				if g == fc && dir == fc.dir {
					return nil, err
				}
				last = err
				continue
			}
			if need < 0 || w < need {
				need = w
			}
		}
	}
	if need < 0 {
		return nil, last
	}
	return nil, tooWide("flowchart", need, width)
}

// wrapLimits are the widths text is wrapped at when a diagram is too
// wide, 0 for not wrapped.
var wrapLimits = []int{0, 32, 24, 16, 12}

// wrapped is fc with its nodes' text wrapped at limit columns, and
// whether that changed anything.
func (fc *flowchart) wrapped(limit int) (*flowchart, bool) {
	out := *fc
	out.nodes = slices.Clone(fc.nodes)
	changed := false
	for i := range out.nodes {
		n := &out.nodes[i]
		if widest(n.lines) > limit {
			n.lines = wrapText(n.lines, limit)
			changed = true
		}
	}
	return &out, changed
}

// layoutFlow lays fc out in dir and draws it, or fails with a TooWide
// error and the width it needs when it is wider than width.
func layoutFlow(fc *flowchart, dir direction, width int) ([]Line, int, error) {
	l, err := newFlowLayout(fc, dir)
	if err != nil {
		return nil, 0, err
	}
	w, h := l.measure()
	if w > width {
		return nil, w, tooWide("flowchart", w, width)
	}
	if h > MaxHeight {
		return nil, w, tooTall("flowchart", h)
	}
	return l.draw(w, h).lines(), w, nil
}

// newFlowLayout layers, orders and places fc's nodes.
func newFlowLayout(fc *flowchart, dir direction) (*flowLayout, error) {
	l := &flowLayout{fc: fc, dir: dir}
	layer := l.layering()
	dummies := 0
	for _, e := range fc.edges {
		d := layer[e.to] - layer[e.from]
		dummies += max(d, -d) - 1
	}
	if dummies > maxDummies {
		return nil, errorf(TooLarge, "flowcharts whose edges cross more than %d layers in all are shown as source", maxDummies)
	}
	top := slices.Max(layer)
	l.layers = make([][]int, top+1)
	for i, n := range fc.nodes {
		lines := n.lines
		for _, lp := range n.loops {
			if lp == "" {
				lines = append(lines[:len(lines):len(lines)], "↻")
			} else {
				lines = append(lines[:len(lines):len(lines)], "↻ "+lp)
			}
		}
		l.add(lnode{real: i, layer: layer[i], lines: lines, shape: n.shape, sub: n.sub})
	}
	for _, e := range fc.edges {
		a, b := e.from, e.to
		headUp, headDown := e.headFrom, e.headTo
		if layer[a] > layer[b] {
			a, b = b, a
			headUp, headDown = headDown, headUp
		}
		prev := a
		for k := layer[a] + 1; k < layer[b]; k++ {
			d := l.add(lnode{real: -1, layer: k, style: e.style, sub: l.lca(fc.nodes[e.from].sub, fc.nodes[e.to].sub)})
			l.link(seg{upper: prev, lower: d, headUp: headUp && prev == a, style: e.style})
			prev = d
		}
		l.link(seg{upper: prev, lower: b, headUp: headUp && prev == a, headDown: headDown, label: e.label, style: e.style})
	}
	l.subHeights()
	l.order()
	l.ports()
	l.place()
	return l, nil
}

// add appends a node to its layer and returns its index.
func (l *flowLayout) add(n lnode) int {
	i := len(l.nodes)
	n.pos = len(l.layers[n.layer])
	l.layers[n.layer] = append(l.layers[n.layer], i)
	l.nodes = append(l.nodes, n)
	return i
}

// link adds a segment.
func (l *flowLayout) link(s seg) {
	i := len(l.segs)
	l.segs = append(l.segs, s)
	l.nodes[s.upper].downs = append(l.nodes[s.upper].downs, i)
	l.nodes[s.lower].ups = append(l.nodes[s.lower].ups, i)
}

// layering gives each flowchart node its layer: the longest path to it
// once the edges a depth first search finds closing a cycle are turned
// round; bottom-up and right-left charts count from the other end.
func (l *flowLayout) layering() []int {
	fc := l.fc
	layer := longestPaths(len(fc.nodes), fc.edges, backEdges(len(fc.nodes), fc.edges))
	if l.dir == bottomUp || l.dir == rightLeft {
		top := slices.Max(layer)
		for v := range layer {
			layer[v] = top - layer[v]
		}
	}
	return layer
}

// backEdges marks the edges among n nodes that a depth first search
// finds closing a cycle.
func backEdges(n int, edges []edge) []bool {
	out := make([][]int, n)
	for i, e := range edges {
		out[e.from] = append(out[e.from], i)
	}
	back := make([]bool, len(edges))
	const (
		unseen = iota
		onPath
		finished
	)
	state := make([]uint8, n)
	type frame struct{ v, next int }
	var stack []frame
	for root := range n {
		if state[root] != unseen {
			continue
		}
		state[root] = onPath
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(out[f.v]) {
				state[f.v] = finished
				stack = stack[:len(stack)-1]
				continue
			}
			e := out[f.v][f.next]
			f.next++
			switch w := edges[e].to; state[w] {
			case unseen:
				state[w] = onPath
				stack = append(stack, frame{w, 0})
			case onPath:
				back[e] = true
			}
		}
	}
	return back
}

// longestPaths is the length of the longest path to each of n nodes
// along edges, the ones marked back turned round.
func longestPaths(n int, edges []edge, back []bool) []int {
	succ := make([][]int, n)
	indeg := make([]int, n)
	for i, e := range edges {
		a, b := e.from, e.to
		if back[i] {
			a, b = b, a
		}
		succ[a] = append(succ[a], b)
		indeg[b]++
	}
	layer := make([]int, n)
	queue := make([]int, 0, n)
	for v := range n {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for k := 0; k < len(queue); k++ {
		v := queue[k]
		for _, w := range succ[v] {
			layer[w] = max(layer[w], layer[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	return layer
}

// order sorts each layer by the mean position of each node's neighbours
// in the layer before it, sweeping down and up a few times.
func (l *flowLayout) order() {
	key := make([]int, len(l.nodes))
	sweep := func(k int, upward bool) {
		for _, v := range l.layers[k] {
			n := &l.nodes[v]
			ends := n.ups
			if upward {
				ends = n.downs
			}
			if len(ends) == 0 {
				key[v] = n.pos * 2 * len(l.nodes)
				continue
			}
			sum := 0
			for _, s := range ends {
				o := l.segs[s].upper
				if upward {
					o = l.segs[s].lower
				}
				sum += l.nodes[o].pos
			}
			key[v] = sum * 2 * len(l.nodes) / len(ends)
		}
		slices.SortStableFunc(l.layers[k], func(a, b int) int { return cmp.Compare(key[a], key[b]) })
		for i, v := range l.layers[k] {
			l.nodes[v].pos = i
		}
		l.cluster(k)
	}
	for k := range l.layers {
		l.cluster(k)
	}
	for range 4 {
		for k := 1; k < len(l.layers); k++ {
			sweep(k, false)
		}
		for k := len(l.layers) - 2; k >= 0; k-- {
			sweep(k, true)
		}
	}
}

// ports orders each node's segments along its sides and sizes its box
// to hold them: on its lower side the edges that leave it without an
// arrowhead share one port, on its upper side each edge has its own,
// far enough from the next for its label (beside it when layers are
// rows).
func (l *flowLayout) ports() {
	for v := range l.nodes {
		n := &l.nodes[v]
		// Each side ordered by the other ends' positions.
		slices.SortStableFunc(n.ups, func(a, b int) int {
			return cmp.Compare(l.nodes[l.segs[a].upper].pos, l.nodes[l.segs[b].upper].pos)
		})
		slices.SortStableFunc(n.downs, func(a, b int) int {
			return cmp.Compare(l.nodes[l.segs[a].lower].pos, l.nodes[l.segs[b].lower].pos)
		})
		if n.real < 0 {
			// A point on a long edge: one port through it.
			for _, s := range n.ups {
				l.segs[s].downPort = 0
			}
			for _, s := range n.downs {
				l.segs[s].upPort = 0
			}
			n.csize, n.upOff, n.downOff = 1, []int{0}, []int{0}
			continue
		}
		upLabel := l.upPorts(n)
		l.size(n, upLabel, l.downPorts(n))
	}
}

// upPorts gives each segment into n's upper side its own port, in
// order, and returns the width of the label each port's line carries
// beside it (0 for none, and always 0 when layers are rows).
func (l *flowLayout) upPorts(n *lnode) []int {
	upLabel := make([]int, 0, len(n.ups))
	for i, s := range n.ups {
		l.segs[s].downPort = i
		w := 0
		if !l.dir.horizontal() {
			w = widest([]string{l.segs[s].label})
		}
		upLabel = append(upLabel, w)
	}
	return upLabel
}

// downPorts gives the segments out of n's lower side their ports: one
// each for a segment with an arrowhead at n, one shared by the rest.
// It returns how many ports there are.
func (l *flowLayout) downPorts(n *lnode) int {
	ports, shared := 0, -1
	for _, s := range n.downs {
		sg := &l.segs[s]
		if sg.headUp {
			sg.upPort = ports
			ports++
			continue
		}
		if shared < 0 {
			shared = ports
			ports++
		}
		sg.upPort = shared
	}
	return ports
}

// size sizes n's box to hold its text and its ports, and places the
// ports centred on their sides.
func (l *flowLayout) size(n *lnode, upLabel []int, downPorts int) {
	horiz := l.dir.horizontal()
	step := 2
	if horiz {
		step = 1
	}
	var upSpan, downSpan int
	n.upOff, upSpan = portOffsets(len(n.ups), step, upLabel)
	n.downOff, downSpan = portOffsets(downPorts, step, nil)
	tw, th := widest(n.lines)+4, len(n.lines)+2
	if n.shape == subroutine {
		tw += 2
	}
	if n.shape == cylinder {
		th++
	}
	n.w, n.h = tw, th
	if horiz {
		n.h = max(th, upSpan+2, downSpan+2)
		n.csize, n.msize = n.h, n.w
	} else {
		n.w = max(tw, upSpan+2, downSpan+2)
		n.csize, n.msize = n.w, n.h
	}
	for i := range n.upOff {
		n.upOff[i] += (n.csize - upSpan) / 2
	}
	for i := range n.downOff {
		n.downOff[i] += (n.csize - downSpan) / 2
	}
	for i, w := range upLabel {
		if w > 0 {
			n.extra = max(n.extra, n.upOff[i]+2+w-n.csize)
		}
	}
}

// portOffsets places count ports along a side from 0, step apart, or
// further where the port before has a label w wide beside its line
// (w+3); span is the cells they cover.
func portOffsets(count, step int, labels []int) (offs []int, span int) {
	offs = make([]int, count)
	for i := 1; i < count; i++ {
		gap := step
		if labels != nil && labels[i-1] > 0 {
			gap = max(gap, labels[i-1]+3)
		}
		offs[i] = offs[i-1] + gap
	}
	if count > 0 {
		span = offs[count-1] + 1
	}
	return offs, span
}

// gap is the space between two boxes along a layer.
func (l *flowLayout) gap() int {
	if l.dir.horizontal() {
		return 1
	}
	return 2
}

// place gives each node its cross position: packed, then swept down and
// up, each layer placed as near its neighbours' ports as its order
// allows.
func (l *flowLayout) place() {
	for _, layer := range l.layers {
		c := 0
		for i, v := range layer {
			l.nodes[v].cross = c
			c += l.sep(layer, i)
		}
	}
	var desired, sep []int
	sweep := func(k int, upward bool) {
		layer := l.layers[k]
		desired, sep = desired[:0], sep[:0]
		for i, v := range layer {
			sep = append(sep, l.sep(layer, i))
			desired = append(desired, l.desired(&l.nodes[v], upward))
		}
		for i, x := range isotonic(desired, sep) {
			l.nodes[layer[i]].cross = x
		}
	}
	for range 3 {
		for k := 1; k < len(l.layers); k++ {
			sweep(k, false)
		}
		for k := len(l.layers) - 2; k >= 0; k-- {
			sweep(k, true)
		}
	}
	for k := 1; k < len(l.layers); k++ {
		sweep(k, false)
	}
	l.pushFrames()
	l.placeFrames()
	l.shiftToZero()
}

// desired is where n's box would be best placed on the cross axis: the
// mean of where its edges' other ends (the layer above, or below when
// upward) would put it, or where it is when it has none.
func (l *flowLayout) desired(n *lnode, upward bool) int {
	ends := n.ups
	if upward {
		ends = n.downs
	}
	if len(ends) == 0 {
		return n.cross
	}
	sum := 0
	for _, s := range ends {
		sg := &l.segs[s]
		if upward {
			o := &l.nodes[sg.lower]
			sum += o.cross + o.upOff[sg.downPort] - n.downOff[sg.upPort]
		} else {
			o := &l.nodes[sg.upper]
			sum += o.cross + o.downOff[sg.upPort] - n.upOff[sg.downPort]
		}
	}
	return floorDiv(sum, len(ends))
}

// shiftToZero moves every node and frame so the leftmost starts at 0.
func (l *flowLayout) shiftToZero() {
	lo := 0
	for i, n := range l.nodes {
		if i == 0 || n.cross < lo {
			lo = n.cross
		}
	}
	for _, f := range l.frames {
		lo = min(lo, f.cLo)
	}
	for i := range l.nodes {
		l.nodes[i].cross -= lo
	}
	for i := range l.frames {
		l.frames[i].cLo -= lo
		l.frames[i].cHi -= lo
	}
}

// isotonic places items in order as near their desired positions as
// the separations allow: x[i+1] >= x[i]+sep[i], the sum of squared
// distances least (pool adjacent violators, in integers).
func isotonic(desired, sep []int) []int {
	type block struct{ sum, n, start int }
	var st []block
	off := make([]int, len(desired))
	o := 0
	for i, d := range desired {
		off[i] = o
		o += sep[i]
		st = append(st, block{d - off[i], 1, i})
		for len(st) > 1 {
			a, b := st[len(st)-2], st[len(st)-1]
			if a.sum*b.n <= b.sum*a.n {
				break
			}
			st = st[:len(st)-1]
			st[len(st)-1] = block{a.sum + b.sum, a.n + b.n, a.start}
		}
	}
	out := make([]int, len(desired))
	for k, b := range st {
		end := len(desired)
		if k+1 < len(st) {
			end = st[k+1].start
		}
		y := floorDiv(2*b.sum+b.n, 2*b.n)
		for i := b.start; i < end; i++ {
			out[i] = y + off[i]
		}
	}
	return out
}

// floorDiv is a/b rounded down, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
