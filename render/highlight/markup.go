package highlight

import "strings"

// lexMarkup colours HTML, XML and SVG: tag names (Keyword), attribute
// names (Type) and values (String), comments, CDATA (String), doctype
// and processing instructions (Keyword) and entities (Number). The body
// of a <script> element is lexed as JavaScript and of a <style> element
// as CSS.
func lexMarkup(_ *langSpec, e *emitter, from, to int) {
	code := e.code[:to]
	for i := from; i < to; {
		switch code[i] {
		case '<':
			i = markupAngle(e, code, i)
		case '&':
			j := entityEnd(code, i)
			if j < 0 {
				e.add(Plain, i, i+1)
				i++
				continue
			}
			e.add(Number, i, j)
			i = j
		default:
			j := i + 1
			for j < to && code[j] != '<' && code[j] != '&' {
				j++
			}
			e.add(Plain, i, j)
			i = j
		}
	}
}

// markupDelims are the pieces of markup that run to a fixed close.
var markupDelims = [...]span{
	{"<!--", "-->", Comment},
	{"<![CDATA[", "]]>", String},
	{"<?", "?>", Keyword},
	{"<!", ">", Keyword},
}

// markupAngle lexes what starts with the < at code[i] (a comment, CDATA,
// a declaration, a tag and a script or style element's body) and returns
// its end.
func markupAngle(e *emitter, code string, i int) int {
	for _, d := range markupDelims {
		if strings.HasPrefix(code[i:], d.open) {
			j := closeAfter(code, i+len(d.open), d.close)
			e.add(d.kind, i, j)
			return j
		}
	}
	if i+1 < len(code) && (isTagNameStart(code[i+1]) || code[i+1] == '/') {
		name, j := lexTag(e, code, i)
		return markupBody(e, code, name, j)
	}
	e.add(Plain, i, i+1)
	return i + 1
}

// markupBody lexes the body of the element whose opening tag, name, ends
// at code[j] when it is a script (as JavaScript) or a style (as CSS), up
// to its closing tag, and returns where the markup goes on.
func markupBody(e *emitter, code, name string, j int) int {
	var body *langSpec
	switch {
	case strings.EqualFold(name, "script"):
		body = &jsSpec
	case strings.EqualFold(name, "style"):
		body = &cssSpec
	}
	if body == nil || code[j-2] == '/' {
		return j
	}
	k := indexFold(code[j:], "</"+name)
	if k < 0 {
		k = len(code) - j
	}
	body.lexRange(e, j, j+k)
	return j + k
}

// isTagNameStart reports whether c can start a tag name.
func isTagNameStart(c byte) bool { return tagNameStarts.has(c) }

// isTagNameByte reports whether c can be in a tag or attribute name.
func isTagNameByte(c byte) bool { return tagNameBytes.has(c) }

// lexTag lexes the tag at code[i] (`<name attr="v">` or `</name>`) and
// returns the name of an opening tag ("" for a closing one) and the end.
func lexTag(e *emitter, code string, i int) (string, int) {
	j := i + 1
	closing := code[j] == '/'
	if closing {
		j++
	}
	e.add(Plain, i, j)
	k := j
	for k < len(code) && isTagNameByte(code[k]) {
		k++
	}
	e.add(Keyword, j, k)
	name := code[j:k]
	if closing {
		name = ""
	}
	for i = k; i < len(code); {
		end, done := tagPart(e, code, i)
		if done {
			return name, end
		}
		i = end
	}
	return name, len(code)
}

// tagPart lexes the part of a tag at code[i] (spaces, an attribute's
// name, =, its value, or the tag's end) and returns its end and whether
// it ended the tag.
func tagPart(e *emitter, code string, i int) (int, bool) {
	if j := tagCloseEnd(code, i); j > i {
		e.add(Plain, i, j)
		return j, true
	}
	k, j := attributePart(code, i)
	e.add(k, i, j)
	return j, false
}

// tagCloseEnd is the end of the > or /> that closes a tag at code[i], or
// i when none does.
func tagCloseEnd(code string, i int) int {
	switch {
	case code[i] == '>':
		return i + 1
	case strings.HasPrefix(code[i:], "/>"):
		return i + 2
	}
	return i
}

