package mathtext

import (
	"strings"
	"unicode"
)

// Display math is laid out in two dimensions: a fraction stands its
// numerator over a rule over its denominator, a sum or product carries
// its limits above and below it and an integral to its right, and a
// matrix or cases environment is a grid; each sits on the baseline of
// the line around it. Everything else is the text Convert gives inline.

// box is a block of lines that sits on the line at base.
type box struct {
	lines []string
	base  int
}

// textBox is a one-line box.
func textBox(s string) box { return box{lines: []string{s}} }

// cells is the display width of s: one a character, none for a
// combining mark.
func cells(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			n++
		}
	}
	return n
}

func (b box) width() int {
	w := 0
	for _, ln := range b.lines {
		w = max(w, cells(ln))
	}
	return w
}

// hcat sets boxes side by side on one baseline.
func hcat(bs []box) box {
	if len(bs) == 1 {
		return bs[0]
	}
	above, below := 0, 0
	for _, b := range bs {
		above, below = max(above, b.base), max(below, len(b.lines)-b.base-1)
	}
	rows := make([]strings.Builder, above+below+1)
	for _, b := range bs {
		w := b.width()
		for r := range rows {
			i := r - (above - b.base)
			ln := ""
			if i >= 0 && i < len(b.lines) {
				ln = b.lines[i]
			}
			rows[r].WriteString(ln)
			rows[r].WriteString(strings.Repeat(" ", w-cells(ln)))
		}
	}
	out := box{lines: make([]string, len(rows)), base: above}
	for r := range rows {
		out.lines[r] = rows[r].String()
	}
	return out
}

// center pads s with spaces to w cells, centred.
func center(s string, w int) string {
	pad := w - cells(s)
	if pad <= 0 {
		return s
	}
	return strings.Repeat(" ", pad/2) + s + strings.Repeat(" ", pad-pad/2)
}

// stack sets top over mid over bottom, centred, sitting on mid's baseline.
func stack(top, mid, bottom box) box {
	w := max(top.width(), mid.width(), bottom.width())
	var out box
	for _, part := range []box{top, mid, bottom} {
		for _, ln := range part.lines {
			out.lines = append(out.lines, center(ln, w))
		}
	}
	out.base = len(top.lines) + mid.base
	return out
}

// fractionBox stands num over a rule over den.
func fractionBox(num, den box) box {
	w := max(num.width(), den.width()) + 2
	return stack(num, textBox(strings.Repeat("─", w)), den)
}

// hseq converts items up to a closing brace (or, with stop set, an
// environment's cell end) as a box: the display form of seq.
func (c *conv) hseq(depth int, stop int) box {
	if depth >= MaxDepth {
		var b strings.Builder
		c.seq(&b, depth, stop)
		c.deep = true
		return textBox(b.String())
	}
	var parts []box
	var text strings.Builder
	for c.pos < len(c.src) && !c.atStop(stop) {
		if b, ok := c.displayItem(depth); ok {
			parts = append(appendText(parts, &text), b)
			continue
		}
		c.item(&text, depth)
	}
	parts = appendText(parts, &text)
	if len(parts) == 0 {
		return textBox("")
	}
	return hcat(parts)
}

// atStop reports whether the source at pos ends hseq's sequence: a
// closing brace, a cell's end (stop 1) or \right (stopRight).
func (c *conv) atStop(stop int) bool {
	rest := c.src[c.pos:]
	switch {
	case rest[0] == '}':
		return true
	case stop == 1:
		return atCellEnd(rest)
	case stop == stopRight:
		return strings.HasPrefix(rest, `\right`)
	}
	return false
}

// appendText appends the text gathered so far to parts as a box, if
// there is any, and empties text.
func appendText(parts []box, text *strings.Builder) []box {
	if text.Len() == 0 {
		return parts
	}
	parts = append(parts, textBox(text.String()))
	text.Reset()
	return parts
}

// displayItem converts the item at pos when it has a display form: a
// fraction, a group holding one, a large operator with limits or an
// environment. It reports false, having read nothing, for any other.
func (c *conv) displayItem(depth int) (box, bool) {
	start := c.pos
	if c.src[c.pos] != '\\' {
		return box{}, false
	}
	name := c.commandName()
	switch name {
	case "frac", "dfrac", "cfrac":
		num, den := c.boxArg(depth+1), c.boxArg(depth+1)
		return fractionBox(num, den), true
	case "sum", "prod", "coprod", "bigcup", "bigcap", "bigoplus", "bigotimes", "int", "iint", "iiint", "oint":
		if b, ok := c.largeOperator(name, depth); ok {
			return b, true
		}
	case "left":
		return c.leftRight(depth), true
	case "begin":
		var b strings.Builder
		c.environment(&b, depth)
		lines := strings.Split(strings.Trim(b.String(), "\n"), "\n")
		return box{lines: lines, base: (len(lines) - 1) / 2}, true
	}
	c.pos = start
	return box{}, false
}

// largeOperator sets the large operator \name with the limits that
// follow it: above and below it, or at an integral's right; ok is false
// when no limits follow.
func (c *conv) largeOperator(name string, depth int) (b box, ok bool) {
	op, _ := symbol(name)
	low, up, ok := c.limits(depth + 1)
	switch {
	case !ok:
		return box{}, false
	case strings.Contains(name, "int"):
		// An integral's limits sit at its right, top and bottom.
		w := max(cells(low), cells(up))
		pad := strings.Repeat(" ", cells(op))
		return box{lines: []string{pad + up, op + strings.Repeat(" ", w), pad + low}, base: 1}, true
	}
	return stack(optionalBox(up), textBox(op), optionalBox(low)), true
}

