package render

import (
	"bytes"
	"runtime"
	"strings"
	"sync"

	"github.com/markii/markii/render/directive"
	"github.com/markii/markii/sanitize"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// chunkMin is the least number of body bytes ParseChunks gives goldmark at
// once: large enough that the per-parse cost vanishes, small enough that
// only a sliver of a long note's goldmark tree is ever resident. Measured
// on 1 MB and 10 MB notes, 16 KB pieces render 10–15% faster than 64 KB
// ones: the heap stays smaller, so fewer fresh pages are touched.
const chunkMin = 16 << 10

// maxParseAhead bounds the pieces of a long note parsed at once ahead of
// their layout.
const maxParseAhead = 4

// maxChunkFrames bounds the open fences and container directives the
// chunk scanner follows; deeper notes are parsed whole.
const maxChunkFrames = 32

// ParseChunks parses src exactly as Parse does, but hands the document to
// fn a run of top-level blocks at a time, so a long note's parse trees are
// never all resident at once. The first call carries the frontmatter;
// each call's Scripts and Flattened describe its own blocks. Together the
// calls hold the same blocks, in the same order, as Parse(src).Blocks.
// It returns the first error fn returns.
//
// The body is cut only at a blank line followed by an unindented line that
// ends every open block: outside fenced code and container directives, and
// not before a list item, and never inside a raw HTML block of a kind that
// runs past blank lines (a comment, say), which the scanner follows to the
// line that ends it. A note that may define a footnote is parsed whole.
// Link reference definitions are document-wide: the pieces that may hold
// one are parsed once first to collect them, and every piece is then
// parsed knowing them all, first definition first.
func ParseChunks(src []byte, fn func(doc *Document) error) error {
	return parseChunks(src, chunkMin, fn)
}

func parseChunks(src []byte, min int, fn func(doc *Document) error) error {
	offset, front := bodyStart(src)
	body := clampIndent(src[offset:])
	cuts := chunkCuts(body, min)
	pieces := make([][]byte, 0, len(cuts)+1)
	start := 0
	for _, end := range append(cuts, len(body)) {
		pieces = append(pieces, body[start:end])
		start = end
	}
	var refs references
	if len(pieces) > 1 {
		refs = documentReferences(body)
	}
	return parseAhead(pieces, refs, front, fn)
}

// references are a note's link reference definitions, keyed by their
// normalized label (util.ToLinkReference), the first definition of a
// label first. Every piece's parse reads the one map; none writes it.
type references map[string]parser.Reference

// bodyStart returns where the markdown body of src begins, after a UTF-8
// byte-order mark and the frontmatter block, and the frontmatter.
func bodyStart(src []byte) (offset int, front *Frontmatter) {
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		offset = 3
	}
	if yaml, body, ok := splitFrontmatter(src[offset:]); ok {
		front = &Frontmatter{Uses: readUses(yaml)}
		offset += body
	}
	return offset, front
}

// PrefixEnd returns the length of the shortest prefix of src of at least
// want bytes that ParseChunks could hand over as pieces of their own: it
// ends where a new top-level block starts after a blank line, outside
// fenced code, container directives and the frontmatter, so the prefix
// parses to the same leading blocks as the whole note (link references
// and footnotes defined later in the note aside: FirstFrameSource joins
// their definitions to it). It returns len(src) when there is no such prefix.
func PrefixEnd(src []byte, want int) int {
	offset, _ := bodyStart(src)
	if len(src) <= want {
		return len(src)
	}
	// A line that clampIndent would shorten starts with more than
	// MaxIndent blanks either way, so the cuts of the body as it is are
	// those of the clamped body.
	body := src[offset:]
	cuts := scanCuts(body, want-offset, 1)
	if len(cuts) > 0 && cuts[0] <= farPrefix*want {
		return offset + cuts[0]
	}
	// Far into the note or nowhere, as in a note that is one long list:
	// the first frame comes from the items before a place inside it, and
	// the whole page, laid out in the background, replaces it.
	if places := scanPlaces(body, want-offset, 1, true); len(places) > 0 {
		return offset + places[0]
	}
	if len(cuts) > 0 {
		return offset + cuts[0]
	}
	return len(src)
}

