package mermaid

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// evKind is what one event of a sequence diagram is.
type evKind uint8

const (
	message evKind = iota
	note
	blockStart
	blockElse
	blockEnd
)

// notePos is where a note stands.
type notePos uint8

const (
	rightOf notePos = iota
	leftOf
	over
)

// event is one row group of a sequence diagram: a message, a note, or
// the start, divider or end of a block (loop, alt, opt, par, ...).
type event struct {
	kind     evKind
	from, to int
	lines    []string
	style    lineStyle
	head     string // "►", "×", "▷" or "" for none, drawn pointing at to
	pos      notePos
	depth    int // blocks open around a block's start, divider or end
}

// participant is a sequence diagram's participant or actor.
type participant struct {
	id    string
	lines []string
	actor bool // drawn in a round box
}

// sequence is a parsed sequence diagram.
type sequence struct {
	title  string
	boxes  []partBox
	parts  []participant
	index  map[string]int
	events []event
	depth  int // deepest nesting of blocks
}

// arrows are the message arrows, longest first: the line's style and
// the arrowhead drawn.
var arrows = []struct {
	op    string
	style lineStyle
	head  string
}{
	{"<<-->>", dotted, "►"}, {"<<->>", solid, "►"}, {"-->>", dotted, "►"}, {"->>", solid, "►"},
	{"--x", dotted, "×"}, {"-x", solid, "×"}, {"--)", dotted, "▷"}, {"-)", solid, "▷"},
	{"-->", dotted, ""}, {"->", solid, ""},
}

// seqWord is what a statement's first word makes it.
type seqWord uint8

const (
	seqOther      seqWord = iota // a message
	seqIgnored                   // changes nothing drawn
	seqBlock                     // opens a block drawn as a frame
	seqDivider                   // divides a block
	seqAutonumber                // numbers the messages after it
	seqTitle                     // the diagram's title
	seqDeclare                   // a participant or an actor
	seqBox                       // a box of participants, not drawn
	seqEnd                       // closes a block or a box
	seqNote                      // a note
)

// seqWords are the first words of statements other than messages.
var seqWords = [...]struct {
	word string
	kind seqWord
}{
	{"activate", seqIgnored}, {"deactivate", seqIgnored}, {"accTitle", seqIgnored}, {"accDescr", seqIgnored},
	{"accTitle:", seqIgnored}, {"accDescr:", seqIgnored}, {"link", seqIgnored}, {"links", seqIgnored},
	{"properties", seqIgnored}, {"details", seqIgnored}, {"destroy", seqIgnored},
	{"loop", seqBlock}, {"alt", seqBlock}, {"opt", seqBlock}, {"par", seqBlock}, {"critical", seqBlock},
	{"break", seqBlock}, {"rect", seqBlock},
	{"else", seqDivider}, {"and", seqDivider}, {"option", seqDivider},
	{"autonumber", seqAutonumber}, {"title", seqTitle}, {"title:", seqTitle},
	{"participant", seqDeclare}, {"actor", seqDeclare}, {"box", seqBox}, {"end", seqEnd},
}

// sequenceWord classifies a statement's first word; note is in any case.
func sequenceWord(word string) seqWord {
	for _, w := range seqWords {
		if w.word == word {
			return w.kind
		}
	}
	if strings.EqualFold(word, "note") {
		return seqNote
	}
	return seqOther
}

// seqStmt is a sequence diagram's statement: all of it (s), its first
// word and the rest, and its source line.
type seqStmt struct {
	s, word, rest string
	line          int
}

// newSeqStmt splits a statement, a trailing ; taken off; `create` before
// a participant or a message changes nothing drawn.
func newSeqStmt(st stmt) seqStmt {
	c := splitSeqStmt(strings.TrimSpace(strings.TrimSuffix(st.text, ";")), st.line)
	if c.word == "create" {
		c = splitSeqStmt(c.rest, st.line)
	}
	return c
}

func splitSeqStmt(s string, line int) seqStmt {
	word, rest, _ := strings.Cut(s, " ")
	return seqStmt{s: s, word: word, rest: strings.TrimSpace(rest), line: line}
}

