package mermaid

import (
	"cmp"
	"slices"
	"strings"
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
	art                       []Line // a block's drawing
	ups, downs                []int  // segments that end at it from above, leave it below
	upOff, downOff            []int  // port offsets along the cross axis
	style                     lineStyle
	sub                       int // the innermost subgraph it is in, or -1
}

// seg is an edge, or a piece of one, between two adjacent layers.
type seg struct {
	upper, lower     int // lnode indices
	headUp, headDown bool
	lines            []string // its label's lines
	style            lineStyle
	upPort, downPort int // index into upper.downOff and lower.upOff
	track            int
	// upFrame is the subgraph whose frame's lower line it starts from,
	// downFrame the one whose upper line it ends at, or -1.
	upFrame, downFrame int
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
	// cut marks the subgraphs whose titles do not fit in their frames.
	cut []bool
}

// drawFlowchart draws fc in at most width columns, trying each of
// attempts in turn, and fails saying how wide it is at its narrowest.
func drawFlowchart(fc *flowchart, width int) ([]Line, error) {
	if len(fc.nodes) == 0 {
		return nil, errorf(Syntax, "this flowchart has no nodes")
	}
	var fails fallback
	for _, a := range attempts {
		g := fc
		if a.limit > 0 {
			var changed bool
			if g, changed = fc.wrapped(a.limit); !changed {
				continue
			}
		}
		dir := fc.dir
		if a.turned {
			dir = turnedDir[dir]
		}
		lines, w, err := layoutFlow(g, dir, width)
		if err == nil {
			return lines, nil
		}
		if !fails.note(err, w) && a == attempts[0] {
			return nil, err
		}
	}
	return nil, fails.err("flowchart", width)
}

// attempt is one way to draw a flowchart: its text wrapped at limit
// columns (0 for as written), and turned a quarter (top-down for
// left-right) or not.
type attempt struct {
	limit  int
	turned bool
}

// attempts are the ways a flowchart is drawn, the first that fits
// taken: as written; with its text wrapped at 32 columns, about where
// mermaid wraps a label; turned; and then with its text wrapped
// narrower, each way.
var attempts = []attempt{
	{0, false}, {32, false}, {0, true}, {32, true}, {24, false}, {24, true},
	{16, false}, {16, true}, {12, false}, {12, true},
}

// turnedDir is each direction turned a quarter.
var turnedDir = [...]direction{topDown: leftRight, bottomUp: rightLeft, leftRight: topDown, rightLeft: bottomUp}

// fallback gathers why the attempts to draw a diagram failed: the
// narrowest width one needed, or the last other error.
type fallback struct {
	need int // 0 for none yet
	last error
}

// note records a failed attempt that needed w columns, and reports
// whether it failed for being too wide.
func (f *fallback) note(err error, w int) bool {
	if e, ok := err.(*Error); !ok || e.Reason != TooWide {
		f.last = err
		return false
	}
	if f.need == 0 || w < f.need {
		f.need = w
	}
	return true
}

// err is the error shown for a kind of diagram none of whose attempts
// fit in width.
func (f *fallback) err(kind string, width int) error {
	if f.need == 0 {
		return f.last
	}
	return tooWide(kind, f.need, width)
}

// wrapLimits are the widths a sequence diagram's text is wrapped at
// when it is too wide, 0 for not wrapped.
var wrapLimits = []int{0, 32, 24, 16, 12}

// wrapped is fc with its nodes' text and its edges' labels wrapped at
// limit columns, and whether that changed anything.
func (fc *flowchart) wrapped(limit int) (*flowchart, bool) {
	out := *fc
	out.nodes = slices.Clone(fc.nodes)
	out.edges = slices.Clone(fc.edges)
	changed := false
	for i := range out.nodes {
		n := &out.nodes[i]
		if widest(n.lines) > limit {
			n.lines = wrapText(n.lines, limit)
			changed = true
		}
	}
	for i := range out.edges {
		e := &out.edges[i]
		if widest(e.lines) > limit {
			e.lines = wrapText(e.lines, limit)
			changed = true
		}
	}
	return &out, changed
}