// FirstFrameSource returns what the viewer draws a long note's first
// frame from, and whether there is such a part: the prefix PrefixEnd
// cuts at want bytes and, when the rest of the note may define a link
// reference or a footnote, the runs of blocks after the prefix that may
// hold such a definition (every one has "]:" after its label), joined
// after it. The prefix's references then resolve as in the whole note,
// its footnotes are numbered as there (goldmark numbers them in the
// order they are first referenced), and its blocks draw as the whole
// note's first ones. The runs are cut where ParseChunks would cut, so
// they parse, joined, to the blocks they make in the whole note. When
// they come to more than maxFirstFrameRuns bytes, the prefix is given
// alone.
func FirstFrameSource(src []byte, want int) ([]byte, bool) {
	cut := PrefixEnd(src, want)
	if cut == len(src) {
		return src, false
	}
	if !bytes.Contains(src[cut:], definitionColon) {
		return src[:cut], true
	}
	offset, _ := bodyStart(src)
	out := append(make([]byte, 0, cut+4<<10), src[:cut]...)
	if !bytes.HasSuffix(out, []byte("\n\n")) {
		out = append(out, "\n\n"...)
	}
	if out, ok := definitionRuns(out, src[offset:], cut-offset, maxFirstFrameRuns); ok {
		return out, true
	}
	return src[:cut], true
}

// maxFirstFrameRuns bounds the definitions FirstFrameSource joins to a
// first frame, so that a note of nothing but definitions still opens at
// once.
const maxFirstFrameRuns = 256 << 10

// farPrefix is how many times the bytes asked for a first-frame prefix
// may run before PrefixEnd cuts inside a list instead.
const farPrefix = 4

// documentReferences returns the link reference definitions of a note's
// body, found without parsing the body's inlines or its blocks that
// cannot hold one. The body is split at every point where ParseChunks
// could cut it; only the runs of blocks that contain "]:" (every
// definition does, right after its label) are parsed, joined in order,
// by definitionParser. Runs so cut parse, joined or alone, to the blocks
// they make in the whole body, so the definitions are the body's own.
func documentReferences(body []byte) references {
	if !bytes.Contains(body, definitionColon) {
		return nil
	}
	candidates, ok := definitionRuns(nil, body, 0, -1)
	if !ok {
		candidates = body
	}
	return definitions(candidates)
}

// definitionColon follows the label of every link reference and footnote
// definition.
var definitionColon = []byte("]:")

// definitionRuns appends to dst, in order, the runs of body's blocks
// that start at or after from and contain "]:", so may hold a link
// reference or footnote definition: body is cut at every point where
// ParseChunks could cut it. ok is false when the scanner cannot cut
// body, or when the runs would add more than limit bytes (limit < 0: no
// limit).
func definitionRuns(dst, body []byte, from, limit int) (out []byte, ok bool) {
	cuts := scanCuts(body, 1, -1)
	if len(cuts) == 0 {
		return dst, false
	}
	added, start := 0, 0
	for _, end := range append(cuts, len(body)) {
		if run := body[start:end]; start >= from && bytes.Contains(run, definitionColon) {
			if added += len(run); limit >= 0 && added > limit {
				return dst, false
			}
			dst = append(dst, run...)
		}
		start = end
	}
	return dst, true
}

// sharedReferences is a piece's parse context that also knows the whole
// note's definitions: a look-up costs the same however many pieces and
// definitions the note has.
type sharedReferences struct {
	parser.Context
	note references
}

// Reference returns the note's first definition of label, else one the
// piece itself defines (when the piece failed to parse alone).
func (c sharedReferences) Reference(label string) (parser.Reference, bool) {
	if r, ok := c.note[label]; ok {
		return r, true
	}
	return c.Context.Reference(label)
}

// definitions returns the link reference definitions src holds, the
// first of each label; none when the parse fails.
func definitions(src []byte) (refs references) {
	defer func() {
		if recover() != nil {
			refs = nil
		}
	}()
	pc := collecting{Context: parser.NewContext(), refs: make(references, bytes.Count(src, []byte("]:")))}
	definitionParser().Parse(text.NewReader(src), parser.WithContext(pc))
	if len(pc.refs) == 0 {
		return nil
	}
	return pc.refs
}

// collecting is a parse context that keeps the definitions it is given
// in a map of markii's, so that the note's map is made once.
type collecting struct {
	parser.Context
	refs references
}

// AddReference keeps the first definition of each label.
func (c collecting) AddReference(r parser.Reference) {
	key := util.ToLinkReference(r.Label())
	if _, ok := c.refs[key]; !ok {
		c.refs[key] = r
	}
}