// seqReaders read each kind of statement.
var seqReaders = [...]func(*seqParser, seqStmt) error{
	seqOther:      (*seqParser).message,
	seqIgnored:    func(*seqParser, seqStmt) error { return nil },
	seqBlock:      (*seqParser).open,
	seqDivider:    (*seqParser).divide,
	seqAutonumber: func(p *seqParser, _ seqStmt) error { p.autonumber = 1; return nil },
	seqTitle:      func(p *seqParser, c seqStmt) error { p.sd.title = oneLine(c.rest); return nil },
	seqDeclare:    (*seqParser).declare,
	seqBox:        (*seqParser).box,
	seqEnd:        (*seqParser).end,
	seqNote:       (*seqParser).note,
}

// parseSequence reads a sequence diagram's statements; stmts[0] is its
// header.
func parseSequence(stmts []stmt) (*sequence, error) {
	p := &seqParser{sd: &sequence{index: map[string]int{}}, openBox: -1}
	for _, st := range stmts[1:] {
		if err := p.statement(st); err != nil {
			return nil, err
		}
	}
	if len(p.stack) > 0 {
		return nil, errorf(Syntax, "a block is not closed with end")
	}
	if len(p.sd.parts) == 0 {
		return nil, errorf(Syntax, "this sequence diagram has no participants")
	}
	return p.sd, nil
}

// seqParser is the state of reading a sequence diagram's statements.
type seqParser struct {
	sd         *sequence
	autonumber int    // the next message's number, 0 for none
	stack      []bool // open blocks; true for a box, which is not drawn
	openBox    int    // the box participants are declared in, or -1
	drawn      int    // open blocks that are drawn
}

// statement reads one statement.
func (p *seqParser) statement(st stmt) error {
	c := newSeqStmt(st)
	return seqReaders[sequenceWord(c.word)](p, c)
}

// partBox is a box of participants: mermaid draws it behind them with
// its title above; markii names them in a line below the diagram.
type partBox struct {
	title string
	parts []int
}

// box opens a box of participants: `box [color] [title]`, the color a
// CSS color (a name, #hex, rgb(...) or hsl(...)) when the first word is
// one, as mermaid reads it.
func (p *seqParser) box(c seqStmt) error {
	p.stack = append(p.stack, true)
	p.openBox = len(p.sd.boxes)
	p.sd.boxes = append(p.sd.boxes, partBox{title: oneLine(boxTitle(c.rest))})
	return nil
}

// boxTitle is the title of a box whose statement's rest is rest.
func boxTitle(rest string) string {
	lower := strings.ToLower(rest)
	for _, fn := range []string{"rgb(", "rgba(", "hsl(", "hsla("} {
		if strings.HasPrefix(lower, fn) {
			_, title, _ := strings.Cut(rest, ")")
			return title
		}
	}
	first, title, _ := strings.Cut(rest, " ")
	if isCSSColor(strings.ToLower(first)) {
		return title
	}
	return rest
}

// cssColors are the CSS color keywords, space-separated.
const cssColors = " transparent currentcolor aliceblue antiquewhite aqua aquamarine azure beige bisque black " +
	"blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue " +
	"cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta " +
	"darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray " +
	"darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick " +
	"floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew " +
	"hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral " +
	"lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen " +
	"lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta " +
	"maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue " +
	"mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite " +
	"navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise " +
	"palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown " +
	"royalblue saddlebrown salmon seagreen seashell sienna silver skyblue slateblue slategray slategrey snow " +
	"springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen "

// isCSSColor reports whether word (lower case) is a CSS color: a
// keyword or a #hex color.
func isCSSColor(word string) bool {
	if strings.HasPrefix(word, "#") {
		return len(word) > 1 && strings.Trim(word[1:], "0123456789abcdef") == ""
	}
	return word != "" && strings.Contains(cssColors, " "+word+" ")
}

// declare reads a participant or actor statement; its rest is "id" or
// "id as alias".
func (p *seqParser) declare(c seqStmt) error {
	id, alias, ok := strings.Cut(c.rest, " as ")
	id = strings.TrimSpace(id)
	if id == "" {
		return syntaxError(c.line, c.s, "a participant needs a name")
	}
	i, err := p.sd.participant(id)
	if err != nil {
		return err
	}
	if ok {
		p.sd.parts[i].lines = labelLines(alias)
	}
	p.sd.parts[i].actor = c.word == "actor"
	if p.openBox >= 0 {
		b := &p.sd.boxes[p.openBox]
		b.parts = append(b.parts, i)
	}
	return nil
}

// note reads a note statement.
func (p *seqParser) note(c seqStmt) error {
	e, err := p.sd.note(c.rest, c.line, c.s)
	if err != nil {
		return err
	}
	p.sd.events = append(p.sd.events, e)
	return nil
}