// attributePart is the kind and end of the spaces, attribute name, = or
// value at code[i], inside a tag.
func attributePart(code string, i int) (Kind, int) {
	switch c := code[i]; c {
	case '=':
		return Operator, i + 1
	case '"', '\'':
		return String, closeAfter(code, i+1, code[i:i+1])
	case ' ', '\t', '\r', '\n':
		return Plain, codeSpaceEnd(code, i+1)
	}
	if code[i-1] == '=' {
		// An unquoted value.
		return String, runEnd(code, i+1, " \t\r\n>", false)
	}
	return Type, runEnd(code, i+1, " \t\r\n=>/\"'", false)
}

// runEnd is the end of the run from j on of bytes in set (in true) or
// not in it (in false).
func runEnd(code string, j int, set string, in bool) int {
	for j < len(code) && (strings.IndexByte(set, code[j]) >= 0) == in {
		j++
	}
	return j
}

// entityEnd is the end of the character reference at code[i] (&amp;,
// &#38;, &#x26;), or -1.
func entityEnd(code string, i int) int {
	for j := i + 1; j < len(code) && j < i+34; j++ {
		switch c := code[j]; {
		case c == ';':
			if j == i+1 {
				return -1
			}
			return j + 1
		case isWordByte(c), c == '#' && j == i+1:
		default:
			return -1
		}
	}
	return -1
}

// indexFold is the index of the first sub in s, ignoring ASCII case, or
// -1. sub starts with a byte that has no case.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); {
		k := strings.IndexByte(s[i:], sub[0])
		if k < 0 || i+k+len(sub) > len(s) {
			return -1
		}
		i += k
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
		i++
	}
	return -1
}

// maxPropertyLook bounds how far past a word the CSS lexer looks to tell
// a property (`color: red;`) from a selector with a pseudo-class
// (`a:hover {`), which keeps lexing linear.
const maxPropertyLook = 256

// lexCSS colours CSS, SCSS and Less: selectors (tags Keyword, .classes
// and #ids Type, :pseudo-classes Function), properties (Type), values
// (numbers and #colours Number, functions Function, strings), at-rules
// and !important (Keyword), $variables and comments (/* */, and // after
// a space or at a line's start, for SCSS and Less).
func lexCSS(spec *langSpec, e *emitter, from, to int) {
	l := cssLexer{spec: spec, code: e.code[:to], from: from}
	for i := from; i < to; {
		k, j := l.token(i)
		j = max(j, i+1)
		e.add(k, i, j)
		i = j
	}
}

// cssLexer is the state of lexing CSS: how deep in blocks, and whether
// in a declaration's value or right after its property.
type cssLexer struct {
	spec               *langSpec
	code               string
	from, depth        int
	inValue, afterProp bool
}

// token is the kind and end of the token at code[i].
func (l *cssLexer) token(i int) (Kind, int) {
	code := l.code
	switch code[i] {
	case ' ', '\t', '\n', '\r':
		return Plain, codeSpaceEnd(code, i+1)
	case '"', '\'':
		return String, stringEnd(l.spec, code, i)
	case '{', '}', ';', ':':
		return l.punct(i)
	case '/':
		if j := l.commentEnd(i); j > i {
			return Comment, j
		}
	}
	if k, j := l.prefixed(i); j > i {
		return k, j
	}
	return l.word(i)
}

// commentEnd is the end of the comment at code[i]: /* */, or // to the
// line's end after a space or at the start; or i when none starts there.
func (l *cssLexer) commentEnd(i int) int {
	code := l.code
	switch {
	case strings.HasPrefix(code[i:], "/*"):
		return closeAfter(code, i+2, "*/")
	case strings.HasPrefix(code[i:], "//") && (i == l.from || isCodeSpace(code[i-1])):
		return lineEnd(code, i)
	}
	return i
}

// punct is the kind and end of the brace, semicolon or colon at code[i],
// which move the lexer in and out of blocks and values.
func (l *cssLexer) punct(i int) (Kind, int) {
	switch l.code[i] {
	case '{':
		l.depth++
	case '}':
		l.depth = max(l.depth-1, 0)
	case ':':
		return l.colon(i)
	}
	l.inValue, l.afterProp = false, false
	return Plain, i + 1
}

