package render

import (
	"bytes"
	"sort"
	"strings"

	"github.com/markii/markii/render/directive"
	"github.com/yuin/goldmark/ast"
)

// PlainMarkdown downgrades a Markii note to plain markdown, as `markii
// export --format md-plain` does (SPEC §6.6). It works on the source, so
// everything it keeps is kept byte for byte: container directives lose
// their opening and closing fence lines (the body stays), leaf directives
// and runnable script fences are removed, an inline directive is replaced
// by its label's source (removed when it has no label), and then runs of
// three or more line feeds collapse to two, leading and trailing blank
// lines go, and the result ends with exactly one line feed. Frontmatter is
// kept as written. It never fails.
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

// edit removes src[start:stop].
type edit struct{ start, stop int }

type editor struct {
	src   []byte
	edits []edit
}

func (e *editor) cut(start, stop int) {
	if start < stop {
		e.edits = append(e.edits, edit{start, stop})
	}
}

// cutLine removes the construct at src[start:stop] that ends its line: the
// whole line (line feed included) when only blanks and quote markers
// precede it, else from start to the end of the line so a list item's
// marker keeps its place.
func (e *editor) cutLine(start, stop int) {
	ls := start
	for ls > 0 && e.src[ls-1] != '\n' {
		ls--
	}
	end := stop
	for end < len(e.src) && e.src[end] != '\n' {
		end++
	}
	if len(bytes.Trim(e.src[ls:start], " \t>")) == 0 {
		if end < len(e.src) {
			end++
		}
		e.cut(ls, end)
		return
	}
	e.cut(start, end)
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
		e.cutLine(v.Start, v.Stop)
	case *directive.Container:
		e.cutLine(v.OpenStart, v.OpenStop)
		if v.CloseStart >= 0 {
			e.cutLine(v.CloseStart, v.CloseStop)
		}
		// The label sits on the opening line, which is gone.
		first := v.FirstChild()
		if v.HasLabel && first != nil {
			first = first.NextSibling()
		}
		for k := first; k != nil; k = k.NextSibling() {
			e.visit(k)
		}
	case *directive.Inline:
		if v.LabelStart < 0 || v.FirstChild() == nil {
			e.cut(v.Start, v.Stop)
			return
		}
		e.cut(v.Start, v.LabelStart)
		e.walk(v)
		e.cut(v.LabelStop, v.Stop)
	case *ast.FencedCodeBlock:
		if isRunnable(v, e.src) {
			e.cutFence(v)
		}
	default:
		e.walk(n)
	}
}

// isRunnable applies the script-fence rule of SPEC §1.5 to a goldmark
// fenced code block.
func isRunnable(n *ast.FencedCodeBlock, src []byte) bool {
	if n.Info == nil {
		return false
	}
	info := string(appendDecoded(nil, n.Info.Segment.Value(src), true))
	i := strings.IndexAny(info, " \t")
	if i < 0 {
		return false
	}
	m, ok := parseFenceMeta(info[i+1:])
	return ok && m.hasName && validScriptName(m.name)
}

// cutFence removes a fenced code block from its opening fence through its
// closing fence line.
func (e *editor) cutFence(n *ast.FencedCodeBlock) {
	start := n.Pos()
	if start < 0 || start >= len(e.src) {
		return
	}
	fenceChar := e.src[start]
	fenceLen := 0
	for start+fenceLen < len(e.src) && e.src[start+fenceLen] == fenceChar {
		fenceLen++
	}
	// End of the opening line, or of the last body line.
	end := start
	if lines := n.Lines(); lines.Len() > 0 {
		end = lines.At(lines.Len() - 1).Stop
		if end > 0 && e.src[end-1] == '\n' {
			end--
		}
	}
	for end < len(e.src) && e.src[end] != '\n' {
		end++
	}
	// A closing fence on the next line belongs to the block.
	if end < len(e.src) {
		next := end + 1
		lineEnd := next
		for lineEnd < len(e.src) && e.src[lineEnd] != '\n' {
			lineEnd++
		}
		line := e.src[next:lineEnd]
		k := bytes.IndexByte(line, fenceChar)
		if k >= 0 && len(bytes.Trim(line[:k], " \t>")) == 0 {
			run := k
			for run < len(line) && line[run] == fenceChar {
				run++
			}
			if run-k >= fenceLen && len(bytes.TrimSpace(line[run:])) == 0 {
				end = lineEnd
			}
		}
	}
	e.cutLine(start, end)
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
		at = ed.stop
	}
	out.Write(e.src[at:])
}

// tidyPlain collapses runs of three or more line feeds to two, trims
// leading and trailing blank lines and ends the text with one line feed.
func tidyPlain(b []byte) []byte {
	out := make([]byte, 0, len(b)+1)
	run := 0
	for _, c := range b {
		if c == '\n' {
			run++
			if run > 2 {
				continue
			}
		} else {
			run = 0
		}
		out = append(out, c)
	}
	// Leading blank lines.
	for {
		i := bytes.IndexByte(out, '\n')
		if i < 0 || len(bytes.Trim(out[:i], " \t\r")) != 0 {
			break
		}
		out = out[i+1:]
	}
	// Trailing blank lines and line feeds.
	out = bytes.TrimRight(out, "\n")
	for {
		i := bytes.LastIndexByte(out, '\n')
		if i < 0 || len(bytes.Trim(out[i+1:], " \t\r")) != 0 {
			break
		}
		out = bytes.TrimRight(out[:i], "\n")
	}
	if len(bytes.Trim(out, " \t\r\n")) == 0 {
		out = out[:0]
	}
	return append(out, '\n')
}
