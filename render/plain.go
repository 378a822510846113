package render

import (
	"bytes"
	"cmp"
	"sort"
	"strings"

	"github.com/markii/markii/render/directive"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// PlainMarkdown downgrades a Markii note to plain markdown, as `markii
// export --format md-plain` does (SPEC §6.6). It works on the source, so
// everything it keeps is kept byte for byte. A container directive's
// opening fence line becomes its title (plainTitle: the label, or the
// title or label attribute; a figure's image with its alt text and
// source) followed by a blank line, and its closing fence line a blank
// line, so no two bodies merge into one paragraph; the body stays. A leaf
// directive becomes its title the same way, or a blank line when it has
// none. Runnable script fences are removed. An inline directive is
// replaced by its label's source (removed when it has no label), except
// `:value[x]`, which reads as its empty state `{x}`: the export carries no
// values. Then runs of three or more line feeds collapse to two, leading
// and trailing blank lines go, and the result ends with exactly one line
// feed. Frontmatter is kept as written. It never fails.
func PlainMarkdown(src []byte) []byte {
	p := parseSource(src)
	e := &editor{src: p.body}
	e.walk(p.root)
	var out bytes.Buffer
	out.Grow(len(src))
	out.Write(src[:p.offset])
	e.apply(&out)
	return tidyPlain(out.Bytes())
}

// edit replaces src[start:stop] with text.
type edit struct {
	start, stop int
	text        string
}

type editor struct {
	src   []byte
	edits []edit
}

func (e *editor) cut(start, stop int) {
	if start < stop {
		e.edits = append(e.edits, edit{start: start, stop: stop})
	}
}

// replaceLine is cutLine writing title (when not "") and then a blank
// line in place of the construct, behind the line's own indentation and
// quote markers, so that what stood before and after it stays apart.
func (e *editor) replaceLine(start, stop int, title string) {
	ls, end := lineStart(e.src, start), lineEnd(e.src, stop)
	prefix := string(e.src[ls:start])
	if len(strings.Trim(prefix, " \t>")) != 0 {
		// After a list marker or other text: the title takes the
		// construct's place on its line.
		e.edits = append(e.edits, edit{start: start, stop: end, text: title})
		return
	}
	blank := strings.TrimRight(prefix, " \t") + "\n"
	text := blank
	if title != "" {
		text = prefix + title + "\n" + blank
	}
	e.edits = append(e.edits, edit{start: ls, stop: nextLine(e.src, end), text: text})
}

// cutLine removes the construct at src[start:stop] that ends its line: the
// whole line (line feed included) when only blanks and quote markers
// precede it, else from start to the end of the line so a list item's
// marker keeps its place.
func (e *editor) cutLine(start, stop int) {
	ls, end := lineStart(e.src, start), lineEnd(e.src, stop)
	if len(bytes.Trim(e.src[ls:start], " \t>")) == 0 {
		e.cut(ls, nextLine(e.src, end))
		return
	}
	e.cut(start, end)
}

// lineStart returns the offset of the start of the line holding src[i].
func lineStart(src []byte, i int) int {
	return bytes.LastIndexByte(src[:i], '\n') + 1
}

// lineEnd returns the offset of the line feed that ends the line holding
// src[i], or len(src) on the last line.
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// nextLine returns the offset after the line feed at src[end], or
// len(src) at the end.
func nextLine(src []byte, end int) int {
	return min(end+1, len(src))
}

// walk visits n's children.
func (e *editor) walk(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		e.visit(c)
	}
}

// visit records the edits for n and what it contains.
func (e *editor) visit(n ast.Node) {
	switch v := n.(type) {
	case *directive.Leaf:
		e.replaceLine(v.Start, v.Stop, plainTitle(v.Name, v.Attrs, e.linesText(v.Lines())))
	case *directive.Container:
		e.container(v)
	case *directive.Inline:
		e.inline(v)
	case *ast.FencedCodeBlock:
		if isRunnable(v, e.src) {
			e.cutFence(v)
		}
	default:
		e.walk(n)
	}
}

// container replaces a container directive's fence lines with its title
// and a blank, and edits its body.
func (e *editor) container(v *directive.Container) {
	label := ""
	if first := v.FirstChild(); v.HasLabel && first != nil {
		label = e.linesText(first.Lines())
	}
	e.replaceLine(v.OpenStart, v.OpenStop, plainTitle(v.Name, v.Attrs, label))
	if v.CloseStart >= 0 {
		e.replaceLine(v.CloseStart, v.CloseStop, "")
	}
	// The label sits on the opening line, which is gone.
	first := v.FirstChild()
	if v.HasLabel && first != nil {
		first = first.NextSibling()
	}
	for k := first; k != nil; k = k.NextSibling() {
		e.visit(k)
	}
}

// inline writes a value directive as `{path}` and keeps only the label of
// any other inline directive.
func (e *editor) inline(v *directive.Inline) {
	if v.Name == "value" {
		path := ""
		if v.LabelStart >= 0 {
			path = strings.TrimSpace(string(e.src[v.LabelStart:v.LabelStop]))
		}
		if path == "" {
			path = "value"
		}
		e.edits = append(e.edits, edit{start: v.Start, stop: v.Stop, text: "{" + path + "}"})
		return
	}
	if v.LabelStart < 0 || v.FirstChild() == nil {
		e.cut(v.Start, v.Stop)
		return
	}
	e.cut(v.Start, v.LabelStart)
	e.walk(v)
	e.cut(v.LabelStop, v.Stop)
}