// open starts a block drawn as a frame (loop, alt, ...); rect frames
// have no title.
func (p *seqParser) open(c seqStmt) error {
	word, rest := c.word, c.rest
	if p.drawn == MaxDepth {
		return errorf(TooLarge, "sequence diagrams whose blocks nest deeper than %d are shown as source", MaxDepth)
	}
	title := word
	if word == "rect" {
		title = ""
	} else if rest != "" {
		title += " " + oneLine(rest)
	}
	p.sd.events = append(p.sd.events, event{kind: blockStart, lines: []string{title}, depth: p.drawn})
	p.stack = append(p.stack, false)
	p.drawn++
	p.sd.depth = max(p.sd.depth, p.drawn)
	return nil
}

// divide reads an else, and or option inside a drawn block.
func (p *seqParser) divide(c seqStmt) error {
	word, rest := c.word, c.rest
	if len(p.stack) == 0 || p.stack[len(p.stack)-1] {
		return syntaxError(c.line, c.s, word+" outside a block")
	}
	title := word
	if rest != "" {
		title += " " + oneLine(rest)
	}
	p.sd.events = append(p.sd.events, event{kind: blockElse, lines: []string{title}, depth: p.drawn - 1})
	return nil
}

// end closes the innermost block.
func (p *seqParser) end(c seqStmt) error {
	if len(p.stack) == 0 {
		return syntaxError(c.line, c.s, "end without a block")
	}
	if p.stack[len(p.stack)-1] {
		p.openBox = -1 // boxes do not nest
	} else {
		p.drawn--
		p.sd.events = append(p.sd.events, event{kind: blockEnd, depth: p.drawn})
	}
	p.stack = p.stack[:len(p.stack)-1]
	return nil
}

// message reads a message statement, numbering it after autonumber.
func (p *seqParser) message(c seqStmt) error {
	e, err := p.sd.message(c.s, c.line)
	if err != nil {
		return err
	}
	if p.autonumber > 0 {
		e.lines[0] = strings.TrimSpace(strconv.Itoa(p.autonumber) + ". " + e.lines[0])
		p.autonumber++
	}
	p.sd.events = append(p.sd.events, e)
	return nil
}

// participant returns the index of the participant id, adding it.
func (sd *sequence) participant(id string) (int, error) {
	if i, ok := sd.index[id]; ok {
		return i, nil
	}
	if len(sd.parts) == MaxParticipants {
		return 0, errorf(TooLarge, "sequence diagrams of more than %d participants are shown as source", MaxParticipants)
	}
	sd.index[id] = len(sd.parts)
	sd.parts = append(sd.parts, participant{id: id, lines: labelLines(id)})
	return len(sd.parts) - 1, nil
}

// note reads `left of A: text`, `right of A: text` or `over A[, B]: text`.
func (sd *sequence) note(rest string, line int, s string) (event, error) {
	e := event{kind: note}
	where, text, ok := strings.Cut(rest, ":")
	if !ok {
		return e, syntaxError(line, s, "a note needs a colon before its text")
	}
	e.pos, where, ok = notePlace(strings.TrimSpace(where))
	if !ok {
		return e, syntaxError(line, s, "a note is left of, right of or over a participant")
	}
	a, b, two := strings.Cut(where, ",")
	if err := sd.noteEnds(&e, a, b, two); err != nil {
		return e, err
	}
	if strings.TrimSpace(a) == "" || two && strings.TrimSpace(b) == "" {
		return e, syntaxError(line, s, "a note needs a participant")
	}
	e.lines = labelLines(text)
	return e, nil
}

// notePlaces are the words that place a note.
var notePlaces = [...]struct {
	prefix string
	pos    notePos
}{{"right of ", rightOf}, {"left of ", leftOf}, {"over ", over}}

// notePlace reads where a note stands from the start of where (in any
// case) and returns what follows: the participants it is beside.
func notePlace(where string) (notePos, string, bool) {
	lower := strings.ToLower(where)
	for _, np := range notePlaces {
		if strings.HasPrefix(lower, np.prefix) {
			return np.pos, where[len(np.prefix):], true
		}
	}
	return 0, where, false
}

