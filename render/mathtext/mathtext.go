// Package mathtext turns the TeX of a math span into Unicode text a
// terminal can show, in the manner of flatlatex: Greek letters, operators
// and relations from tables, sub- and superscripts as Unicode forms where
// every character has one (else `_(…)` and `^(…)`), fractions as a⁄b or
// (a)/(b), roots with √, \mathbb and \mathcal letters, and matrices and
// cases as rows. A command it does not know stays as its source, visibly.
// It is a pure function; the result is not sanitized (the caller does
// that, as for every string of the tree).
package mathtext

import (
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of groups and commands: deeper content is
// kept as its source, so any input converts in linear time.
const MaxDepth = 32

// MaxBytes bounds the source converted; a longer span is kept as written.
const MaxBytes = 64 << 10

// Convert returns the Unicode text of the TeX in src. For display math
// (display set) the result may hold line feeds: fractions are stacked,
// sums and integrals carry their limits above and below or beside them,
// and a matrix or cases environment keeps its rows on lines of their
// own, all aligned on the line around them (display.go).
func Convert(src string, display bool) string {
	if len(src) > MaxBytes {
		return src
	}
	c := &conv{src: src, display: display}
	if display {
		return c.displayText()
	}
	var b strings.Builder
	c.seq(&b, 0, 0)
	return strings.TrimSpace(b.String())
}

type conv struct {
	src     string
	pos     int
	display bool
	// deep is set when nesting past MaxDepth kept source as text.
	deep bool
}

// seq converts items up to a closing brace (when inGroup) or the end.
// It stops, without consuming it, at `}`, and at `&` or `\\` inside an
// environment (stop set).
func (c *conv) seq(b *strings.Builder, depth int, stop int) {
	for c.pos < len(c.src) {
		rest := c.src[c.pos:]
		if rest[0] == '}' || stop > 0 && atCellEnd(rest) {
			return
		}
		c.item(b, depth)
	}
}

// atCellEnd reports whether rest starts with the end of an environment's
// cell: &, \\ or \end.
func atCellEnd(rest string) bool {
	return rest[0] == '&' || strings.HasPrefix(rest, `\\`) || strings.HasPrefix(rest, `\end`)
}

// skipSpaces moves pos past spaces.
func (c *conv) skipSpaces() {
	for c.pos < len(c.src) && c.src[c.pos] == ' ' {
		c.pos++
	}
}

// item converts one item: a character, a group, a script or a command.
func (c *conv) item(b *strings.Builder, depth int) {
	ch := c.src[c.pos]
	switch ch {
	case '{':
		b.WriteString(c.group(depth))
	case '^', '_':
		c.pos++
		arg := c.arg(depth)
		b.WriteString(script(arg, ch == '^'))
	case '\\':
		c.command(b, depth)
	case '~':
		c.pos++
		b.WriteByte(' ')
	case '\n', '\t', '\r':
		c.pos++
		b.WriteByte(' ')
	default:
		_, n := utf8.DecodeRuneInString(c.src[c.pos:])
		b.WriteString(c.src[c.pos : c.pos+n])
		c.pos += n
	}
}

// group converts `{…}` at pos, or keeps the rest as source past MaxDepth.
func (c *conv) group(depth int) string {
	if depth >= MaxDepth {
		rest := c.src[c.pos:]
		c.pos, c.deep = len(c.src), true
		return rest
	}
	c.pos++ // {
	var b strings.Builder
	c.seq(&b, depth+1, 0)
	if c.pos < len(c.src) && c.src[c.pos] == '}' {
		c.pos++
	}
	return b.String()
}

// arg converts one argument: a group, a command or a single character.
func (c *conv) arg(depth int) string {
	c.skipSpaces()
	if c.pos >= len(c.src) {
		return ""
	}
	if c.src[c.pos] == '{' {
		return c.group(depth)
	}
	if depth >= MaxDepth {
		rest := c.src[c.pos:]
		c.pos, c.deep = len(c.src), true
		return rest
	}
	var b strings.Builder
	if c.src[c.pos] == '\\' {
		c.command(&b, depth+1)
	} else {
		_, n := utf8.DecodeRuneInString(c.src[c.pos:])
		b.WriteString(c.src[c.pos : c.pos+n])
		c.pos += n
	}
	return b.String()
}

// commandName reads `\name` (letters) or `\x` (one other character).
func (c *conv) commandName() string {
	start := c.pos
	c.pos++ // backslash
	for c.pos < len(c.src) && isLetter(c.src[c.pos]) {
		c.pos++
	}
	if c.pos == start+1 && c.pos < len(c.src) {
		_, n := utf8.DecodeRuneInString(c.src[c.pos:])
		c.pos += n
	}
	return c.src[start+1 : c.pos]
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// command converts a command at pos.
func (c *conv) command(b *strings.Builder, depth int) {
	start := c.pos
	name := c.commandName()
	if s, ok := symbol(name); ok {
		b.WriteString(s)
		return
	}
	if f, ok := function(name); ok {
		b.WriteString(f)
		return
	}
	if c.structure(b, name, depth) {
		return
	}
	// Unknown: its source stays, visibly, its argument's braces too.
	b.WriteString(c.src[start:c.pos])
	if c.pos < len(c.src) && c.src[c.pos] == '{' {
		b.WriteString("{" + c.group(depth) + "}")
	}
}

// structure converts the commands that take arguments; it reports
// whether name is one.
func (c *conv) structure(b *strings.Builder, name string, depth int) bool {
	switch name {
	case "frac", "dfrac", "tfrac", "cfrac":
		num, den := c.arg(depth+1), c.arg(depth+1)
		b.WriteString(fraction(num, den))
	case "sqrt":
		b.WriteString(c.root(depth))
	case "mathbb", "mathcal", "mathfrak", "mathscr":
		b.WriteString(alphabet(name, c.arg(depth+1)))
	case "mathrm", "text", "textrm", "textbf", "textit", "mathbf", "mathit", "mathsf", "mathtt", "operatorname", "mbox", "boldsymbol", "bm":
		b.WriteString(c.arg(depth + 1))
	case "left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "displaystyle", "textstyle", "limits", "nolimits":
		c.delimiter(b, name)
	case "begin":
		c.environment(b, depth)
	default:
		mark, ok := accent(name)
		if !ok {
			return false
		}
		b.WriteString(combine(c.arg(depth+1), mark))
	}
	return true
}

// accents are the commands that set a combining mark over every
// character of their argument.
var accents = [...]struct {
	name string
	mark rune
}{
	{"bar", '\u0305'},
	{"dot", '\u0307'},
	{"hat", '\u0302'},
	{"overline", '\u0305'},
	{"tilde", '\u0303'},
	{"vec", '\u20d7'},
	{"widehat", '\u0302'},
	{"widetilde", '\u0303'},
}

// accent returns the combining mark of the accent command \name.
func accent(name string) (rune, bool) {
	for _, a := range accents {
		if a.name == name {
			return a.mark, true
		}
	}
	return 0, false
}

// delimiter drops sizing commands; \left. and \right. drop their dot.
func (c *conv) delimiter(b *strings.Builder, name string) {
	if (name == "left" || name == "right") && c.pos < len(c.src) && c.src[c.pos] == '.' {
		c.pos++
	}
}

// root converts \sqrt[n]{x}.
func (c *conv) root(depth int) string {
	index := ""
	if c.pos < len(c.src) && c.src[c.pos] == '[' {
		if end := strings.IndexByte(c.src[c.pos:], ']'); end > 0 {
			index = c.src[c.pos+1 : c.pos+end]
			c.pos += end + 1
		}
	}
	arg := c.arg(depth + 1)
	sign := "√"
	switch index {
	case "":
	case "3":
		sign = "∛"
	case "4":
		sign = "∜"
	default:
		sign = script(index, true) + "√"
	}
	if utf8.RuneCountInString(arg) > 1 {
		return sign + "(" + arg + ")"
	}
	return sign + arg
}

// environment converts \begin{name}…\end{name}: matrices and cases as
// rows, cells separated by two spaces, rows by a line feed in display
// math and by "; " inline.
func (c *conv) environment(b *strings.Builder, depth int) {
	name := c.arg(depth + 1)
	var rows [][]string
	row := []string{}
	for more := true; more && c.pos < len(c.src) && depth < MaxDepth; {
		var cell strings.Builder
		c.seq(&cell, depth+1, 1)
		row = append(row, strings.TrimSpace(cell.String()))
		var rowEnd bool
		if rowEnd, more = c.cellSeparator(depth); rowEnd {
			rows, row = append(rows, row), []string{}
		}
	}
	if len(row) > 1 || len(row) == 1 && row[0] != "" {
		rows = append(rows, row)
	}
	b.WriteString(c.grid(name, rows))
}

// cellSeparator reads what ended an environment's cell: & (the next
// cell), \\ (the next row), \end{name} or a brace that closes nothing.
// It reports whether a row ended and whether the environment goes on.
func (c *conv) cellSeparator(depth int) (rowEnd, more bool) {
	rest := c.src[c.pos:]
	switch {
	case strings.HasPrefix(rest, "&"), strings.HasPrefix(rest, "}"):
		c.pos++
		return false, true
	case strings.HasPrefix(rest, `\\`):
		c.pos += 2
		return true, true
	case strings.HasPrefix(rest, `\end`):
		c.pos += len(`\end`)
		c.arg(depth + 1)
	}
	return false, false
}

// grid lays out an environment's rows.
func (c *conv) grid(name string, rows [][]string) string {
	open, close := brackets(name)
	if !c.display {
		joined := make([]string, len(rows))
		for i, r := range rows {
			joined[i] = strings.Join(r, " ")
		}
		return open + strings.Join(joined, "; ") + close
	}
	var b strings.Builder
	widths := columnWidths(rows)
	for i, r := range rows {
		b.WriteString("\n")
		b.WriteString(edge(open, i, len(rows), true))
		for j, cell := range r {
			if j > 0 {
				b.WriteString("  ")
			}
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cell)))
		}
		b.WriteString(edge(close, i, len(rows), false))
	}
	b.WriteString("\n")
	return b.String()
}

