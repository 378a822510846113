package mermaid

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/sanitize"
	"github.com/rivo/uniseg"
)

// Class is what a cell of a drawing shows; the renderer gives each class
// its theme style.
type Class uint8

const (
	// Blank is empty space.
	Blank Class = iota
	// Border is the outline of a node, a participant, a note or a block.
	Border
	// Text is a node's or a participant's text.
	Text
	// Edge is an edge, a message's line, an arrowhead or a lifeline.
	Edge
	// Label is an edge's label, a message's text or a block's title.
	Label
)

// Span is a run of cells of one class.
type Span struct {
	Text  string
	Class Class
}

// Line is one row of a drawing.
type Line []Span

// Bounds on what is drawn: a diagram over one of them is shown as its
// source. They are checked while the source is read, before any work
// that grows faster than the source.
const (
	// MaxNodes is the most nodes a flowchart may have.
	MaxNodes = 150
	// MaxEdges is the most edges a flowchart may have.
	MaxEdges = 300
	// MaxStatements is the most statements a diagram may have.
	MaxStatements = 2000
	// MaxParticipants is the most participants a sequence diagram may have.
	MaxParticipants = 40
	// MaxDepth is the deepest a sequence diagram's blocks may nest.
	MaxDepth = 8
	// MaxHeight is the most lines a drawing may take.
	MaxHeight = 1000
	// maxDummies is the most layer crossings a flowchart's edges may make.
	maxDummies = 2000
)

// Reason says why a diagram is shown as its source.
type Reason uint8

const (
	// Unsupported is a diagram kind markii does not draw.
	Unsupported Reason = iota + 1
	// Syntax is a statement markii cannot read.
	Syntax
	// TooLarge is a diagram over one of the bounds.
	TooLarge
	// TooWide is a diagram wider than the width it is drawn in.
	TooWide
)

// Error is why a diagram is shown as its source; its message is the one
// line shown above the source.
type Error struct {
	Reason Reason
	// Line is the 1-based source line of a Syntax error.
	Line int
	msg  string
}

func (e *Error) Error() string { return "mermaid: " + e.msg }

func errorf(r Reason, format string, args ...any) *Error {
	return &Error{Reason: r, msg: fmt.Sprintf(format, args...)}
}

// syntaxError is a statement that cannot be read, quoted short.
func syntaxError(line int, stmt string, why string) *Error {
	e := errorf(Syntax, "line %d: %s: %q", line, why, clip(sanitize.Line(stmt), 40))
	e.Line = line
	return e
}

// Draw draws the mermaid diagram in src in at most width columns, or
// returns an *Error saying why it is shown as its source. A diagram's
// title, when it has one, is its first lines.
func Draw(src string, width int) ([]Line, error) {
	d, err := parse(src)
	if err != nil {
		return nil, err
	}
	lines, err := d.draw(width)
	if err != nil {
		return nil, err
	}
	var head []Line
	if t := d.heading(); t != "" {
		for _, ln := range wrapHard([]string{t}, width) {
			head = append(head, Line{{Text: ln, Class: Label}})
		}
	}
	return append(head, lines...), nil
}

// ShownText is the text a drawing of the diagram in src shows, as
// mermaid draws it: its title, its nodes' and participants' text, its
// edges' labels, messages, notes and the titles of its subgraphs and
// blocks, one line each; not its ids, keywords or arrows. It returns
// the *Error Draw would for a diagram markii does not read; a diagram
// too wide for a width still has its text.
func ShownText(src string) ([]string, error) {
	d, err := parse(src)
	if err != nil {
		return nil, err
	}
	out := d.shown()
	if t := d.heading(); t != "" {
		out = append([]string{t}, out...)
	}
	return out, nil
}

// diagram is a diagram markii has read.
type diagram interface {
	draw(width int) ([]Line, error)
	// heading is the diagram's title, or "".
	heading() string
	// shown is the text its drawing shows, less its title.
	shown() []string
}

// read reads the statements of a diagram of a kind markii draws, whose
// first word is kind, or reports that it is not such a kind.
func read(kind string, stmts []stmt) (diagram, bool, error) {
	switch kind {
	case "graph", "flowchart", "flowchart-elk":
		d, err := parseFlowchart(stmts)
		return d, true, err
	case "sequenceDiagram":
		d, err := parseSequence(stmts)
		return d, true, err
	}
	return nil, false, nil
}