// noteEnds sets the participants a note stands beside or over: a, or a
// and b when two, in their order.
func (sd *sequence) noteEnds(e *event, a, b string, two bool) error {
	var err error
	if e.from, err = sd.participant(strings.TrimSpace(a)); err != nil {
		return err
	}
	e.to = e.from
	if !two {
		return nil
	}
	if e.to, err = sd.participant(strings.TrimSpace(b)); err != nil {
		return err
	}
	if e.from > e.to {
		e.from, e.to = e.to, e.from
	}
	return nil
}

// message reads `A ->> B: text`.
func (sd *sequence) message(s string, line int) (event, error) {
	e := event{kind: message}
	i := strings.IndexAny(s, "-<")
	if i <= 0 {
		return e, syntaxError(line, s, "cannot read")
	}
	k := slices.IndexFunc(arrows, func(a struct {
		op    string
		style lineStyle
		head  string
	}) bool {
		return strings.HasPrefix(s[i:], a.op)
	})
	if k < 0 {
		return e, syntaxError(line, s, "cannot read the arrow")
	}
	e.style, e.head = arrows[k].style, arrows[k].head
	rest := strings.TrimLeft(s[i+len(arrows[k].op):], "+- ")
	to, text, _ := strings.Cut(rest, ":")
	from := strings.TrimSpace(s[:i])
	to = strings.TrimSpace(to)
	if to == "" {
		return e, syntaxError(line, s, "a message needs a receiver")
	}
	var err error
	if e.from, err = sd.participant(from); err != nil {
		return e, err
	}
	if e.to, err = sd.participant(to); err != nil {
		return e, err
	}
	e.lines = labelLines(text)
	return e, nil
}

// constraint asks for at least d columns between the lifelines of
// participants i < j.
type constraint struct{ i, j, d int }

// drawSequence draws sd in at most width columns, with its text
// wrapped at 32, 24, 16 and then 12 columns when it is too wide.
func drawSequence(sd *sequence, width int) ([]Line, error) {
	var fails fallback
	for _, limit := range wrapLimits {
		s := sd
		if limit > 0 {
			var changed bool
			if s, changed = sd.wrapped(limit); !changed {
				continue
			}
		}
		lines, w, err := layoutSequence(s, width)
		if err == nil {
			return lines, nil
		}
		if !fails.note(err, w) {
			return nil, err
		}
	}
	return nil, fails.err("sequence diagram", width)
}

// wrapped is sd with the text of its participants, messages and notes
// wrapped at limit columns, and whether that changed anything.
func (sd *sequence) wrapped(limit int) (*sequence, bool) {
	out := *sd
	out.parts = slices.Clone(sd.parts)
	out.events = slices.Clone(sd.events)
	changed := false
	for i := range out.parts {
		if p := &out.parts[i]; widest(p.lines) > limit {
			p.lines, changed = wrapText(p.lines, limit), true
		}
	}
	for i := range out.events {
		if e := &out.events[i]; (e.kind == message || e.kind == note) && widest(e.lines) > limit {
			e.lines, changed = wrapText(e.lines, limit), true
		}
	}
	return &out, changed
}

// layoutSequence lays sd out in at most width columns and draws it, or
// fails with a TooWide error and the width it needs.
func layoutSequence(sd *sequence, width int) ([]Line, int, error) {
	n := len(sd.parts)
	boxW := make([]int, n)
	boxH := 0
	for i, p := range sd.parts {
		boxW[i] = widest(p.lines) + 4
		boxH = max(boxH, len(p.lines)+2)
	}
	sp := newSpacing(boxW)
	for _, e := range sd.events {
		sp.event(e)
	}
	gaps := sp.gaps()
	centre := make([]int, n)
	centre[0] = sd.depth + sp.leftNeed[0]
	for i := 1; i < n; i++ {
		centre[i] = centre[i-1] + gaps[i-1]
	}
	w := sd.width(centre, sp.rightNeed)
	if w > width {
		return nil, w, tooWide("sequence diagram", w, width)
	}
	// The participants are drawn again below the last event, as mermaid
	// does by default (its mirrorActors setting), so a long diagram names
	// its lifelines at both ends.
	bottom := boxH + 1
	for _, e := range sd.events {
		bottom += e.rows()
	}
	h := bottom + boxH
	if h > MaxHeight {
		return nil, w, tooTall("sequence diagram", h)
	}
	g := newGrid(w, h)
	for i, p := range sd.parts {
		x := centre[i] - boxW[i]/2
		sh := rect
		if p.actor {
			sh = round
		}
		drawBox(g, x, 0, boxW[i], boxH, sh, p.lines)
		drawBox(g, x, bottom, boxW[i], boxH, sh, p.lines)
		g.vline(centre[i], boxH-1, bottom, solid, Border)
		g.put(centre[i], boxH-1, "┬", Border)
		g.put(centre[i], bottom, "┴", Border)
	}
	drawEvents(g, sd.events, centre, boxH)
	return append(g.lines(), sd.boxLines(width)...), w, nil
}