var (
	definitionsOnce sync.Once
	definitionsImpl parser.Parser
)

// definitionParser returns a goldmark parser that reads a note's blocks
// as markdown's does and its link reference definitions, and stops there:
// it has no inline parsers and gives the paragraphs left after the
// definitions no lines, so their inlines are not even walked.
func definitionParser() parser.Parser {
	definitionsOnce.Do(func() {
		definitionsImpl = parser.NewParser(
			parser.WithBlockParsers(noteBlockParsers()...),
			parser.WithParagraphTransformers(
				util.Prioritized(linkRefDefinitions{}, 100),
				util.Prioritized(dropInlines{}, 1000)),
		)
	})
	return definitionsImpl
}

// dropInlines empties a paragraph once its definitions are read, down to
// one line of no text: a setext heading takes a paragraph left with no
// lines at all for one that held only definitions and makes its underline
// text, which would hide a definition on the line after it.
type dropInlines struct{}

func (dropInlines) Transform(node *ast.Paragraph, _ text.Reader, _ parser.Context) {
	lines := node.Lines()
	if lines.Len() == 0 {
		return
	}
	start := lines.At(0).Start
	empty := text.NewSegments()
	empty.Append(text.NewSegment(start, start))
	node.SetLines(empty)
}

// parseAhead parses pieces on up to GOMAXPROCS goroutines, a few pieces
// ahead of fn, and hands fn the documents one at a time in order on the
// calling goroutine. Each piece's parse is independent of the others, so
// the documents are the ones a parse in order would give; only a bounded
// number of pieces is parsed but not yet handed over, which keeps a long
// note's memory small. It returns the first error fn returns, once every
// parse it started has ended.
func parseAhead(pieces [][]byte, refs references, front *Frontmatter, fn func(doc *Document) error) error {
	ahead := min(runtime.GOMAXPROCS(0), maxParseAhead)
	if len(pieces) == 1 || ahead < 2 {
		return parseInOrder(pieces, refs, front, fn)
	}
	a := &aheadParses{
		pieces: pieces,
		refs:   refs,
		docs:   make([]chan *Document, len(pieces)),
		slots:  make(chan struct{}, ahead),
		stop:   make(chan struct{}),
	}
	for i := range a.docs {
		a.docs[i] = make(chan *Document, 1)
	}
	defer a.parses.Wait()
	a.parses.Add(1)
	go a.start()
	for i := range pieces {
		doc := <-a.docs[i]
		<-a.slots
		if err := handOver(i, doc, front, fn); err != nil {
			close(a.stop)
			return err
		}
	}
	return nil
}

// parseInOrder is parseAhead on the calling goroutine alone.
func parseInOrder(pieces [][]byte, refs references, front *Frontmatter, fn func(doc *Document) error) error {
	for i, piece := range pieces {
		if err := handOver(i, parseChunk(piece, refs), front, fn); err != nil {
			return err
		}
	}
	return nil
}

// handOver gives fn the i-th piece's document, the first with the note's
// frontmatter.
func handOver(i int, doc *Document, front *Frontmatter, fn func(doc *Document) error) error {
	if i == 0 {
		doc.Frontmatter = front
	}
	return fn(doc)
}

// aheadParses is the parses parseAhead runs ahead of its caller: a piece's
// parse starts once one of the slots is free, and its document arrives on
// its own channel in docs.
type aheadParses struct {
	pieces [][]byte
	refs   references
	docs   []chan *Document
	slots  chan struct{}
	// stop ends the starting of parses when the caller has stopped.
	stop   chan struct{}
	parses sync.WaitGroup
}

// start starts each piece's parse in turn as slots free up.
func (a *aheadParses) start() {
	defer a.parses.Done()
	for i := range a.pieces {
		select {
		case a.slots <- struct{}{}:
		case <-a.stop:
			return
		}
		a.parses.Add(1)
		go a.parse(i)
	}
}

// parse parses the i-th piece.
func (a *aheadParses) parse(i int) {
	defer a.parses.Done()
	a.docs[i] <- parseChunk(a.pieces[i], a.refs)
}