// colon is the kind and end of the colon at code[i]: the one after a
// property starts its value; outside a value it starts a pseudo-class.
func (l *cssLexer) colon(i int) (Kind, int) {
	switch {
	case l.afterProp:
		l.inValue, l.afterProp = true, false
		return Operator, i + 1
	case l.inValue:
		return Plain, i + 1
	}
	j := i + 1
	for j < len(l.code) && l.code[j] == ':' {
		j++
	}
	if j < len(l.code) && isCSSIdentStart(l.code[j]) {
		return Function, cssIdentEnd(l.code, j)
	}
	return Plain, j
}

// prefixed is the kind and end of the at-rule, variable, !important,
// #id or colour, or .class at code[i], or an end of i when none starts
// there.
func (l *cssLexer) prefixed(i int) (Kind, int) {
	code := l.code
	switch code[i] {
	case '!':
		if strings.HasPrefix(code[i+1:], "important") {
			return Keyword, i + len("!important")
		}
	case '#':
		if isTagNameByte(byteAt(code, i+1)) {
			return cssHashKinds[b2i(l.inValue)], cssIdentEnd(code, i+1)
		}
	case '@', '$', '.':
		if isCSSIdentStart(byteAt(code, i+1)) {
			return l.marked(i)
		}
	}
	return Plain, i
}

// cssHashKinds is the kind of a #word outside a value (an id) and in one
// (a colour).
var cssHashKinds = [2]Kind{Type, Number}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// marked is the kind and end of the at-rule, variable or .class at
// code[i], an identifier following its first byte; or an end of i for a
// dot inside a value.
func (l *cssLexer) marked(i int) (Kind, int) {
	j := cssIdentEnd(l.code, i+1)
	switch l.code[i] {
	case '@':
		return Keyword, j
	case '$':
		if !l.inValue && cssIsProperty(l.code, j, l.depth, true) {
			l.afterProp = true
		}
		return Plain, j
	}
	if l.inValue {
		return Plain, i
	}
	return Type, j
}

// word is the kind and end of the number, identifier or other byte at
// code[i].
func (l *cssLexer) word(i int) (Kind, int) {
	code := l.code
	c := code[i]
	switch {
	case isDigitByte(c) || (c == '.' || c == '-') && digitAt(code, i+1):
		return Number, cssNumberEnd(code, i+1)
	case isCSSIdentStart(c):
		return l.ident(i)
	case strings.IndexByte(">+~*=,", c) >= 0:
		return Operator, i + 1
	}
	return Plain, i + 1
}

// cssNumberEnd is the end of the number whose rest starts at code[j]:
// letters, digits, underscores, dots and a percent sign (1.5em, 50%).
func cssNumberEnd(code string, j int) int {
	for j < len(code) && (isWordByte(code[j]) || code[j] == '.' || code[j] == '%') {
		j++
	}
	return j
}

// ident is the kind and end of the identifier at code[i]: a function
// before (, in a value plain, else a property or a selector's tag.
func (l *cssLexer) ident(i int) (Kind, int) {
	code := l.code
	j := cssIdentEnd(code, i)
	switch {
	case byteAt(code, j) == '(':
		return Function, j
	case l.inValue:
		return Plain, j
	case cssIsProperty(code, j, l.depth, false):
		l.afterProp = true
		return Type, j
	}
	return Keyword, j
}

// byteAt is code[i], or 0 past its end.
func byteAt(code string, i int) byte {
	if i < len(code) {
		return code[i]
	}
	return 0
}

// isCSSIdentStart reports whether c can start a CSS identifier.
func isCSSIdentStart(c byte) bool { return cssIdentStarts.has(c) }

// cssIdentEnd is the end of the identifier from j on.
func cssIdentEnd(code string, j int) int {
	for j < len(code) && cssIdentBytes.has(code[j]) {
		j++
	}
	return j
}

// cssIsProperty reports whether the word that ends at code[j] is a
// property: inside a block (or a variable anywhere), followed by a colon,
// and the declaration ends (;, }, or the code's end) before any block
// opens ({), within maxPropertyLook bytes.
func cssIsProperty(code string, j, depth int, variable bool) bool {
	if depth == 0 && !variable {
		return false
	}
	k := spacesEnd(code, j, len(code))
	if k == len(code) || code[k] != ':' {
		return false
	}
	for n := k + 1; n < len(code) && n < k+maxPropertyLook; n++ {
		switch code[n] {
		case ';', '}':
			return true
		case '{':
			// SCSS's #{interpolation} is no block.
			if code[n-1] != '#' {
				return false
			}
		}
	}
	return true
}