// linesText joins the source of a label's lines with spaces.
func (e *editor) linesText(lines *text.Segments) string {
	if lines == nil {
		return ""
	}
	var parts []string
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if t := strings.TrimSpace(string(seg.Value(e.src))); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// plainTitle is the line md-plain keeps for a directive: its label, else
// its title or label attribute; for a figure its image (`![alt](src)`)
// and then that; for a stat, progress or rating the static value after
// it (`Users: 1,204`). "" when the directive has none of them.
func plainTitle(name string, attrs []directive.Attr, label string) string {
	title := cmp.Or(label, plainAttr(attrs, "title"), plainAttr(attrs, "label"))
	switch name {
	case "figure":
		return figureTitle(attrs, title)
	case "stat", "progress", "rating":
		return valueTitle(name, attrs, title)
	}
	return title
}

// plainAttr returns the trimmed value of the first attribute key with a
// value, or "".
func plainAttr(attrs []directive.Attr, key string) string {
	for _, a := range attrs {
		if a.Key == key && !a.Bare {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}

// figureTitle is a figure's image (`![alt](src)`) and then its title, or
// without a source its title, else its alt text.
func figureTitle(attrs []directive.Attr, title string) string {
	src := plainAttr(attrs, "src")
	if src == "" {
		return cmp.Or(title, plainAttr(attrs, "alt"))
	}
	img := "![" + plainAttr(attrs, "alt") + "](<" + strings.ReplaceAll(src, ">", "%3E") + ">)"
	if title == "" {
		return img
	}
	return img + "\n\n" + title
}

// valueTitle is a stat's, progress's or rating's title followed by its
// static value (with its maximum but for a stat): `Users: 1,204`.
func valueTitle(name string, attrs []directive.Attr, title string) string {
	v := plainAttr(attrs, "value")
	if v == "" {
		return title
	}
	if m := plainAttr(attrs, "max"); m != "" && name != "stat" {
		v += "/" + m
	}
	if title == "" {
		return v
	}
	return title + ": " + v
}

// isRunnable applies the script-fence rule of SPEC §1.5 to a goldmark
// fenced code block.
func isRunnable(n *ast.FencedCodeBlock, src []byte) bool {
	if n.Info == nil {
		return false
	}
	_, meta := splitInfo(string(appendDecoded(nil, n.Info.Segment.Value(src), true)))
	_, ok := scriptFence(meta)
	return ok
}

// cutFence removes a fenced code block from its opening fence through its
// closing fence line.
func (e *editor) cutFence(n *ast.FencedCodeBlock) {
	start := n.Pos()
	if start < 0 || start >= len(e.src) {
		return
	}
	fence := e.src[start]
	end := lineEnd(e.src, fenceBodyEnd(n, e.src, start))
	// A closing fence on the next line belongs to the block.
	if end < len(e.src) {
		next := lineEnd(e.src, end+1)
		if closesFenceLine(e.src[end+1:next], fence, fenceRun(e.src[start:], fence)) {
			end = next
		}
	}
	e.cutLine(start, end)
}

// fenceBodyEnd returns an offset on the last line of a fenced code
// block's body, or on its opening line (at start) when it has none.
func fenceBodyEnd(n *ast.FencedCodeBlock, src []byte, start int) int {
	lines := n.Lines()
	if lines.Len() == 0 {
		return start
	}
	end := lines.At(lines.Len() - 1).Stop
	if end > 0 && src[end-1] == '\n' {
		end--
	}
	return end
}

// closesFenceLine reports whether line, after blanks and quote markers,
// closes a fence of fenceLen fence bytes.
func closesFenceLine(line []byte, fence byte, fenceLen int) bool {
	k := bytes.IndexByte(line, fence)
	return k >= 0 && len(bytes.Trim(line[:k], " \t>")) == 0 && closesCodeFence(line[k:], fence, fenceLen)
}

// apply writes src without the edited ranges.
func (e *editor) apply(out *bytes.Buffer) {
	sort.SliceStable(e.edits, func(i, j int) bool { return e.edits[i].start < e.edits[j].start })
	at := 0
	for _, ed := range e.edits {
		if ed.start < at {
			if ed.stop > at {
				at = ed.stop
			}
			continue
		}
		out.Write(e.src[at:ed.start])
		out.WriteString(ed.text)
		at = ed.stop
	}
	out.Write(e.src[at:])
}

// tidyPlain collapses runs of three or more line feeds to two, trims
// leading and trailing blank lines and ends the text with one line feed.
func tidyPlain(b []byte) []byte {
	out := collapseFeeds(b)
	// Leading blank lines.
	for {
		i := bytes.IndexByte(out, '\n')
		if i < 0 || !isBlank(out[:i]) {
			break
		}
		out = out[i+1:]
	}
	// Trailing blank lines and line feeds.
	out = bytes.TrimRight(out, "\n")
	for {
		i := bytes.LastIndexByte(out, '\n')
		if i < 0 || !isBlank(out[i+1:]) {
			break
		}
		out = bytes.TrimRight(out[:i], "\n")
	}
	if len(bytes.Trim(out, " \t\r\n")) == 0 {
		out = out[:0]
	}
	return append(out, '\n')
}

// isBlank reports whether b holds only spaces, tabs and carriage returns.
func isBlank(b []byte) bool {
	return len(bytes.Trim(b, " \t\r")) == 0
}

// collapseFeeds copies b with each run of three or more line feeds cut
// to two, leaving room for one more byte.
func collapseFeeds(b []byte) []byte {
	out := make([]byte, 0, len(b)+1)
	run := 0
	for _, c := range b {
		if c == '\n' {
			run++
		} else {
			run = 0
		}
		if run <= 2 {
			out = append(out, c)
		}
	}
	return out
}