// parse reads the diagram in src, or says why markii does not draw it.
func parse(src string) (diagram, error) {
	stmts, err := statements(src)
	if err != nil {
		return nil, err
	}
	if len(stmts) == 0 {
		return nil, errorf(Syntax, "the diagram is empty")
	}
	kind, _, _ := strings.Cut(strings.TrimSpace(stmts[0].text), " ")
	kind = strings.TrimRight(kind, ";")
	if d, ok, err := read(kind, stmts); ok {
		if err != nil {
			return nil, err
		}
		if t := frontTitle(src); t != "" {
			d = titled{d, t}
		}
		return d, nil
	}
	if name, ok := kindName(kind); ok {
		return nil, errorf(Unsupported, "%s are shown as source", name)
	}
	return nil, errorf(Unsupported, "%q is not a diagram kind markii draws", clip(sanitize.Line(kind), 30))
}

// titled is a diagram with the title its front matter gives.
type titled struct {
	diagram
	title string
}

func (t titled) heading() string { return t.title }

// frontTitle is the title: line of src's front matter, or "".
func frontTitle(src string) string {
	rest, ok := strings.CutPrefix(strings.TrimLeft(src, " \t\r\n"), "---")
	if !ok {
		return ""
	}
	for rest != "" {
		var ln string
		ln, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(ln)
		if t == "---" {
			break
		}
		if v, ok := strings.CutPrefix(t, "title:"); ok {
			return oneLine(v)
		}
	}
	return ""
}

// sourceKinds are the diagram kinds markii shows as source, each with
// the keywords that start it.
var sourceKinds = []struct {
	name     string
	keywords []string
}{
	{"class diagrams", []string{"classDiagram", "classDiagram-v2"}},
	{"state diagrams", []string{"stateDiagram", "stateDiagram-v2"}},
	{"entity relationship diagrams", []string{"erDiagram"}},
	{"gantt charts", []string{"gantt"}},
	{"pie charts", []string{"pie"}},
	{"user journeys", []string{"journey"}},
	{"git graphs", []string{"gitGraph"}},
	{"mind maps", []string{"mindmap"}},
	{"timelines", []string{"timeline"}},
	{"quadrant charts", []string{"quadrantChart"}},
	{"requirement diagrams", []string{"requirementDiagram"}},
	{"C4 diagrams", []string{"C4Context", "C4Container", "C4Component", "C4Dynamic", "C4Deployment"}},
	{"sankey diagrams", []string{"sankey-beta", "sankey"}},
	{"XY charts", []string{"xychart-beta", "xychart"}},
	{"block diagrams", []string{"block-beta", "block"}},
	{"packet diagrams", []string{"packet-beta", "packet"}},
	{"kanban boards", []string{"kanban"}},
	{"architecture diagrams", []string{"architecture-beta"}},
	{"radar charts", []string{"radar-beta"}},
	{"ZenUML diagrams", []string{"zenuml"}},
	{"treemaps", []string{"treemap-beta"}},
}

// kindName names a diagram kind markii shows as source.
func kindName(kind string) (string, bool) {
	for _, k := range sourceKinds {
		if slices.Contains(k.keywords, kind) {
			return k.name, true
		}
	}
	return "", false
}

// stmt is one statement of a diagram and the source line it is on.
type stmt struct {
	text string
	line int
}

// statements splits src into its statements: one a line, front matter,
// blank lines and %% comments left out, and more than MaxStatements
// refused before the rest is read.
func statements(src string) ([]stmt, error) {
	rest, n, err := skipFrontMatter(src)
	if err != nil {
		return nil, err
	}
	var out []stmt
	for rest != "" {
		var ln string
		ln, rest, _ = strings.Cut(rest, "\n")
		n++
		t := strings.TrimSpace(ln)
		if t == "" || strings.HasPrefix(t, "%%") {
			continue
		}
		if len(out) == MaxStatements {
			return nil, errorf(TooLarge, "diagrams of more than %d statements are shown as source", MaxStatements)
		}
		out = append(out, stmt{text: t, line: n})
	}
	return out, nil
}

// skipFrontMatter is src after the front matter that may start it,
// between two lines of ---, and the lines the front matter takes.
func skipFrontMatter(src string) (string, int, error) {
	first, rest, _ := strings.Cut(src, "\n")
	if strings.TrimSpace(first) != "---" {
		return src, 0, nil
	}
	n := 1
	for rest != "" {
		var ln string
		ln, rest, _ = strings.Cut(rest, "\n")
		n++
		if strings.TrimSpace(ln) == "---" {
			return rest, n, nil
		}
	}
	return "", n, errorf(Syntax, "the front matter is not closed")
}