// columnWidths is the width of the widest cell of each column.
func columnWidths(rows [][]string) []int {
	widths := []int{}
	for _, r := range rows {
		for i, cell := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	return widths
}

// brackets returns the delimiters an environment is drawn between.
func brackets(name string) (string, string) {
	switch name {
	case "pmatrix":
		return "(", ")"
	case "bmatrix":
		return "[", "]"
	case "vmatrix":
		return "|", "|"
	case "cases":
		return "{", ""
	}
	return "", ""
}

// edge returns a delimiter for row i of n: tall brackets are drawn with
// their top, middle and bottom pieces.
func edge(d string, i, n int, open bool) string {
	pieces := map[string][3]string{"(": {"⎛", "⎜", "⎝"}, ")": {"⎞", "⎟", "⎠"}, "[": {"⎡", "⎢", "⎣"}, "]": {"⎤", "⎥", "⎦"}, "{": {"⎧", "⎨", "⎩"}, "|": {"│", "│", "│"}}
	p, ok := pieces[d]
	var piece string
	switch {
	case !ok || n == 1:
		piece = d
	case i == 0:
		piece = p[0]
	case i == n-1:
		piece = p[2]
	default:
		piece = p[1]
	}
	if piece == "" {
		return ""
	}
	if open {
		return piece + " "
	}
	return " " + piece
}

// fraction writes num over den on one line.
func fraction(num, den string) string {
	if simple(num) && simple(den) {
		return num + "⁄" + den
	}
	return wrap(num) + "/" + wrap(den)
}

// simple reports whether s reads as one term without parentheses.
func simple(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x370 && r <= 0x3ff) {
			return false
		}
	}
	return s != ""
}

