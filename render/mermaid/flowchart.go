package mermaid

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// shape is how a flowchart node's box is drawn.
type shape uint8

const (
	rect       shape = iota // A[text], A
	block                   // a subgraph drawn in its own direction (blocks.go)
	round                   // A(text)
	stadium                 // A([text])
	circle                  // A((text)), A(((text)))
	subroutine              // A[[text]]
	cylinder                // A[(text)]
	flag                    // A>text]
	decision                // A{text}
	hexagon                 // A{{text}}
	slanted                 // A[/text/], A[\text\], A[/text\], A[\text/]
)

// direction is the way a flowchart's edges run.
type direction uint8

const (
	topDown direction = iota
	bottomUp
	leftRight
	rightLeft
)

// horizontal reports whether layers are columns.
func (d direction) horizontal() bool { return d == leftRight || d == rightLeft }

// node is one flowchart node.
type node struct {
	id    string
	lines []string
	shape shape
	loops []string // labels of its edges to itself
	sub   int      // the innermost subgraph it is in, or -1
	art   []Line   // a block's drawing
}

// subgraph is a group of nodes drawn in a frame with its title.
type subgraph struct {
	id, title string // id is "" for a subgraph named by a quoted title
	parent    int    // the subgraph it is in, or -1
	// dir is the direction its statements give, when hasDir.
	dir    direction
	hasDir bool
	// inBlock marks a subgraph drawn inside a block node (see blocks.go).
	inBlock bool
}

// edge is one flowchart edge between two nodes, or between a node and a
// subgraph's frame, or two frames.
type edge struct {
	from, to int
	// fromSub and toSub are the subgraph whose frame the edge leaves or
	// enters, or -1; from or to is then -1 until the layout picks a node
	// of the subgraph to route it to.
	fromSub, toSub int
	lines          []string // its label's lines, none for no label
	style          lineStyle
	// headTo and headFrom are arrowheads at the edge's ends.
	headTo, headFrom bool
	// invisible is a ~~~ link, which places nodes but is not drawn.
	invisible bool
}

// flowchart is a parsed graph or flowchart.
type flowchart struct {
	dir   direction
	nodes []node
	edges []edge
	index map[string]int
	subs  []subgraph
	open  []int // the subgraphs open where the parser is
}

// parseFlowchart reads a flowchart's statements; stmts[0] is its header.
func parseFlowchart(stmts []stmt) (*flowchart, error) {
	fc := &flowchart{index: map[string]int{}}
	head := strings.Fields(strings.ReplaceAll(stmts[0].text, ";", " "))
	if len(head) > 1 {
		dir, ok := directionOf(head[1])
		if !ok {
			return nil, syntaxError(stmts[0].line, stmts[0].text, "unknown direction")
		}
		fc.dir = dir
	}
	for _, st := range afterHeader(stmts) {
		for _, part := range splitStatements(st.text) {
			if err := fc.statement(part, st.line); err != nil {
				return nil, err
			}
		}
	}
	fc.subgraphEnds()
	return fc, nil
}

// directions are the words for a flowchart's directions.
var directions = [...]struct {
	word string
	dir  direction
}{{"TD", topDown}, {"TB", topDown}, {"BT", bottomUp}, {"LR", leftRight}, {"RL", rightLeft}}

// directionOf is the direction word names, in any case.
func directionOf(word string) (direction, bool) {
	for _, d := range directions {
		if strings.EqualFold(word, d.word) {
			return d.dir, true
		}
	}
	return topDown, false
}

// afterHeader is the statements after a flowchart's header, with what
// follows a semicolon on the header's line first.
func afterHeader(stmts []stmt) []stmt {
	rest := stmts[1:]
	if _, after, ok := strings.Cut(stmts[0].text, ";"); ok && strings.TrimSpace(after) != "" {
		rest = append([]stmt{{text: after, line: stmts[0].line}}, rest...)
	}
	return rest
}