// layoutFlow lays fc out in dir and draws it, or fails with a TooWide
// error and the width it needs when it is wider than width.
func layoutFlow(fc *flowchart, dir direction, width int) ([]Line, int, error) {
	l, err := newFlowLayout(fc.blocks(dir, width), dir)
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
	lines := l.draw(w, h).lines()
	lines = append(lines, l.legend(width)...)
	if len(lines) > MaxHeight {
		return nil, w, tooTall("flowchart", len(lines))
	}
	return lines, w, nil
}

// newFlowLayout layers, orders and places fc's nodes.
func newFlowLayout(fc *flowchart, dir direction) (*flowLayout, error) {
	l := &flowLayout{fc: fc, dir: dir}
	layer := l.layering()
	edges, loops := l.routedEdges(layer)
	dummies := 0
	for _, e := range edges {
		d := layer[e.to] - layer[e.from]
		dummies += max(d, -d) - 1
	}
	if dummies > maxDummies {
		return nil, errorf(TooLarge, "flowcharts whose edges cross more than %d layers in all are shown as source", maxDummies)
	}
	l.layers = make([][]int, slices.Max(layer)+1)
	for i, n := range fc.nodes {
		n.loops = append(n.loops[:len(n.loops):len(n.loops)], loops[i]...)
		l.add(lnode{real: i, layer: layer[i], lines: withLoops(n), shape: n.shape, sub: n.sub, art: n.art})
	}
	for _, e := range edges {
		l.addEdge(e, layer)
	}
	l.subHeights()
	l.order()
	l.ports()
	l.place()
	return l, nil
}

// withLoops is a node's text with a ↻ line for each edge to itself.
func withLoops(n node) []string {
	lines := n.lines
	for _, lp := range n.loops {
		lines = append(lines[:len(lines):len(lines)], strings.TrimSpace("↻ "+lp))
	}
	return lines
}

// addEdge adds edge e as segments between adjacent layers, through a
// dummy node in each layer it crosses.
func (l *flowLayout) addEdge(e edge, layer []int) {
	a, b := e.from, e.to
	headUp, headDown := e.headFrom, e.headTo
	upFrame, downFrame := e.fromSub, e.toSub
	if layer[a] > layer[b] {
		a, b = b, a
		headUp, headDown = headDown, headUp
		upFrame, downFrame = downFrame, upFrame
	}
	sub := l.lca(l.outside(e.from, e.fromSub), l.outside(e.to, e.toSub))
	prev := a
	for k := layer[a] + 1; k < layer[b]; k++ {
		d := l.add(lnode{real: -1, layer: k, style: e.style, sub: sub})
		l.link(seg{upper: prev, lower: d, headUp: headUp && prev == a, style: e.style, upFrame: frameIf(upFrame, prev == a), downFrame: -1})
		prev = d
	}
	l.link(seg{upper: prev, lower: b, headUp: headUp && prev == a, headDown: headDown, lines: e.lines, style: e.style,
		upFrame: frameIf(upFrame, prev == a), downFrame: downFrame})
}

// frameIf is sub when ok, else -1.
func frameIf(sub int, ok bool) int {
	if ok {
		return sub
	}
	return -1
}