// optionalBox is a one-line box of s, or no box when s is empty.
func optionalBox(s string) box {
	if s == "" {
		return box{}
	}
	return textBox(s)
}

// leftRight converts \left d … \right d after its \left: the body
// between delimiters drawn as tall as it.
func (c *conv) leftRight(depth int) box {
	open := c.delimiterToken()
	body := c.hseq(depth+1, stopRight)
	closing := ""
	if strings.HasPrefix(c.src[c.pos:], `\right`) {
		c.pos += len(`\right`)
		closing = c.delimiterToken()
	}
	return hcat([]box{tallDelimiter(open, body, true), body, tallDelimiter(closing, body, false)})
}

// limits reads the `_` and `^` (either order, after an optional
// \limits) that follow a large operator; ok is false, having read
// nothing, when there is neither.
func (c *conv) limits(depth int) (low, up string, ok bool) {
	start := c.pos
	c.skipSpaces()
	if strings.HasPrefix(c.src[c.pos:], `\limits`) {
		c.pos += len(`\limits`)
		c.skipSpaces()
	}
	for range 2 {
		var limit *string
		switch {
		case strings.HasPrefix(c.src[c.pos:], "_"):
			limit = &low
		case strings.HasPrefix(c.src[c.pos:], "^"):
			limit = &up
		}
		if limit == nil {
			break
		}
		c.pos++
		*limit = c.arg(depth)
		ok = true
		c.skipSpaces()
	}
	if !ok {
		c.pos = start
	}
	return low, up, ok
}

// boxArg converts one argument as a box: a group in display form, else
// what arg gives.
func (c *conv) boxArg(depth int) box {
	c.skipSpaces()
	if c.pos < len(c.src) && c.src[c.pos] == '{' && depth < MaxDepth {
		c.pos++
		b := c.hseq(depth+1, 0)
		if c.pos < len(c.src) && c.src[c.pos] == '}' {
			c.pos++
		}
		return b
	}
	return textBox(c.arg(depth))
}

// displayText converts the whole of src as display math: its lines, the
// spaces at their ends trimmed.
func (c *conv) displayText() string {
	var parts []box
	if braceDepth(c.src) < MaxDepth/2 {
		parts = c.displayParts()
	} else {
		c.deep = true // stacked, it would pass MaxDepth: skip the work
	}
	if c.deep {
		// Nesting past MaxDepth kept source as text: stacked, every
		// level would carry it; the one-line form shows it once.
		inline := &conv{src: c.src, display: true}
		var b strings.Builder
		inline.seq(&b, 0, 0)
		return strings.TrimSpace(b.String())
	}
	if len(parts) == 0 {
		return ""
	}
	lines := hcat(parts).lines
	for i, ln := range lines {
		lines[i] = strings.TrimRight(ln, " ")
	}
	dedent(lines)
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// dedent removes from lines the blanks all the lines that are not
// empty start with (as from a leading line feed).
func dedent(lines []string) {
	indent := -1
	for _, ln := range lines {
		if ln != "" {
			n := len(ln) - len(strings.TrimLeft(ln, " "))
			if indent < 0 || n < indent {
				indent = n
			}
		}
	}
	if indent <= 0 {
		return
	}
	for i, ln := range lines {
		if len(ln) >= indent {
			lines[i] = ln[indent:]
		}
	}
}

// stopRight makes hseq stop at \right, the end of a \left group.
const stopRight = 2

// delimiterToken reads the delimiter after \left or \right: a
// character or a command; "." is none.
func (c *conv) delimiterToken() string {
	c.skipSpaces()
	if c.pos >= len(c.src) {
		return ""
	}
	if c.src[c.pos] == '\\' {
		name := c.commandName()
		if s, ok := symbol(name); ok {
			return s
		}
		return ""
	}
	d := c.src[c.pos : c.pos+1]
	c.pos++
	if d == "." {
		return ""
	}
	return d
}

// tallDelimiter draws d as tall as body, from its top, middle and bottom
// pieces (one character when body is one line or d has no pieces).
func tallDelimiter(d string, body box, open bool) box {
	if d == "" {
		return box{}
	}
	n := len(body.lines)
	if n == 1 {
		return textBox(d)
	}
	out := box{lines: make([]string, n), base: body.base}
	for i := range n {
		piece := strings.TrimSpace(edge(d, i, n, open))
		if piece == "" || piece == d && d != "|" {
			piece = d
		}
		out.lines[i] = piece
	}
	return out
}

// displayParts converts the whole source as boxes.
func (c *conv) displayParts() []box {
	var parts []box
	for c.pos < len(c.src) {
		parts = append(parts, c.hseq(0, 0))
		if c.pos < len(c.src) { // a brace closing nothing stays
			parts = append(parts, textBox("}"))
			c.pos++
		}
	}
	return parts
}

// braceDepth is the deepest nesting of braces in s.
func braceDepth(s string) int {
	d, most := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			d++
			most = max(most, d)
		case '}':
			d = max(d-1, 0)
		}
	}
	return most
}