func wrap(s string) string {
	if simple(s) {
		return s
	}
	return "(" + s + ")"
}

// combine puts a combining mark after every character of s.
func combine(s string, mark rune) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
		b.WriteRune(mark)
	}
	return b.String()
}

// script writes s raised (sup) or lowered: in Unicode forms when every
// character has one, else as ^(s) or _(s) (^s or _s for one character).
func script(s string, sup bool) string {
	if f, ok := scriptForms(s, sup); ok {
		return f
	}
	mark := "_"
	if sup {
		mark = "^"
	}
	if utf8.RuneCountInString(s) == 1 {
		return mark + s
	}
	return mark + "(" + s + ")"
}

// scriptForms returns s in Unicode superscript (sup) or subscript forms,
// and whether every character of s has one; when one lacks it, ok is false.
func scriptForms(s string, sup bool) (form string, ok bool) {
	var b strings.Builder
	for _, r := range s {
		m, ok := scriptRune(r, sup)
		if !ok {
			return "", false
		}
		b.WriteRune(m)
	}
	return b.String(), s != ""
}

const (
	supDigits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	subDigits = "₀₁₂₃₄₅₆₇₈₉"
)

// scriptRune returns the superscript or subscript form of r.
func scriptRune(r rune, sup bool) (rune, bool) {
	if r >= '0' && r <= '9' {
		digits := []rune(subDigits)
		if sup {
			digits = []rune(supDigits)
		}
		return digits[r-'0'], true
	}
	var from, to string
	if sup {
		from, to = "+-=()niaeoxhjklmprstuvwyABDEGHIJKLMNOPRTUVWbcdfgz′∗", "⁺⁻⁼⁽⁾ⁿⁱᵃᵉᵒˣʰʲᵏˡᵐᵖʳˢᵗᵘᵛʷʸᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵇᶜᵈᶠᵍᶻ′*"
	} else {
		from, to = "+-=()aeoxhklmnpstijruvβγρφχ", "₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥᵦᵧᵨᵩᵪ"
	}
	if i := strings.IndexRune(from, r); i >= 0 {
		return []rune(to)[utf8.RuneCountInString(from[:i])], true
	}
	return 0, false
}