// labelLines turns a label's source into its lines of text: quotes and
// markdown-string backticks taken off, <br> a line break, each line
// sanitized and trimmed.
func labelLines(s string) []string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		s = s[1 : len(s)-1]
	}
	s = breakTags(s)
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimSpace(sanitize.Inline(entities(l))))
	}
	return out
}

// oneLine is a label as one line.
func oneLine(s string) string { return strings.Join(labelLines(s), " ") }

// breakTags turns <br>, <br/> and <br /> (any case) into line feeds and
// drops the formatting tags mermaid draws as HTML (<b>, <i>, <code>,
// <span ...>, ...), keeping their text. Any other < is text. A tag is
// looked for in the 64 bytes after a <, so that a label of many < is
// read in linear time.
func breakTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		if j := strings.IndexByte(s[:min(len(s), 64)], '>'); j > 0 {
			switch name := tagName(s[1:j]); name {
			case "br":
				b.WriteByte('\n')
				s = s[j+1:]
				continue
			case "b", "i", "u", "s", "em", "strong", "code", "small", "big", "sub", "sup", "span",
				"font", "p", "div", "a", "mark", "del", "ins", "tt", "kbd":
				s = s[j+1:]
				continue
			}
		}
		b.WriteByte('<')
		s = s[1:]
	}
	b.WriteString(s)
	return b.String()
}

// tagName is the lower-case name of the tag whose text between < and >
// is inner ("b", "/b", "br/", "span style=..."), or "".
func tagName(inner string) string {
	inner = strings.TrimPrefix(inner, "/")
	n := 0
	for n < len(inner) && isASCIILetter(inner[n]) {
		n++
	}
	if n == 0 {
		return ""
	}
	if rest := inner[n:]; rest != "" && rest[0] != ' ' && rest[0] != '/' {
		return ""
	}
	return strings.ToLower(inner[:n])
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// entities decodes HTML character references (&lt;, &#39;) and
// mermaid's own #name; codes (#quot;, #35;).
func entities(s string) string {
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	if !strings.Contains(s, "#") {
		return s
	}
	r := strings.NewReplacer("#quot;", `"`, "#amp;", "&", "#lt;", "<", "#gt;", ">", "#35;", "#", "#59;", ";", "#124;", "|")
	return r.Replace(s)
}

// widest is the width of a label's widest line.
func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.Width(l))
	}
	return w
}

// clip shortens s to at most n bytes on a rune boundary, ending in "…"
// when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// wrapText wraps each line wider than limit at spaces, a word wider
// than limit on a line of its own.
func wrapText(lines []string, limit int) []string {
	var out []string
	for _, ln := range lines {
		if ansi.Width(ln) <= limit {
			out = append(out, ln)
			continue
		}
		cur, cw := "", 0
		for _, word := range strings.Fields(ln) {
			ww := ansi.Width(word)
			switch {
			case cw == 0:
				cur, cw = word, ww
			case cw+1+ww <= limit:
				cur, cw = cur+" "+word, cw+1+ww
			default:
				out = append(out, cur)
				cur, cw = word, ww
			}
		}
		out = append(out, cur)
	}
	return out
}

// wrapHard wraps lines at limit cells as wrapText does, and cuts a
// word wider than limit into pieces that fit.
func wrapHard(lines []string, limit int) []string {
	limit = max(limit, 1)
	var out []string
	for _, ln := range wrapText(lines, limit) {
		for ansi.Width(ln) > limit {
			head := prefixCells(ln, limit)
			out = append(out, head)
			ln = ln[len(head):]
		}
		out = append(out, ln)
	}
	return out
}

// prefixCells is the longest run of whole grapheme clusters that starts
// s and takes at most n cells, or s's first cluster when that is wider.
func prefixCells(s string, n int) string {
	used, end, state := 0, 0, -1
	for rest := s; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		cw := ansi.Width(cluster)
		if used+cw > n && end > 0 {
			break
		}
		used += cw
		end += len(cluster)
	}
	return s[:end]
}

// fit cuts s to at most w cells, ending in "…" when cut.
func fit(s string, w int) string {
	if ansi.Width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	n, state := 0, -1
	for rest := s; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		cw := ansi.Width(cluster)
		if n+cw > w-1 {
			break
		}
		b.WriteString(cluster)
		n += cw
	}
	return b.String() + "…"
}

// tooWide is the error of a diagram of w columns drawn in width.
func tooWide(kind string, w, width int) error {
	return errorf(TooWide, "this %s is %d columns wide, wider than %d", kind, w, width)
}

// tooTall is the error of a diagram of h lines.
func tooTall(kind string, h int) error {
	return errorf(TooLarge, "this %s would be %d lines long, more than %d", kind, h, MaxHeight)
}