// splitStatements splits a line at semicolons outside quotes, brackets
// and edge labels.
func splitStatements(s string) []string {
	if !strings.Contains(s, ";") {
		return []string{s}
	}
	var out []string
	var sc splitter
	start := 0
	for i := 0; i < len(s); i++ {
		if sc.ends(s[i]) {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// splitter follows where a line is: inside quotes, how deep in
// brackets, and inside a |label| outside brackets.
type splitter struct {
	depth       int
	quote, pipe bool
}

// ends moves past byte c and reports whether it is a semicolon that
// ends a statement.
func (sc *splitter) ends(c byte) bool {
	if c == '"' {
		sc.quote = !sc.quote
		return false
	}
	if sc.quote {
		return false
	}
	switch c {
	case '[', '(', '{':
		sc.depth++
	case ']', ')', '}':
		sc.depth = max(sc.depth-1, 0)
	case '|':
		sc.pipe = sc.pipe != (sc.depth == 0) // a | in brackets is text
	case ';':
		return sc.depth == 0 && !sc.pipe
	}
	return false
}

// subgraphHead is the id and title of `subgraph id`, `subgraph id
// [title]`, `subgraph "title"` or `subgraph a title of words`; the last
// two have no id an edge can name, as in mermaid.
func subgraphHead(rest string) (id, title string) {
	rest = strings.TrimSpace(rest)
	if i := strings.IndexByte(rest, '['); i > 0 && strings.HasSuffix(rest, "]") {
		return strings.TrimSpace(rest[:i]), oneLine(rest[i+1 : len(rest)-1])
	}
	if strings.ContainsAny(rest, " \t\"") {
		return "", oneLine(rest)
	}
	return rest, oneLine(rest)
}

// ignored are the statements that style or link a flowchart, which
// markii does not draw.
func ignored(word string) bool {
	switch word {
	case "direction", "classDef", "class", "style", "linkStyle", "click", "accTitle", "accDescr",
		"accTitle:", "accDescr:", "title", "title:":
		return true
	}
	return false
}

// statement reads one statement: a subgraph's start or end, a statement
// markii does not draw, or a chain of node groups joined by edges.
func (fc *flowchart) statement(s string, line int) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	word, rest, _ := strings.Cut(s, " ")
	switch {
	case word == "subgraph":
		return fc.openSubgraph(rest)
	case word == "end":
		fc.closeSubgraph()
		return nil
	case word == "direction" && len(fc.open) > 0:
		sg := &fc.subs[fc.open[len(fc.open)-1]]
		sg.dir, sg.hasDir = directionOf(strings.TrimSpace(rest))
		return nil
	case ignored(word):
		return nil
	}
	return fc.chain(s, line)
}

// closeSubgraph closes the innermost open subgraph, if any.
func (fc *flowchart) closeSubgraph() {
	if len(fc.open) > 0 {
		fc.open = fc.open[:len(fc.open)-1]
	}
}

// chain reads a statement of node groups joined by edges.
func (fc *flowchart) chain(s string, line int) error {
	p := &flowParser{s: s}
	var prev []int
	var pending edge
	for {
		p.space()
		ids, err := p.group(fc)
		if err != nil {
			return fc.wrap(err, line, s)
		}
		if err := fc.join(prev, ids, pending); err != nil {
			return err
		}
		p.space()
		if p.done() {
			return nil
		}
		e, ok := p.edge()
		if !ok {
			return syntaxError(line, s, "cannot read")
		}
		pending, prev = e, ids
		p.space()
		if p.done() {
			return syntaxError(line, s, "an edge leads nowhere")
		}
	}
}

// openSubgraph opens a subgraph inside the one open, if any; rest is
// what follows the word subgraph.
func (fc *flowchart) openSubgraph(rest string) error {
	if len(fc.subs) == MaxNodes {
		return errorf(TooLarge, "flowcharts of more than %d subgraphs are shown as source", MaxNodes)
	}
	parent := -1
	if len(fc.open) > 0 {
		parent = fc.open[len(fc.open)-1]
	}
	id, title := subgraphHead(rest)
	fc.open = append(fc.open, len(fc.subs))
	fc.subs = append(fc.subs, subgraph{id: id, title: title, parent: parent})
	return nil
}

// subgraphEnds turns each node named by a subgraph's id into that
// subgraph: an edge to or from it enters or leaves the subgraph's
// frame, as mermaid draws it, and the node itself is not drawn. A
// subgraph with no node of its own stays a node of that name.
func (fc *flowchart) subgraphEnds() {
	asSub := fc.namedSubgraphs()
	if len(asSub) == 0 {
		return
	}
	remap := make([]int, len(fc.nodes))
	var kept []node
	for i, n := range fc.nodes {
		remap[i] = -1
		if _, ok := asSub[i]; !ok {
			remap[i] = len(kept)
			kept = append(kept, n)
		}
	}
	edges := fc.edges[:0]
	for _, e := range fc.edges {
		e.from, e.fromSub = endOf(e.from, remap, asSub)
		e.to, e.toSub = endOf(e.to, remap, asSub)
		if e.fromSub < 0 || e.fromSub != e.toSub {
			edges = append(edges, e)
		}
	}
	fc.nodes, fc.edges = kept, edges
	clear(fc.index)
	for i, n := range fc.nodes {
		fc.index[n.id] = i
	}
}

// namedSubgraphs maps each node whose id names a subgraph with nodes of
// its own to that subgraph.
func (fc *flowchart) namedSubgraphs() map[int]int {
	byID := fc.subgraphIDs()
	named := map[int]int{}
	for i, n := range fc.nodes {
		if s, ok := byID[n.id]; ok {
			named[i] = s
		}
	}
	populated := make([]bool, len(fc.subs))
	for i, n := range fc.nodes {
		if _, ok := named[i]; !ok {
			fc.markChain(n.sub, populated)
		}
	}
	for i, s := range named {
		if !populated[s] {
			delete(named, i)
		}
	}
	return named
}

// subgraphIDs maps each subgraph id to the first subgraph of that id.
func (fc *flowchart) subgraphIDs() map[string]int {
	byID := map[string]int{}
	for s, sg := range fc.subs {
		if _, seen := byID[sg.id]; sg.id != "" && !seen {
			byID[sg.id] = s
		}
	}
	return byID
}

// markChain marks subgraph s and every subgraph around it.
func (fc *flowchart) markChain(s int, marks []bool) {
	for ; s >= 0; s = fc.subs[s].parent {
		marks[s] = true
	}
}

// endOf is an edge end's node after subgraphEnds, or -1 and the
// subgraph it names.
func endOf(v int, remap []int, asSub map[int]int) (int, int) {
	if s, ok := asSub[v]; ok {
		return -1, s
	}
	return remap[v], -1
}

// join adds the edge e from each node of from to each node of to; an
// edge from a node to itself is kept as a loop on the node, and an
// invisible edge is not added at all.
func (fc *flowchart) join(from, to []int, e edge) error {
	if e.invisible {
		return nil
	}
	for _, a := range from {
		for _, b := range to {
			if len(fc.edges) == MaxEdges {
				return errorf(TooLarge, "flowcharts of more than %d edges are shown as source", MaxEdges)
			}
			e.from, e.to = a, b
			if a == b {
				n := &fc.nodes[a]
				n.loops = append(n.loops, strings.Join(e.lines, " "))
				continue
			}
			fc.edges = append(fc.edges, e)
		}
	}
	return nil
}

// wrap turns a parse failure into the error shown.
func (fc *flowchart) wrap(err error, line int, s string) error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return syntaxError(line, s, err.Error())
}

type parseError string

func (e parseError) Error() string { return string(e) }

// flowParser reads one statement.
type flowParser struct {
	s    string
	i    int
	seen [4]found
}

// found remembers where a search for a byte from a position ended.
type found struct {
	from, at int
	ok       bool
}

// next is the index of the first b ('"', ']', ')' or '}') at or after
// from, or -1. Each search is remembered, so that a statement is read
// about once for each byte however many nodes it holds.
func (p *flowParser) next(b byte, from int) int {
	c := &p.seen[strings.IndexByte(`"])}`, b)]
	if c.ok && c.from <= from && (c.at < 0 || c.at >= from) {
		return c.at
	}
	at := strings.IndexByte(p.s[from:], b)
	if at >= 0 {
		at += from
	}
	*c = found{from: from, at: at, ok: true}
	return at
}

func (p *flowParser) done() bool { return p.i >= len(p.s) }

func (p *flowParser) peek(k int) byte {
	if p.i+k < len(p.s) {
		return p.s[p.i+k]
	}
	return 0
}

func (p *flowParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// idAt reports whether the byte at i continues a node id: a letter,
// digit, underscore or non-ASCII letter, or a '-' or '.' between two of
// them (so that "A-->B" ends A at the first '-').
func (p *flowParser) idAt(i int) bool {
	if i >= len(p.s) {
		return false
	}
	switch c := p.s[i]; {
	case isWordByte(c):
		return true
	case c == '-' || c == '.':
		return p.between(i)
	case c >= 0x80:
		r, _ := utf8.DecodeRuneInString(p.s[i:])
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// between reports whether the bytes either side of i are word bytes.
func (p *flowParser) between(i int) bool {
	return i > 0 && i+1 < len(p.s) && isWordByte(p.s[i+1]) && isWordByte(p.s[i-1])
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// group reads `node (& node)*`.
func (p *flowParser) group(fc *flowchart) ([]int, error) {
	var ids []int
	for {
		id, err := p.node(fc)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
		save := p.i
		p.space()
		if p.peek(0) != '&' {
			p.i = save
			return ids, nil
		}
		p.i++
		p.space()
	}
}

// nodeShape is a node shape with the brackets written around its text.
type nodeShape struct {
	open, close string
	shape       shape
}

// shapes are the node shapes by their opening bracket, longest first,
// with the closing bracket each needs.
var shapes = []nodeShape{
	{"(((", ")))", circle}, {"([", "])", stadium}, {"((", "))", circle}, {"[[", "]]", subroutine},
	{"[(", ")]", cylinder}, {"{{", "}}", hexagon}, {"[/", "/]", slanted}, {"[/", `\]`, slanted},
	{`[\`, `\]`, slanted}, {`[\`, "/]", slanted}, {"[", "]", rect}, {"(", ")", round},
	{"{", "}", decision}, {">", "]", flag},
}

// node reads a node id and its optional shape and text, adding the node
// on first sight; a later shape replaces an earlier one.
func (p *flowParser) node(fc *flowchart) (int, error) {
	id := p.id()
	if id == "" {
		return 0, parseError("expected a node")
	}
	idx, err := fc.nodeIndex(id)
	if err != nil {
		return 0, err
	}
	if err := p.shape(&fc.nodes[idx]); err != nil {
		return 0, err
	}
	// A class attached with ::: is styling only.
	if strings.HasPrefix(p.s[p.i:], ":::") {
		p.i += 3
		for p.idAt(p.i) {
			p.i++
		}
	}
	return idx, nil
}

// id reads a node id, or "" when none starts here.
func (p *flowParser) id() string {
	start := p.i
	for p.idAt(p.i) {
		if p.s[p.i] >= 0x80 {
			_, n := utf8.DecodeRuneInString(p.s[p.i:])
			p.i += n
		} else {
			p.i++
		}
	}
	return p.s[start:p.i]
}

// nodeIndex is the index of the node id, added on first sight, in the
// subgraph open if any.
func (fc *flowchart) nodeIndex(id string) (int, error) {
	idx, ok := fc.index[id]
	if !ok {
		if len(fc.nodes) == MaxNodes {
			return 0, errorf(TooLarge, "flowcharts of more than %d nodes are shown as source", MaxNodes)
		}
		idx = len(fc.nodes)
		fc.index[id] = idx
		fc.nodes = append(fc.nodes, node{id: id, lines: labelLines(id), sub: -1})
	}
	if len(fc.open) > 0 {
		fc.nodes[idx].sub = fc.open[len(fc.open)-1]
	}
	return idx, nil
}

// shape reads the shape and text that may follow a node's id.
func (p *flowParser) shape(n *node) error {
	for _, sh := range shapes {
		if !strings.HasPrefix(p.s[p.i:], sh.open) {
			continue
		}
		text, end, err := p.shapeText(sh)
		if err != nil {
			return err
		}
		if end < 0 {
			continue
		}
		p.i = end + len(sh.close)
		n.lines, n.shape = labelLines(text), sh.shape
		return nil
	}
	return nil
}

// shapeText reads the text of a node of shape sh whose opening bracket
// is at p.i: a quoted string, or everything up to sh's closing bracket.
// end is where the closing bracket starts, or -1 when sh does not close
// there.
func (p *flowParser) shapeText(sh nodeShape) (text string, end int, err error) {
	body := p.i + len(sh.open)
	t := p.spaceFrom(body)
	if t >= len(p.s) || p.s[t] != '"' {
		j := strings.IndexAny(sh.close, "])}")
		k := p.next(sh.close[j], body)
		if k < 0 || k-j < body || !strings.HasPrefix(p.s[k-j:], sh.close) {
			return "", -1, nil
		}
		return p.s[body : k-j], k - j, nil
	}
	q := p.next('"', t+1)
	if q < 0 {
		return "", -1, parseError("a quote is not closed")
	}
	after := p.spaceFrom(q + 1)
	if !strings.HasPrefix(p.s[after:], sh.close) {
		return "", -1, nil
	}
	return p.s[t+1 : q], after, nil
}

// spaceFrom is the index of the first byte from i on that is not a space.
func (p *flowParser) spaceFrom(i int) int {
	for i < len(p.s) && p.s[i] == ' ' {
		i++
	}
	return i
}

// count consumes a run of c and returns its length.
func (p *flowParser) count(c byte) int {
	n := 0
	for p.peek(0) == c {
		p.i++
		n++
	}
	return n
}

// head consumes an arrowhead: '>', or 'o' or 'x' (a circle or a cross,
// drawn as a plain arrowhead) when no node id follows.
func (p *flowParser) head() bool {
	switch p.peek(0) {
	case '>':
		p.i++
		return true
	case 'o', 'x':
		if !p.idAt(p.i + 1) {
			p.i++
			return true
		}
	}
	return false
}

// edge reads an edge operator with its optional label: -->, ---, -.->,
// -.-, ==>, ===, --o, --x, <-->, ~~~, -- text -->, -. text .->,
// == text ==> and a |label| after any of them.
func (p *flowParser) edge() (edge, bool) {
	e := edge{fromSub: -1, toSub: -1}
	if p.peek(0) == '<' {
		e.headFrom = true
		p.i++
	}
	if !p.arrow(&e) {
		return e, false
	}
	p.space()
	if p.peek(0) == '|' {
		k := strings.IndexByte(p.s[p.i+1:], '|')
		if k < 0 {
			return e, false
		}
		e.lines = edgeLabel(p.s[p.i+1 : p.i+1+k])
		p.i += k + 2
	}
	return e, true
}

// arrow reads an edge's line and arrowhead, and any label written in
// its line, into e.
func (p *flowParser) arrow(e *edge) bool {
	switch p.peek(0) {
	case '-':
		if n := p.count('-'); n > 1 {
			return p.lineEdge(e, "--", n)
		}
		return p.dottedEdge(e)
	case '=':
		e.style = thick
		n := p.count('=')
		return n >= 2 && p.lineEdge(e, "==", n)
	case '~':
		e.invisible = true
		return p.count('~') >= 3
	}
	return false
}

// dottedEdge reads the rest of a dotted edge after its first '-': .->,
// .-, or . text .->.
func (p *flowParser) dottedEdge(e *edge) bool {
	if p.peek(0) != '.' {
		return false
	}
	e.style = dotted
	p.count('.')
	if p.peek(0) != '-' {
		// -. text .->
		k := strings.Index(p.s[p.i:], ".-")
		if k < 0 {
			return false
		}
		e.lines = edgeLabel(p.s[p.i : p.i+k])
		p.i += k
		p.count('.')
	}
	if p.count('-') == 0 {
		return false
	}
	e.headTo = p.head()
	return true
}

// lineEdge reads the rest of a solid or thick edge after its first n
// line characters: an arrowhead, nothing more when n is 3 or more, or
// a label up to the next pair (-- or ==) and then the arrow's end.
func (p *flowParser) lineEdge(e *edge, pair string, n int) bool {
	if p.head() {
		e.headTo = true
		return true
	}
	if n >= 3 {
		return true
	}
	k := strings.Index(p.s[p.i:], pair)
	if k < 0 {
		return false
	}
	e.lines = edgeLabel(p.s[p.i : p.i+k])
	p.i += k
	p.count(pair[0])
	e.headTo = p.head()
	return true
}

// edgeLabel is an edge label's lines, or none for an empty label.
func edgeLabel(s string) []string {
	lines := labelLines(s)
	if strings.Join(lines, "") == "" {
		return nil
	}
	return lines
}

func (fc *flowchart) draw(width int) ([]Line, error) { return drawFlowchart(fc, width) }

func (fc *flowchart) heading() string { return "" }

// shown is the text of fc's nodes, their loops, its edges and its
// subgraphs' titles.
func (fc *flowchart) shown() []string {
	var out []string
	for _, n := range fc.nodes {
		out = append(append(out, n.lines...), n.loops...)
	}
	for _, e := range fc.edges {
		out = append(out, e.lines...)
	}
	for _, s := range fc.subs {
		out = append(out, s.title)
	}
	return out
}