// mathAlphabet is a mathematical alphabet: the letters whose forms are
// outside the Mathematical Alphanumeric Symbols block (the older
// Letterlike Symbols), and the runs of letters and digits whose forms are
// consecutive in that block.
type mathAlphabet struct {
	name    string
	letters string // ASCII letters with a form of their own
	forms   []rune // those forms, in the same order
	runs    []formRun
}

// formRun maps the characters lo to hi to consecutive forms from first.
type formRun struct{ lo, hi, first rune }

// alphabets are the alphabets of \mathbb, \mathcal, \mathfrak and
// \mathscr; \mathcal has no lowercase forms, and only \mathbb has digits.
var alphabets = [...]mathAlphabet{
	{"mathbb", "CHNPQRZ", []rune{'ℂ', 'ℍ', 'ℕ', 'ℙ', 'ℚ', 'ℝ', 'ℤ'},
		[]formRun{{'A', 'Z', 0x1d538}, {'a', 'z', 0x1d552}, {'0', '9', 0x1d7d8}}},
	{"mathcal", "BEFHILMR", []rune{'ℬ', 'ℰ', 'ℱ', 'ℋ', 'ℐ', 'ℒ', 'ℳ', 'ℛ'},
		[]formRun{{'A', 'Z', 0x1d49c}}},
	{"mathfrak", "CHIRZ", []rune{'ℭ', 'ℌ', 'ℑ', 'ℜ', 'ℨ'},
		[]formRun{{'A', 'Z', 0x1d504}, {'a', 'z', 0x1d51e}}},
	{"mathscr", "BEFHILMR", []rune{'ℬ', 'ℰ', 'ℱ', 'ℋ', 'ℐ', 'ℒ', 'ℳ', 'ℛ'},
		[]formRun{{'A', 'Z', 0x1d49c}, {'a', 'z', 0x1d4b6}}},
}

// alphabet writes s in the mathematical alphabet \name.
func alphabet(name, s string) string {
	var a mathAlphabet
	for _, x := range alphabets {
		if x.name == name {
			a = x
		}
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(a.letter(r))
	}
	return b.String()
}

// letter returns r in the alphabet, or r when it has no such form.
func (a *mathAlphabet) letter(r rune) rune {
	if i := strings.IndexRune(a.letters, r); i >= 0 {
		return a.forms[i]
	}
	for _, run := range a.runs {
		if r >= run.lo && r <= run.hi {
			return run.first + (r - run.lo)
		}
	}
	return r
}
