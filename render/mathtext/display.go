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
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, textBox(text.String()))
			text.Reset()
		}
	}
	for c.pos < len(c.src) {
		ch := c.src[c.pos]
		if ch == '}' || stop == 1 && (ch == '&' || strings.HasPrefix(c.src[c.pos:], `\\`) || strings.HasPrefix(c.src[c.pos:], `\end`)) ||
			stop == stopRight && strings.HasPrefix(c.src[c.pos:], `\right`) {
			break
		}
		if b, ok := c.displayItem(depth); ok {
			flush()
			parts = append(parts, b)
			continue
		}
		c.item(&text, depth)
	}
	flush()
	if len(parts) == 0 {
		return textBox("")
	}
	return hcat(parts)
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
		op, _ := symbol(name)
		low, up, ok := c.limits(depth + 1)
		if !ok {
			break
		}
		if strings.Contains(name, "int") {
			// An integral's limits sit at its right, top and bottom.
			w := max(cells(low), cells(up))
			pad := strings.Repeat(" ", cells(op))
			return box{lines: []string{pad + up, op + strings.Repeat(" ", w), pad + low}, base: 1}, true
		}
		var top, bottom box
		if up != "" {
			top = textBox(up)
		}
		if low != "" {
			bottom = textBox(low)
		}
		return stack(top, textBox(op), bottom), true
	case "left":
		open := c.delimiterToken()
		body := c.hseq(depth+1, stopRight)
		closing := ""
		if strings.HasPrefix(c.src[c.pos:], `\right`) {
			c.pos += len(`\right`)
			closing = c.delimiterToken()
		}
		return hcat([]box{tallDelimiter(open, body, true), body, tallDelimiter(closing, body, false)}), true
	case "begin":
		var b strings.Builder
		c.environment(&b, depth)
		lines := strings.Split(strings.Trim(b.String(), "\n"), "\n")
		return box{lines: lines, base: (len(lines) - 1) / 2}, true
	}
	c.pos = start
	return box{}, false
}

// limits reads the `_` and `^` (either order, after an optional
// \limits) that follow a large operator; ok is false, having read
// nothing, when there is neither.
func (c *conv) limits(depth int) (low, up string, ok bool) {
	start := c.pos
	skip := func() {
		for c.pos < len(c.src) && c.src[c.pos] == ' ' {
			c.pos++
		}
	}
	skip()
	if strings.HasPrefix(c.src[c.pos:], `\limits`) {
		c.pos += len(`\limits`)
		skip()
	}
	for range 2 {
		if c.pos >= len(c.src) || c.src[c.pos] != '_' && c.src[c.pos] != '^' {
			break
		}
		sup := c.src[c.pos] == '^'
		c.pos++
		if sup {
			up = c.arg(depth)
		} else {
			low = c.arg(depth)
		}
		ok = true
		skip()
	}
	if !ok {
		c.pos = start
	}
	return low, up, ok
}

// boxArg converts one argument as a box: a group in display form, else
// what arg gives.
func (c *conv) boxArg(depth int) box {
	for c.pos < len(c.src) && c.src[c.pos] == ' ' {
		c.pos++
	}
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
	b := hcat(parts)
	indent := -1 // the blanks all lines start with, as from a leading line feed
	for i, ln := range b.lines {
		b.lines[i] = strings.TrimRight(ln, " ")
		if b.lines[i] != "" {
			n := len(b.lines[i]) - len(strings.TrimLeft(b.lines[i], " "))
			if indent < 0 || n < indent {
				indent = n
			}
		}
	}
	for i, ln := range b.lines {
		if len(ln) >= indent && indent > 0 {
			b.lines[i] = ln[indent:]
		}
	}
	return strings.Trim(strings.Join(b.lines, "\n"), "\n")
}

// stopRight makes hseq stop at \right, the end of a \left group.
const stopRight = 2

// delimiterToken reads the delimiter after \left or \right: a
// character or a command; "." is none.
func (c *conv) delimiterToken() string {
	for c.pos < len(c.src) && c.src[c.pos] == ' ' {
		c.pos++
	}
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