// boxLines is a line for each box of participants with a title: the
// title and the participants in it, wrapped in width.
func (sd *sequence) boxLines(width int) []Line {
	var out []Line
	for _, b := range sd.boxes {
		if b.title == "" {
			continue
		}
		names := make([]string, 0, len(b.parts))
		for _, i := range b.parts {
			names = append(names, strings.Join(sd.parts[i].lines, " "))
		}
		text := "┄ " + b.title
		if len(names) > 0 {
			text += ": " + strings.Join(names, ", ")
		}
		for _, ln := range wrapHard([]string{text}, width) {
			out = append(out, Line{{Text: ln, Class: Label}})
		}
	}
	return out
}

// spacing gathers the room a sequence diagram's participants need: the
// columns left of the first lifeline and right of the last, and the
// constraints between lifelines.
type spacing struct {
	leftNeed, rightNeed []int
	cs                  []constraint
}

// newSpacing is the room participant boxes boxW wide need: each box
// centred on its lifeline, one column apart from its neighbours.
func newSpacing(boxW []int) *spacing {
	n := len(boxW)
	sp := &spacing{leftNeed: make([]int, n), rightNeed: make([]int, n)}
	for i := range n {
		sp.leftNeed[i], sp.rightNeed[i] = boxW[i]/2, boxW[i]-boxW[i]/2-1
		if i > 0 {
			sp.need(i-1, i, boxW[i-1]-boxW[i-1]/2+boxW[i]/2+1)
		}
	}
	return sp
}

// need asks for at least d columns between lifelines i < j.
func (sp *spacing) need(i, j, d int) { sp.cs = append(sp.cs, constraint{i, j, d}) }

// side asks for d columns right (or left) of participant i's lifeline.
func (sp *spacing) side(i, d int, toRight bool) {
	n := len(sp.leftNeed)
	switch {
	case toRight && i+1 < n:
		sp.need(i, i+1, d+1)
	case toRight:
		sp.rightNeed[i] = max(sp.rightNeed[i], d)
	case i > 0:
		sp.need(i-1, i, d+1)
	default:
		sp.leftNeed[i] = max(sp.leftNeed[i], d)
	}
}

// event asks for the room a message's or a note's text needs.
func (sp *spacing) event(e event) {
	tw := widest(e.lines)
	switch e.kind {
	case message:
		if e.from == e.to {
			sp.side(e.from, tw+6, true)
			return
		}
		sp.need(min(e.from, e.to), max(e.from, e.to), max(tw+4, 6))
	case note:
		sp.note(e, tw+4)
	}
}

// note asks for the room a note nw columns wide needs.
func (sp *spacing) note(e event, nw int) {
	switch {
	case e.pos == rightOf:
		sp.side(e.from, nw+2, true)
	case e.pos == leftOf:
		sp.side(e.from, nw+2, false)
	case e.from == e.to:
		sp.side(e.from, nw/2+1, false)
		sp.side(e.from, nw-nw/2+1, true)
	default:
		sp.need(e.from, e.to, nw-4)
		sp.leftNeed[e.from] = max(sp.leftNeed[e.from], 3)
		sp.rightNeed[e.to] = max(sp.rightNeed[e.to], 3)
	}
}

// gaps is the columns between each lifeline and the next that meet
// every constraint: the narrowest spans first, each shortfall spread
// evenly over its span with the remainder on its rightmost gaps.
func (sp *spacing) gaps() []int {
	gaps := make([]int, max(len(sp.leftNeed)-1, 0))
	slices.SortStableFunc(sp.cs, func(a, b constraint) int { return cmp.Compare(a.j-a.i, b.j-b.i) })
	for _, c := range sp.cs {
		cur := 0
		for k := c.i; k < c.j; k++ {
			cur += gaps[k]
		}
		short := c.d - cur
		if short <= 0 {
			continue
		}
		span := c.j - c.i
		for k := c.i; k < c.j; k++ {
			gaps[k] += short / span
			if k >= c.j-short%span {
				gaps[k]++
			}
		}
	}
	return gaps
}

