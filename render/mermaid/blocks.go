package mermaid

import (
	"slices"

	"github.com/markii/markii/ansi"
)

// A subgraph whose statements give it a direction of its own, and none
// of whose nodes is linked to a node outside it, is drawn as mermaid
// draws it: laid out alone in its direction, and that drawing set in
// the chart as one node, a block framed with the subgraph's title, that
// edges to and from the subgraph's id meet. A subgraph linked outside
// is laid out in the chart's direction, as mermaid does too.

// blocks is fc, laid out in dir, with each subgraph that can be drawn
// in its own direction as a block: the outermost first, each inside
// drawn in at most width columns.
func (fc *flowchart) blocks(dir direction, width int) *flowchart {
	for s := range fc.subs {
		if !fc.ownDirection(s, dir) {
			continue
		}
		inner := fc.extract(s)
		art, _, err := layoutFlow(inner, inner.dir, width-4)
		if err != nil {
			continue
		}
		fc = fc.withBlock(s, art)
	}
	return fc
}

// ownDirection reports whether subgraph s is drawn in a direction of
// its own in a chart laid out in dir: it gives one that is not dir, it
// is not inside a block already, and no edge links a node in it with
// one outside it or with its own frame.
func (fc *flowchart) ownDirection(s int, dir direction) bool {
	sg := &fc.subs[s]
	if !sg.hasDir || sg.dir == dir || sg.inBlock || !fc.populated(s) {
		return false
	}
	return !slices.ContainsFunc(fc.edges, func(e edge) bool {
		return fc.endIn(e.from, e.fromSub, s) != fc.endIn(e.to, e.toSub, s)
	})
}

// populated reports whether a node stands in subgraph s.
func (fc *flowchart) populated(s int) bool {
	return slices.ContainsFunc(fc.nodes, func(n node) bool { return fc.inside(n.sub, s) })
}

// inside reports whether subgraph t is s or inside it.
func (fc *flowchart) inside(t, s int) bool {
	for ; t >= 0; t = fc.subs[t].parent {
		if t == s {
			return true
		}
	}
	return false
}

// endIn reports whether an edge's end, node v or the frame of subgraph
// sub, is inside subgraph s (a frame inside s's, not s's own).
func (fc *flowchart) endIn(v, sub, s int) bool {
	if sub >= 0 {
		return sub != s && fc.inside(sub, s)
	}
	return fc.inside(fc.nodes[v].sub, s)
}

// extract is subgraph s as a flowchart of its own, in its direction:
// its nodes, the subgraphs inside it and the edges between them.
func (fc *flowchart) extract(s int) *flowchart {
	out := &flowchart{dir: fc.subs[s].dir, index: map[string]int{}}
	subMap := make([]int, len(fc.subs))
	for t, sg := range fc.subs {
		subMap[t] = -1
		if t != s && fc.inside(t, s) {
			subMap[t] = len(out.subs)
			sg.parent = lookup(subMap, sg.parent)
			out.subs = append(out.subs, sg)
		}
	}
	nodeMap := make([]int, len(fc.nodes))
	for v, n := range fc.nodes {
		nodeMap[v] = -1
		if fc.inside(n.sub, s) {
			nodeMap[v] = len(out.nodes)
			n.sub = subMap[n.sub]
			out.nodes = append(out.nodes, n)
		}
	}
	for _, e := range fc.edges {
		if fc.endIn(e.from, e.fromSub, s) && fc.endIn(e.to, e.toSub, s) {
			e.from, e.to = lookup(nodeMap, e.from), lookup(nodeMap, e.to)
			e.fromSub, e.toSub = lookup(subMap, e.fromSub), lookup(subMap, e.toSub)
			out.edges = append(out.edges, e)
		}
	}
	return out
}

// lookup is m[i], or -1 for i < 0.
func lookup(m []int, i int) int {
	if i < 0 {
		return -1
	}
	return m[i]
}

// withBlock is fc with subgraph s's nodes and the edges between them
// replaced by one block node that shows art, where s's first node
// stood; an edge to or from s's frame meets the block.
func (fc *flowchart) withBlock(s int, art []Line) *flowchart {
	out := *fc
	out.subs = slices.Clone(fc.subs)
	for t := range out.subs {
		if fc.inside(t, s) {
			out.subs[t].inBlock = true
		}
	}
	out.nodes = nil
	nodeMap := make([]int, len(fc.nodes))
	blockAt := -1
	for v, n := range fc.nodes {
		if !fc.inside(n.sub, s) {
			nodeMap[v] = len(out.nodes)
			out.nodes = append(out.nodes, n)
			continue
		}
		if blockAt < 0 {
			blockAt = len(out.nodes)
			out.nodes = append(out.nodes, node{lines: []string{fc.subs[s].title}, shape: block, sub: fc.subs[s].parent, art: art})
		}
		nodeMap[v] = blockAt
	}
	out.edges = nil
	for _, e := range fc.edges {
		if fc.endIn(e.from, e.fromSub, s) {
			continue // inside the block, and so is its other end
		}
		e.from, e.fromSub = endAtBlock(e.from, e.fromSub, s, nodeMap, blockAt)
		e.to, e.toSub = endAtBlock(e.to, e.toSub, s, nodeMap, blockAt)
		out.edges = append(out.edges, e)
	}
	return &out
}

// endAtBlock is an edge end once subgraph s is the block node at blockAt.
func endAtBlock(v, sub, s int, nodeMap []int, blockAt int) (int, int) {
	if sub == s {
		return blockAt, -1
	}
	return lookup(nodeMap, v), sub
}

// blockSize is the box a block needs: its drawing inside a dotted
// frame, with a column of room each side, and its title in the top line.
func blockSize(title string, art []Line) (w, h int) {
	aw := 0
	for _, ln := range art {
		aw = max(aw, lineWidth(ln))
	}
	return max(aw+4, widest([]string{title})+6), len(art) + 2
}

// lineWidth is the cells a line of a drawing takes.
func lineWidth(ln Line) int {
	w := 0
	for _, sp := range ln {
		w += ansi.Width(sp.Text)
	}
	return w
}

// drawBlock draws a block at (x, y), w×h: a dotted frame with the title
// in its top line and the drawing inside, each span in its class.
func drawBlock(g *grid, x, y, w, h int, title string, art []Line) {
	drawBox(g, x, y, w, h, block, nil)
	if title != "" {
		g.text(x+2, y, " "+title+" ", Label)
	}
	for i, ln := range art {
		cx := x + 2
		for _, sp := range ln {
			cx += g.text(cx, y+1+i, sp.Text, sp.Class)
		}
	}
}