// outside is the innermost subgraph an edge end stands in: the one
// around a frame it leaves or enters, or its node's.
func (l *flowLayout) outside(v, frame int) int {
	if frame >= 0 {
		return l.fc.subs[frame].parent
	}
	return l.fc.nodes[v].sub
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

// arc is an edge of the graph that layers are worked out on: the layer
// of to is at least w past from's.
type arc struct{ from, to, w int }

// layering gives each flowchart node its layer: the longest path to it
// once the arcs a depth first search finds closing a cycle are turned
// round; bottom-up and right-left charts count from the other end.
func (l *flowLayout) layering() []int {
	fc := l.fc
	n, arcs := l.arcs()
	layer := longestPaths(n, arcs, backEdges(n, arcs))[:len(fc.nodes)]
	if l.dir == bottomUp || l.dir == rightLeft {
		top := slices.Max(layer)
		for v := range layer {
			layer[v] = top - layer[v]
		}
	}
	return layer
}

// arcs are the edges to layer the nodes by, over the nodes and, for
// each subgraph, a point above its frame and one below: an edge into a
// frame puts every node in it below the edge's start, and an edge out
// of one every node in it above the edge's end.
func (l *flowLayout) arcs() (int, []arc) {
	fc := l.fc
	n := len(fc.nodes)
	top := func(s int) int { return n + 2*s }
	arcs := make([]arc, 0, len(fc.edges))
	into, outOf := make([]bool, len(fc.subs)), make([]bool, len(fc.subs))
	for _, e := range fc.edges {
		a, b, w := e.from, e.to, 1
		if e.fromSub >= 0 {
			a, outOf[e.fromSub] = top(e.fromSub)+1, true
		}
		if e.toSub >= 0 {
			b, w, into[e.toSub] = top(e.toSub), 0, true
		}
		arcs = append(arcs, arc{a, b, w})
	}
	for v, nd := range fc.nodes {
		for s := nd.sub; s >= 0; s = fc.subs[s].parent {
			if into[s] {
				arcs = append(arcs, arc{top(s), v, 1})
			}
			if outOf[s] {
				arcs = append(arcs, arc{v, top(s) + 1, 0})
			}
		}
	}
	return n + 2*len(fc.subs), arcs
}

// routedEdges are fc's edges with a node for each end at a frame: the
// node of the subgraph in its first layer for an edge that enters it
// from above, in its last for one that leaves it downwards. An edge
// between a frame and a node or frame within its layers (a node of its
// own, or a subgraph inside it) runs between the node and the frame's
// first node, or, when they are one node or in one layer and so have
// no room between them, is a loop on the node (or the inner frame's
// first node), its label kept; the nodes given such loops are returned
// beside.
func (l *flowLayout) routedEdges(layer []int) ([]edge, map[int][]string) {
	fc := l.fc
	if !slices.ContainsFunc(fc.edges, func(e edge) bool { return e.fromSub >= 0 || e.toSub >= 0 }) {
		return fc.edges, nil
	}
	span := l.subSpans(layer)
	out := make([]edge, 0, len(fc.edges))
	loops := map[int][]string{}
	for _, e := range fc.edges {
		fa, fb := endSpan(e.from, e.fromSub, layer, span), endSpan(e.to, e.toSub, layer, span)
		switch {
		case fa.hi < fb.lo:
			e.from, e.to = fa.lastNode, fb.firstNode
		case fb.hi < fa.lo:
			e.from, e.to = fa.firstNode, fb.lastNode
		default:
			a, b := fa.firstNode, fb.firstNode
			if layer[a] == layer[b] {
				v := innerEnd(e, fa, fb)
				loops[v] = append(loops[v], strings.Join(e.lines, " "))
				continue
			}
			e.from, e.to, e.fromSub, e.toSub = a, b, -1, -1
		}
		out = append(out, e)
	}
	return out, loops
}

// innerEnd is the node an edge between overlapping ends is a loop on:
// its end that is a node, or else its inner frame's first node.
func innerEnd(e edge, fa, fb layerSpan) int {
	switch {
	case e.fromSub < 0:
		return fa.firstNode
	case e.toSub < 0 || fb.hi-fb.lo < fa.hi-fa.lo:
		return fb.firstNode
	}
	return fa.firstNode
}

// layerSpan is the layers from lo to hi an edge end takes, and the
// first node declared in its first and in its last layer.
type layerSpan struct{ lo, hi, firstNode, lastNode int }

// subSpans is each subgraph's span of layers.
func (l *flowLayout) subSpans(layer []int) []layerSpan {
	fc := l.fc
	span := make([]layerSpan, len(fc.subs))
	for s := range span {
		span[s] = layerSpan{lo: -1}
	}
	for v, nd := range fc.nodes {
		for s := nd.sub; s >= 0; s = fc.subs[s].parent {
			sp := &span[s]
			first := sp.lo < 0
			if first || layer[v] < sp.lo {
				sp.lo, sp.firstNode = layer[v], v
			}
			if first || layer[v] > sp.hi {
				sp.hi, sp.lastNode = layer[v], v
			}
		}
	}
	return span
}

// endSpan is the span of an edge end: its node's layer, or its
// subgraph's span.
func endSpan(v, sub int, layer []int, span []layerSpan) layerSpan {
	if sub >= 0 {
		return span[sub]
	}
	return layerSpan{layer[v], layer[v], v, v}
}

// backEdges marks the arcs among n nodes that a depth first search
// finds closing a cycle.
func backEdges(n int, edges []arc) []bool {
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
// along arcs, the ones marked back turned round.
func longestPaths(n int, arcs []arc, back []bool) []int {
	type step struct{ to, w int }
	succ := make([][]step, n)
	indeg := make([]int, n)
	for i, e := range arcs {
		a, b := e.from, e.to
		if back[i] {
			a, b = b, a
		}
		succ[a] = append(succ[a], step{b, e.w})
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
		for _, s := range succ[v] {
			layer[s.to] = max(layer[s.to], layer[v]+s.w)
			if indeg[s.to]--; indeg[s.to] == 0 {
				queue = append(queue, s.to)
			}
		}
	}
	return layer
}

// order sorts each layer by the mean position of each node's neighbours
// in the layer before it, sweeping down and up a few times.
func (l *flowLayout) order() {
	key := make([]int, len(l.nodes))
	for k := range l.layers {
		l.cluster(k)
	}
	for range 4 {
		for k := 1; k < len(l.layers); k++ {
			l.orderLayer(k, false, key)
		}
		for k := len(l.layers) - 2; k >= 0; k-- {
			l.orderLayer(k, true, key)
		}
	}
}

// orderLayer sorts layer k by its nodes' barycenters in the layer above
// (below when upward), key holding them, and keeps each subgraph's
// nodes together.
func (l *flowLayout) orderLayer(k int, upward bool, key []int) {
	for _, v := range l.layers[k] {
		key[v] = l.barycenter(&l.nodes[v], upward)
	}
	slices.SortStableFunc(l.layers[k], func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	for i, v := range l.layers[k] {
		l.nodes[v].pos = i
	}
	l.cluster(k)
}

// barycenter is the mean position of n's neighbours above it (below
// when upward), scaled to keep the order of nodes of equal means, or
// its own position scaled alike when it has none.
func (l *flowLayout) barycenter(n *lnode, upward bool) int {
	ends := n.ups
	if upward {
		ends = n.downs
	}
	if len(ends) == 0 {
		return n.pos * 2 * len(l.nodes)
	}
	sum := 0
	for _, s := range ends {
		o := l.segs[s].upper
		if upward {
			o = l.segs[s].lower
		}
		sum += l.nodes[o].pos
	}
	return sum * 2 * len(l.nodes) / len(ends)
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
// order, and returns the cells past each port its label reaches on the
// cross axis: beside its line, 2 more than its width, when layers are
// rows; below it, its lines, when they are columns and it has more than
// one (a label of one line is drawn on the line); 0 for no label.
func (l *flowLayout) upPorts(n *lnode) []int {
	reach := make([]int, 0, len(n.ups))
	for i, s := range n.ups {
		l.segs[s].downPort = i
		lines := l.segs[s].lines
		r := 0
		switch {
		case len(lines) == 0:
		case !l.dir.horizontal():
			r = widest(lines) + 2
		case len(lines) > 1:
			r = len(lines)
		}
		reach = append(reach, r)
	}
	return reach
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
	n.w, n.h = textBox(n)
	if horiz {
		n.h = max(n.h, upSpan+2, downSpan+2)
		n.csize, n.msize = n.h, n.w
	} else {
		n.w = max(n.w, upSpan+2, downSpan+2)
		n.csize, n.msize = n.w, n.h
	}
	centre(n.upOff, (n.csize-upSpan)/2)
	centre(n.downOff, (n.csize-downSpan)/2)
	for i, r := range upLabel {
		if r > 0 {
			n.extra = max(n.extra, n.upOff[i]+r-n.csize)
		}
	}
}

// textBox is the box n's text (or a block's drawing) needs.
func textBox(n *lnode) (w, h int) {
	w, h = widest(n.lines)+4, len(n.lines)+2
	switch n.shape {
	case subroutine:
		w += 2
	case cylinder:
		h++
	case block:
		w, h = blockSize(n.lines[0], n.art)
	}
	return w, h
}

// centre moves each of offs by d.
func centre(offs []int, d int) {
	for i := range offs {
		offs[i] += d
	}
}

// portOffsets places count ports along a side from 0, step apart, or
// further where the port before has a label reaching r cells past it
// (r+1); span is the cells they cover.
func portOffsets(count, step int, reach []int) (offs []int, span int) {
	offs = make([]int, count)
	for i := 1; i < count; i++ {
		gap := step
		if reach != nil && reach[i-1] > 0 {
			gap = max(gap, reach[i-1]+1)
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