// parseChunk parses one run of top-level blocks of a note's body, knowing
// the note's link reference definitions refs. Like Parse it never fails: a
// parser defect shows the run as plain text.
func parseChunk(body []byte, refs references) (doc *Document) {
	defer func() {
		if recover() != nil {
			doc = &Document{Blocks: []Block{&CodeBlock{Text: sanitize.Pre(string(body))}}}
		}
	}()
	var pc parser.Context = parser.NewContext()
	if refs != nil {
		pc = sharedReferences{Context: pc, note: refs}
	}
	root := markdown().Parse(text.NewReader(body), parser.WithContext(pc))
	doc = &Document{Flattened: pc.Get(depthHitKey) != nil}
	c := newConverter(body, doc)
	doc.Blocks = c.blocks(root, 0)
	return doc
}

// chunkFrame is a block the chunk scanner knows to be open: a fenced code
// block (fence is '`' or '~'), a container directive (fence is ':') or a
// raw HTML block that runs past blank lines (fence is '<', n its kind).
type chunkFrame struct {
	fence byte
	n     int
}

// chunkCuts returns the offsets at which body may be cut into pieces of at
// least min bytes that goldmark parses into the same top-level blocks as
// the whole body, or nil when the body must be parsed whole.
func chunkCuts(body []byte, min int) []int {
	if len(body) < 2*min || mayDefineFootnote(body) {
		// Footnotes are numbered across the whole note.
		return nil
	}
	return scanCuts(body, min, -1)
}

// scanCuts is chunkCuts without the least body size: it returns the
// offsets at which body may be cut into pieces of at least min bytes
// (the last piece may be shorter), at most most of them when most is not
// negative, or nil when a line before the last cut returned is one the
// scanner cannot follow.
func scanCuts(body []byte, min, most int) []int {
	return scanPlaces(body, min, most, false)
}

// scanPlaces is scanCuts that, with inside set, also returns places
// inside a long bullet list: before a top-level item whose line, and the
// one before it, are one-line items. The first frame of a long note
// may come from such a prefix; ParseChunks never cuts there, since the
// blocks after it would not be the whole note's (a list is one block).
func scanPlaces(body []byte, min, most int, inside bool) []int {
	ps := placeScanner{min: min, most: most, inside: inside}
	for at := 0; at < len(body); {
		end := at + indexNewline(body[at:]) + 1
		if end <= at {
			end = len(body)
		}
		switch ps.line(at, body[at:end]) {
		case scanDone:
			return ps.cuts
		case scanLost:
			return nil
		}
		at = end
	}
	return ps.cuts
}

// placeScanner is scanPlaces' state between lines.
type placeScanner struct {
	min, most int
	inside    bool
	cuts      []int
	frames    []chunkFrame
	last      int
	prevBlank bool
	// prevItem is whether the line before is a bullet item (bulletItem).
	prevItem bool
	// mayBeHTML is set from a line starting with '<' to the next blank
	// line: those lines are either a raw HTML block or a paragraph, and
	// the scanner cannot tell which. Both end at the blank line; until
	// then a line that would open a fence or a container (content in one
	// reading, a new block in the other) makes the note be parsed whole.
	mayBeHTML bool
}

// scanStep is what a line tells the scan: go on, stop with the places
// found (scanDone), or stop with none (scanLost: a line the scanner
// cannot follow).
type scanStep int

const (
	scanOn scanStep = iota
	scanDone
	scanLost
)

// blockLine updates the open frames for a line that may open or close a
// block, and reports false when the scanner has lost track.
func (ps *placeScanner) blockLine(line []byte, indent int) bool {
	open := len(ps.frames)
	inCode := open > 0 && ps.frames[open-1].fence != ':'
	var ok bool
	if ps.frames, ok = scanChunkLine(ps.frames, line, indent); !ok || ps.mayBeHTML && len(ps.frames) > open {
		return false
	}
	if !inCode && line[indent] == '<' {
		ps.mayBeHTML = true
	}
	return true
}

// line scans the line at offset at.
func (ps *placeScanner) line(at int, line []byte) scanStep {
	// Up to four leading spaces: four make indented code.
	indent := min(len(line), 4) - len(bytes.TrimLeft(line[:min(len(line), 4)], " "))
	blank := isBlankLine(line)
	item := bulletItem(line)
	if ps.placeBefore(at, line, indent, blank, item) {
		return scanDone
	}
	ps.prevItem, ps.prevBlank = item, blank
	ps.mayBeHTML = ps.mayBeHTML && !blank
	if n := len(ps.frames); n > 0 && ps.frames[n-1].fence == '<' {
		return ps.htmlLine(line)
	}
	return ps.blockStep(line, indent)
}