// width is the columns sd takes with its lifelines at centre: the
// rightmost participant's room and every block's label.
func (sd *sequence) width(centre, rightNeed []int) int {
	w := 0
	for i := range centre {
		w = max(w, centre[i]+rightNeed[i]+1+sd.depth)
	}
	for _, e := range sd.events {
		if e.kind == blockStart || e.kind == blockElse {
			w = max(w, widest(e.lines)+6+2*e.depth)
		}
	}
	return w
}

// drawEvents draws events one below the other from row y, the
// lifelines at centre.
func drawEvents(g *grid, events []event, centre []int, y int) {
	var open []int // the top rows of the blocks still open
	for _, e := range events {
		switch e.kind {
		case message:
			drawMessage(g, e, centre, y)
		case note:
			drawNote(g, e, centre, y)
		case blockStart:
			open = append(open, y)
			g.hline(e.depth, g.w-1-e.depth, y, solid, Border)
			if e.lines[0] != "" {
				g.text(e.depth+2, y, " "+e.lines[0]+" ", Label)
			}
		case blockElse:
			g.hline(e.depth, g.w-1-e.depth, y, dotted, Border)
			g.text(e.depth+2, y, " "+e.lines[0]+" ", Label)
		case blockEnd:
			top := open[len(open)-1]
			open = open[:len(open)-1]
			right := g.w - 1 - e.depth
			g.hline(e.depth, right, y, solid, Border)
			g.vline(e.depth, top, y, solid, Border)
			g.vline(right, top, y, solid, Border)
		}
		y += e.rows()
	}
}

// rows is how many rows an event takes.
func (e event) rows() int {
	switch e.kind {
	case message:
		if e.from == e.to {
			return max(2, len(e.lines))
		}
		if len(e.lines) == 1 && e.lines[0] == "" {
			return 1
		}
		return len(e.lines) + 1
	case note:
		return len(e.lines) + 2
	}
	return 1
}

// mirror is the arrowhead pointing left.
func mirror(head string) string {
	switch head {
	case "►":
		return "◄"
	case "▷":
		return "◁"
	}
	return head
}

// drawMessage draws a message from row y.
func drawMessage(g *grid, e event, centre []int, y int) {
	a, b := centre[e.from], centre[e.to]
	if a == b {
		g.hline(a, a+3, y, e.style, Edge)
		g.vline(a+3, y, y+1, e.style, Edge)
		g.hline(a, a+3, y+1, e.style, Edge)
		if e.head != "" {
			g.put(a+1, y+1, mirror(e.head), Edge)
		}
		for i, l := range e.lines {
			g.text(a+5, y+i, l, Label)
		}
		return
	}
	lo, hi := min(a, b), max(a, b)
	row := y + e.rows() - 1
	for i, l := range e.lines {
		if row == y {
			break
		}
		tw := widest([]string{l})
		g.text(lo+max((hi-lo-tw+1)/2, 2), y+i, l, Label)
	}
	g.hline(lo+1, hi-1, row, e.style, Edge)
	if e.head != "" {
		if b > a {
			g.put(b-1, row, e.head, Edge)
		} else {
			g.put(b+1, row, mirror(e.head), Edge)
		}
	}
}

// drawNote draws a note from row y.
func drawNote(g *grid, e event, centre []int, y int) {
	nw := widest(e.lines) + 4
	a, b := centre[e.from], centre[e.to]
	var x int
	switch {
	case e.pos == rightOf:
		x = a + 2
	case e.pos == leftOf:
		x = a - 1 - nw
	case e.from == e.to:
		x = a - nw/2
	default:
		nw = max(nw, b-a+5)
		x = (a+b)/2 - nw/2
	}
	h := len(e.lines) + 2
	for j := y + 1; j < y+h-1; j++ {
		for i := x + 1; i < x+nw-1; i++ {
			g.put(i, j, " ", Text)
		}
	}
	drawBox(g, x, y, nw, h, rect, e.lines)
}

func (sd *sequence) draw(width int) ([]Line, error) { return drawSequence(sd, width) }

func (sd *sequence) heading() string { return sd.title }

// shown is the text of sd's participants, messages, notes and blocks'
// titles.
func (sd *sequence) shown() []string {
	var out []string
	for _, p := range sd.parts {
		out = append(out, p.lines...)
	}
	for _, e := range sd.events {
		out = append(out, e.lines...)
	}
	for _, b := range sd.boxes {
		out = append(out, b.title)
	}
	return out
}
