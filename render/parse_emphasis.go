package render

import (
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markii matches emphasis (`*`, `_`) and GFM strikethrough (`~`) itself.
//
// goldmark's parser pushes delimiter runs on a list and matches each
// closer against every earlier run (parser.ProcessDelimiters): a paragraph
// of runs that never match, such as `*a_ *a_ …`, costs the square of its
// length. markii reads the runs by goldmark's flanking rules (those of
// parser.ScanDelimiter, see scanRun) but keeps them on a stack of its
// own, which goldmark's processing never sees, and matches them with
// the CommonMark algorithm of "process emphasis" including its "openers
// bottom": once a closer found no opener below it, no later closer of
// the same kind looks below that point again. A kind is what decides a match: the character,
// whether the closer can also open, and its length modulo 3 (the rule of
// multiples of 3). Matching, consuming and nesting otherwise follow
// goldmark's processing step for step, so the tree is goldmark's; the spec
// tests hold it to that.
//
// The stack is matched when the block's inlines are parsed (emphasisRuns's
// CloseBlock) and, for the runs inside a link text, an image description
// or a directive label, when that closes (resolveInside).

// delimiterRun is a run of `*`, `_` or `~` in the inline tree that is not
// matched yet. It is a leaf of the tree (runnode.go implements ast.Node
// for it) and does not embed ast.BaseInline, whose child list and
// attributes a run never uses: a paragraph of runs is mostly runs, and
// the smaller run is a fifth less memory for the whole parse.
type delimiterRun struct {
	parent, nextSibling, prevSibling ast.Node
	// start and length place the run's unmatched characters in the
	// source; matching takes characters off the end.
	start, length int
	// seq orders the runs of a block; prev and next link the stack.
	seq        int
	prev, next *delimiterRun
	char       byte
	// originalMod3 is the run's length before matching, modulo 3.
	originalMod3      byte
	canOpen, canClose bool
}

// segment is the run's unmatched characters.
func (d *delimiterRun) segment() text.Segment {
	return text.NewSegment(d.start, d.start+d.length)
}

// runStack is the block's unmatched runs, oldest first.
type runStack struct {
	block       ast.Node
	first, last *delimiterRun
	seq         int
}

var runStackKey = parser.NewContextKey()

func stackOf(block ast.Node, pc parser.Context) *runStack {
	if s, ok := pc.Get(runStackKey).(*runStack); ok && s.block == block {
		return s
	}
	s := &runStack{block: block}
	pc.Set(runStackKey, s)
	return s
}

func (s *runStack) push(d *delimiterRun) {
	s.seq++
	d.seq = s.seq
	d.prev = s.last
	if s.last != nil {
		s.last.next = d
	} else {
		s.first = d
	}
	s.last = d
}

// remove takes d off the stack and puts its unmatched characters back in
// the tree as text, as goldmark's RemoveDelimiter does.
func (s *runStack) remove(d *delimiterRun) {
	if d.prev != nil {
		d.prev.next = d.next
	} else {
		s.first = d.next
	}
	if d.next != nil {
		d.next.prev = d.prev
	} else {
		s.last = d.prev
	}
	d.prev, d.next = nil, nil
	parent := d.Parent()
	if d.length != 0 {
		ast.MergeOrReplaceTextSegment(parent, d, d.segment())
	} else {
		parent.RemoveChild(parent, d)
	}
}

// consume takes n characters off the end of d's run, as goldmark's
// Delimiter.ConsumeCharacters does.
func (d *delimiterRun) consume(n int) {
	d.length -= n
}

// runKind indexes openers bottoms: a closer's character, whether it can
// open, and its original length modulo 3.
func runKind(closer *delimiterRun) int {
	k := 0
	switch closer.char {
	case '_':
		k = 1
	case '~':
		k = 2
	}
	k = k*2 + b2i(closer.canOpen)
	return k*3 + int(closer.originalMod3)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// consumption is how many characters opener and closer give to their
// match: none when the rule of multiples of 3 forbids it (goldmark's
// Delimiter.CalcComsumption).
func consumption(opener, closer *delimiterRun) int {
	if (opener.canClose || closer.canOpen) && (opener.originalMod3+closer.originalMod3)%3 == 0 && closer.originalMod3 != 0 {
		return 0
	}
	if opener.length >= 2 && closer.length >= 2 {
		return 2
	}
	return 1
}

// process matches the runs above bottom (all of them when bottom is nil)
// and then takes every run above bottom off the stack.
func (s *runStack) process(bottom *delimiterRun) {
	bottomSeq := 0
	closer := s.first
	if bottom != nil {
		bottomSeq, closer = bottom.seq, bottom.next
	}
	// openersBottom[kind] is the seq below which no opener matches a closer
	// of that kind.
	var openersBottom [18]int
	for i := range openersBottom {
		openersBottom[i] = bottomSeq
	}
	for closer != nil {
		if !closer.canClose {
			closer = closer.next
			continue
		}
		kind := runKind(closer)
		if opener, consume := findOpener(closer, openersBottom[kind]); opener != nil {
			closer = s.match(opener, closer, consume)
		} else {
			closer = s.unmatched(closer, &openersBottom[kind])
		}
	}
	for s.last != nil && s.last != bottom {
		s.remove(s.last)
	}
}

// match makes the emphasis of opener and closer, takes the runs it used
// up off the stack, and returns the next closer to try: closer again
// while it has delimiters left.
func (s *runStack) match(opener, closer *delimiterRun, consume int) *delimiterRun {
	s.emphasize(opener, closer, consume)
	if opener.length == 0 {
		s.remove(opener)
	}
	if closer.length > 0 {
		return closer
	}
	next := closer.next
	s.remove(closer)
	return next
}

// unmatched leaves a closer no opener matches: no later closer of its
// kind looks for an opener at or below it (bottom), and it leaves the
// stack unless it can open. It returns the next closer to try.
func (s *runStack) unmatched(closer *delimiterRun, bottom *int) *delimiterRun {
	next := closer.next
	if closer.prev != nil {
		*bottom = closer.prev.seq
	}
	if !closer.canOpen {
		s.remove(closer)
	}
	return next
}

// findOpener returns the innermost opener above seq floor that closer
// matches, and how many delimiters the pair consumes; nil when none does.
func findOpener(closer *delimiterRun, floor int) (*delimiterRun, int) {
	for o := closer.prev; o != nil && o.seq > floor; o = o.prev {
		if !o.canOpen || o.char != closer.char || o.Parent() != closer.Parent() {
			continue
		}
		if consume := consumption(o, closer); consume > 0 {
			return o, consume
		}
	}
	return nil, 0
}

// emphasize makes the nodes between opener and closer the children of an
// emphasis (or strikethrough) node of consume delimiters, and takes the
// runs between them off the stack.
func (s *runStack) emphasize(opener, closer *delimiterRun, consume int) {
	opener.consume(consume)
	closer.consume(consume)
	var node ast.Node
	if closer.char == '~' {
		node = extast.NewStrikethrough()
	} else {
		node = ast.NewEmphasis(consume)
	}
	node.(interface{ SetPos(int) }).SetPos(opener.start)
	parent := opener.Parent()
	for c := opener.NextSibling(); c != nil && c != ast.Node(closer); {
		next := c.NextSibling()
		node.AppendChild(node, c)
		c = next
	}
	parent.InsertAfter(parent, opener, node)
	for c := opener.next; c != nil && c != closer; {
		next := c.next
		s.remove(c)
		c = next
	}
}

// resolveInside matches the runs that a link, an image or a directive
// label n has just taken in as children, and takes them off the stack.
func resolveInside(n ast.Node, pc parser.Context) {
	s, ok := pc.Get(runStackKey).(*runStack)
	if !ok || s.last == nil || s.last.Parent() != n {
		return
	}
	bottom := s.last
	for bottom != nil && bottom.Parent() == n {
		bottom = bottom.prev
	}
	s.process(bottom)
}

// emphasisRuns reads `*`, `_` and `~` runs onto markii's stack.
type emphasisRuns struct{}

func (emphasisRuns) Trigger() []byte { return []byte{'*', '_', '~'} }

func (e emphasisRuns) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	run := scanRun(line, before)
	if run.char == '~' && (run.length > 2 || before == '~') {
		return nil // GFM strikes with one or two tildes only
	}
	run.start = segment.Start
	block.Advance(run.length)
	stackOf(parent, pc).push(run)
	return run
}

// scanRun reads the run of `*`, `_` or `~` that line starts with, which
// follows the character before, and whether it can open and close by
// CommonMark's flanking rules, exactly as parser.ScanDelimiter reads
// them, without allocating the goldmark delimiter node that scan makes
// (on a paragraph of runs that was a third of the parse's memory).
func scanRun(line []byte, before rune) *delimiterRun {
	c := line[0]
	n := fenceRun(line, c)
	after := ' '
	if n < len(line) {
		after = util.ToRune(line, n)
	}
	canOpen, canClose := runFlanks(c, before, after)
	return &delimiterRun{char: c, canOpen: canOpen, canClose: canClose, length: n, originalMod3: byte(n % 3)}
}

// runFlanks reports whether a run of c between the characters before
// and after can open and can close emphasis: when it is left- and
// right-flanking, and for '_' not inside a word.
func runFlanks(c byte, before, after rune) (canOpen, canClose bool) {
	left, right := flanking(before, after)
	if c != '_' {
		return left, right
	}
	return left && (!right || util.IsPunctRune(before)), right && (!left || util.IsPunctRune(after))
}

// flanking reports whether a run between before and after is
// left-flanking and right-flanking.
func flanking(before, after rune) (left, right bool) {
	beforePunct, beforeSpace := util.IsPunctRune(before), util.IsSpaceRune(before)
	afterPunct, afterSpace := util.IsPunctRune(after), util.IsSpaceRune(after)
	left = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
	right = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
	return left, right
}

// CloseBlock matches the block's runs once its inlines are parsed.
func (emphasisRuns) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if s, ok := pc.Get(runStackKey).(*runStack); ok {
		if s.block == parent {
			s.process(nil)
		}
		pc.Set(runStackKey, nil)
	}
}

// resolvingInside wraps an inline parser that gathers the nodes after an
// opener into a new node (a link, an image, a directive label), so that
// the runs it gathered are matched among themselves, as CommonMark
// matches the emphasis of a link text before the link is made.
type resolvingInside struct{ parser.InlineParser }

func (r resolvingInside) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	n := r.InlineParser.Parse(parent, block, pc)
	if n != nil {
		resolveInside(n, pc)
	}
	return n
}

// CloseBlock passes the wrapped parser's CloseBlock on.
func (r resolvingInside) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if c, ok := r.InlineParser.(parser.CloseBlocker); ok {
		c.CloseBlock(parent, block, pc)
	}
}