// blockStep scans a line outside a raw HTML block.
func (ps *placeScanner) blockStep(line []byte, indent int) scanStep {
	if indent < 4 && indent < len(line) && line[indent] != '\t' && !ps.blockLine(line, indent) {
		return scanLost
	}
	if ps.mayBeHTML && len(ps.frames) == 0 && opensHTMLElement(line) {
		// An element a raw HTML block opens holds the blocks up to its
		// end tag (parse_html.go): the rest of the note is one piece.
		return scanDone
	}
	return scanOn
}

// placeBefore records a place before the line at offset at when one may
// be there, and reports whether the scan has as many as it wants.
func (ps *placeScanner) placeBefore(at int, line []byte, indent int, blank, item bool) bool {
	if !ps.topLevel(line, indent, blank) || at-ps.last < ps.min || !ps.startsPiece(line[0], item) {
		return false
	}
	ps.cuts = append(ps.cuts, at)
	ps.last = at
	return len(ps.cuts) == ps.most
}

// topLevel reports whether a line starts a top-level block: not blank,
// not indented, with no block open.
func (ps *placeScanner) topLevel(line []byte, indent int, blank bool) bool {
	return !blank && indent == 0 && line[0] != '\t' && len(ps.frames) == 0
}

// startsPiece reports whether a top-level line starting with c may start
// a piece: after a blank line when it continues no list, or (inside set)
// between one-line items of a bullet list.
func (ps *placeScanner) startsPiece(c byte, item bool) bool {
	between := ps.inside && !ps.mayBeHTML && item && ps.prevItem
	return ps.prevBlank && !startsListItem(c) || between
}

// htmlLine scans a line inside a raw HTML block: every line is its
// content, at any indent, until the one that ends it, after which a
// block starts afresh.
func (ps *placeScanner) htmlLine(line []byte) scanStep {
	n := len(ps.frames)
	if endsHTML(line, ps.frames[n-1].n) {
		if opensHTMLElement(afterHTMLEnd(line, ps.frames[n-1].n)) {
			return scanDone
		}
		ps.frames, ps.mayBeHTML = ps.frames[:n-1], false
	}
	return scanOn
}

// scanChunkLine updates the open frames for one line indented by fewer
// than four spaces, the way goldmark continues blocks from the outermost
// in. It reports false when the line is one the scanner cannot follow.
func scanChunkLine(frames []chunkFrame, line []byte, indent int) ([]chunkFrame, bool) {
	rest := line[indent:]
	if open, inside := continueFrames(frames, rest); inside {
		return open, true
	}
	f := openedFrame(rest)
	switch {
	case f.fence == 0:
		return frames, true
	case indent > 0 || f.fence == '<' && len(frames) > 0:
		// An indented block, maybe inside a list item, which may end
		// before the block does; or raw HTML inside a container.
		return nil, false
	}
	// A top-level raw HTML block runs to the line that ends it; a cut is
	// never made inside it.
	frames = append(frames, f)
	return frames, len(frames) <= maxChunkFrames
}

// continueFrames reads a line inside the open frames, from the outermost
// in. It returns the frames left open and true when the line closes one
// or is a line of fenced code; false when only containers are open and
// the line may open a block.
func continueFrames(frames []chunkFrame, rest []byte) ([]chunkFrame, bool) {
	for i, f := range frames {
		if closesFrame(f, rest) {
			return frames[:i], true
		}
		if f.fence != ':' {
			return frames, true // a line of fenced code
		}
	}
	return frames, false
}

// closesFrame reports whether a line closes the fenced code block or
// container f.
func closesFrame(f chunkFrame, rest []byte) bool {
	if f.fence == ':' {
		return directive.ClosesContainer(rest, f.n)
	}
	return closesCodeFence(rest, f.fence, f.n)
}

// openedFrame returns the frame a line opens, if any: a fenced code
// block, a container directive, or a raw HTML block that runs past
// blank lines and does not end on this line. Its fence is 0 for none.
func openedFrame(rest []byte) chunkFrame {
	switch rest[0] {
	case '`', '~':
		if c, n, ok := opensCodeFence(rest); ok {
			return chunkFrame{fence: c, n: n}
		}
	case ':':
		if n, ok := directive.OpensContainer(rest); ok {
			return chunkFrame{fence: ':', n: n}
		}
	case '<':
		if kind := spanningHTML(rest); kind != 0 && !endsHTML(rest, kind) {
			return chunkFrame{fence: '<', n: kind}
		}
	}
	return chunkFrame{}
}

