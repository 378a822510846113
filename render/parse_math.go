package render

import (
	"bytes"
	"strings"
	"sync"

	"github.com/markii/markii/render/mathtext"
	"github.com/markii/markii/sanitize"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// This file reads math as GitHub does: `$…$` inline, `$$…$$` for display
// math, and ```math fences; package mathtext turns the TeX into Unicode.
// A dollar starts math only when the character after it is not a space
// and a closing dollar follows on the same line, after a character that
// is not a space and before one that is not a digit, so `$5 and $10`
// stays text.

// mathSpan is an inline math span in goldmark's tree; Segment is the TeX.
type mathSpan struct {
	ast.BaseInline
	Segment text.Segment
	Display bool
}

var (
	mathKindOnce sync.Once
	mathKind     ast.NodeKind
)

// Kind implements ast.Node.
func (*mathSpan) Kind() ast.NodeKind {
	mathKindOnce.Do(func() { mathKind = ast.NewNodeKind("MathSpan") })
	return mathKind
}

// Dump implements ast.Node.
func (n *mathSpan) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// mathSpans parses `$…$` and `$$…$$` within one line.
type mathSpans struct{}

// noMathKey records the line end up to which a scan found no closing
// dollar, so that a line of many dollars is scanned once.
var noMathKey = parser.NewContextKey()

func (mathSpans) Trigger() []byte { return []byte{'$'} }

func (mathSpans) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if end, ok := pc.Get(noMathKey).(int); ok && seg.Start < end {
		return nil
	}
	if prev := block.PrecendingCharacter(); prev == '$' || prev == '\\' {
		return nil
	}
	if n, ok := backtickMath(line, seg.Start); ok {
		block.Advance(n.Segment.Stop - seg.Start + len("`$"))
		return n
	}
	open := mathOpen(line)
	if open == 0 {
		return nil
	}
	stop := closingDollars(line, open)
	if stop < 0 {
		pc.Set(noMathKey, seg.Stop)
		return nil
	}
	n := &mathSpan{Segment: text.NewSegment(seg.Start+open, seg.Start+stop), Display: open == 2}
	block.Advance(stop + open)
	return n
}

// mathOpen returns how many dollars (1 or 2) open the math line starts
// with, or 0 when no math opens there: a blank or the line's end follows
// them.
func mathOpen(line []byte) int {
	open := 1
	if len(line) > 1 && line[1] == '$' {
		open = 2
	}
	if len(line) <= open || strings.IndexByte(" \t\n", line[open]) >= 0 {
		return 0
	}
	return open
}

// backtickMath reads GitHub's other inline form, $`…`$, whose TeX may
// hold dollars and markdown's own characters; line starts at the dollar,
// at offset start in the source. It needs the closing "`$" on the line.
func backtickMath(line []byte, start int) (*mathSpan, bool) {
	if len(line) < 2 || line[1] != '`' {
		return nil, false
	}
	end := bytes.Index(line[2:], []byte("`$"))
	if end <= 0 {
		return nil, false
	}
	return &mathSpan{Segment: text.NewSegment(start+2, start+2+end)}, true
}

// closingDollars returns where the run of n closing dollars starts in
// line (after position n), or -1.
func closingDollars(line []byte, n int) int {
	for i := n + 1; i+n <= len(line); i++ {
		if closesMath(line, i, n) {
			return i
		}
	}
	return -1
}

// closesMath reports whether n dollars at line[i] close math: not after a
// backslash or a blank, and with no digit right after them.
func closesMath(line []byte, i, n int) bool {
	return line[i] == '$' && line[i+n-1] == '$' && strings.IndexByte("\\ \t", line[i-1]) < 0 && !startsWithDigit(line[i+n:])
}

// startsWithDigit reports whether b starts with an ASCII digit.
func startsWithDigit(b []byte) bool {
	return len(b) > 0 && b[0] >= '0' && b[0] <= '9'
}

// mathInline converts an inline math span: its Unicode text, emphasized.
func (c *converter) mathInline(n ast.Node, _ int) Inline {
	tex := string(n.(*mathSpan).Segment.Value(c.src))
	e := c.emphases.new()
	e.Content = []Inline{c.newText(sanitize.Inline(mathtext.Convert(tex, false)))}
	return e
}

// displayMath returns the math block a paragraph is, when it is
// `$$…$$` alone (on one line or several), or nil.
func (c *converter) displayMath(p *ast.Paragraph) Block {
	lines := p.Lines()
	if lines.Len() == 0 {
		return nil
	}
	first, last := lines.At(0), lines.At(lines.Len()-1)
	src := strings.TrimSpace(c.source(first.Start, last.Stop))
	if len(src) < 5 || !strings.HasPrefix(src, "$$") || !strings.HasSuffix(src, "$$") || strings.Contains(src[2:len(src)-2], "$$") {
		return nil
	}
	return c.mathBlock(src[2 : len(src)-2])
}

// mathBlock is display math: a code block of language math holding the
// Unicode text.
func (c *converter) mathBlock(tex string) Block {
	b := c.codeBlocks.new()
	b.Lang = "math"
	lines := strings.Split(sanitize.Pre(mathtext.Convert(tex, true)), "\n")
	for i, ln := range lines {
		lines[i] = strings.TrimRight(ln, " ")
	}
	b.Text = strings.TrimRight(strings.Join(lines, "\n"), "\n")
	return b
}