// spanningHTML returns the kind (CommonMark's 1 to 5, as goldmark reads
// them) of the raw HTML block that a line starting with '<' opens and
// that runs on past blank lines: script, pre, style and textarea elements
// (1), comments (2), processing instructions (3), declarations (4) and
// CDATA (5). It returns 0 for the other kinds, which end at a blank line
// like a paragraph, and for a line that opens no HTML block.
func spanningHTML(line []byte) int {
	rest := line[1:]
	for _, o := range htmlBlockOpeners {
		if bytes.HasPrefix(rest, []byte(o.prefix)) {
			return o.kind
		}
	}
	if len(rest) > 1 && rest[0] == '!' && 'A' <= rest[1] && rest[1] <= 'Z' {
		return 4
	}
	if opensRawElement(rest) {
		return 1
	}
	return 0
}

// htmlBlockOpeners are the raw HTML blocks (after their '<') that run on
// past blank lines and open with a fixed text, with their kinds.
var htmlBlockOpeners = [...]struct {
	prefix string
	kind   int
}{{"!--", 2}, {"?", 3}, {"![CDATA[", 5}}

// rawEndTags end a raw HTML block of kind 1, in any case.
var rawEndTags = [...]string{"</script>", "</pre>", "</style>", "</textarea>"}

// htmlBlockEnds are the texts that end a raw HTML block of each kind.
var htmlBlockEnds = [...][]string{1: rawEndTags[:], 2: {"-->"}, 3: {"?>"}, 4: {">"}, 5: {"]]>"}}

// opensRawElement reports whether rest, after a '<', starts a script,
// pre, style or textarea tag, in any case.
func opensRawElement(rest []byte) bool {
	for _, tag := range [...]string{"script", "pre", "style", "textarea"} {
		if len(rest) >= len(tag) && strings.EqualFold(string(rest[:len(tag)]), tag) && endsTagName(rest[len(tag):]) {
			return true
		}
	}
	return false
}

// endsTagName reports whether after, which follows a tag name, ends it:
// nothing, `/>`, white space or '>'.
func endsTagName(after []byte) bool {
	return len(after) == 0 || bytes.HasPrefix(after, []byte("/>")) || isClass(after[0], classValueEnd)
}

// endsHTML reports whether line holds the end of a raw HTML block of the
// given kind (see spanningHTML): goldmark ends the block at the first
// line that contains it anywhere, its first line included.
func endsHTML(line []byte, kind int) bool {
	if kind == 1 {
		line = bytes.ToLower(line)
	}
	for _, end := range htmlBlockEnds[kind] {
		if bytes.Contains(line, []byte(end)) {
			return true
		}
	}
	return false
}

// afterHTMLEnd returns what follows the end of a raw HTML block of the
// given kind on the line that ends it: for a script, pre, style or
// textarea block, the tags after its end tag, which are read as HTML;
// nothing for the other kinds, which show nothing.
func afterHTMLEnd(line []byte, kind int) []byte {
	if kind != 1 {
		return nil
	}
	lower := bytes.ToLower(line)
	at := len(line)
	for _, end := range rawEndTags {
		if i := bytes.Index(lower, []byte(end)); i >= 0 && i+len(end) < at {
			at = i + len(end)
		}
	}
	return line[at:]
}

// isBlankLine reports whether line holds only spaces, tabs and a line
// ending (a subset of what goldmark treats as blank).
func isBlankLine(line []byte) bool {
	return skipClass(line, 0, classBlank) == len(line)
}

// bulletItem reports whether an unindented line is a bullet list item
// for scanPlaces; a thematic break such as "- - -" is not. An ordered
// list is never cut: its markers are as wide as its largest number.
func bulletItem(line []byte) bool {
	return len(line) >= 3 && isClass(line[0], classBullet) && line[1] == ' ' &&
		line[2] != line[0] && !isClass(line[2], classBlank)
}

// startsListItem reports whether a line starting with c could open a list
// item (or a thematic break), which may continue the list before it.
func startsListItem(c byte) bool {
	return isClass(c, classBullet) || c >= '0' && c <= '9'
}
