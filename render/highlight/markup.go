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
		switch c := code[i]; {
		case c == '<' && strings.HasPrefix(code[i:], "<!--"):
			j := closeAfter(code, i+4, "-->")
			e.add(Comment, i, j)
			i = j
		case c == '<' && strings.HasPrefix(code[i:], "<![CDATA["):
			j := closeAfter(code, i+9, "]]>")
			e.add(String, i, j)
			i = j
		case c == '<' && strings.HasPrefix(code[i:], "<?"):
			j := closeAfter(code, i+2, "?>")
			e.add(Keyword, i, j)
			i = j
		case c == '<' && strings.HasPrefix(code[i:], "<!"):
			j := closeAfter(code, i+2, ">")
			e.add(Keyword, i, j)
			i = j
		case c == '<' && i+1 < to && (isTagNameStart(code[i+1]) || code[i+1] == '/'):
			name, j := lexTag(e, code, i)
			i = j
			var body *langSpec
			switch {
			case strings.EqualFold(name, "script"):
				body = &jsSpec
			case strings.EqualFold(name, "style"):
				body = &cssSpec
			}
			if body != nil && code[j-2] != '/' {
				k := indexFold(code[i:], "</"+name)
				if k < 0 {
					k = len(code) - i
				}
				body.lexRange(e, i, i+k)
				i += k
			}
		case c == '&':
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

// isTagNameStart reports whether c can start a tag name.
func isTagNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// isTagNameByte reports whether c can be in a tag or attribute name.
func isTagNameByte(c byte) bool {
	return isWordByte(c) || c == '-' || c == ':' || c == '.' || c >= 0x80
}

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
		c := code[i]
		switch {
		case c == '>':
			e.add(Plain, i, i+1)
			return name, i + 1
		case c == '/' && i+1 < len(code) && code[i+1] == '>':
			e.add(Plain, i, i+2)
			return name, i + 2
		case c == '=':
			e.add(Operator, i, i+1)
			i++
		case c == '"' || c == '\'':
			j := closeAfter(code, i+1, code[i:i+1])
			e.add(String, i, j)
			i = j
		case isCodeSpace(c):
			j := i + 1
			for j < len(code) && isCodeSpace(code[j]) {
				j++
			}
			e.add(Plain, i, j)
			i = j
		case i > 0 && code[i-1] == '=':
			// An unquoted value.
			j := i + 1
			for j < len(code) && !isCodeSpace(code[j]) && code[j] != '>' {
				j++
			}
			e.add(String, i, j)
			i = j
		default:
			j := i + 1
			for j < len(code) && !isCodeSpace(code[j]) && strings.IndexByte("=>/\"'", code[j]) < 0 {
				j++
			}
			e.add(Type, i, j)
			i = j
		}
	}
	return name, len(code)
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
	code := e.code[:to]
	depth, inValue, afterProp := 0, false, false
	for i := from; i < to; {
		c := code[i]
		j := i + 1
		k := Plain
		switch {
		case isCodeSpace(c):
			for j < to && isCodeSpace(code[j]) {
				j++
			}
		case strings.HasPrefix(code[i:], "/*"):
			k, j = Comment, closeAfter(code, i+2, "*/")
		case strings.HasPrefix(code[i:], "//") && (i == from || isCodeSpace(code[i-1])):
			k, j = Comment, lineEnd(code, i)
		case c == '"' || c == '\'':
			k, j = String, stringEnd(spec, code, i)
		case c == '{':
			depth++
			inValue, afterProp = false, false
		case c == '}':
			depth = max(depth-1, 0)
			inValue, afterProp = false, false
		case c == ';':
			inValue, afterProp = false, false
		case c == ':' && afterProp:
			k, inValue, afterProp = Operator, true, false
		case c == ':' && !inValue:
			// A pseudo-class or pseudo-element.
			for j < to && code[j] == ':' {
				j++
			}
			if j < to && isCSSIdentStart(code[j]) {
				k, j = Function, cssIdentEnd(code, j)
			}
		case (c == '@' || c == '$') && i+1 < to && isCSSIdentStart(code[i+1]):
			j = cssIdentEnd(code, i+1)
			if c == '@' {
				k = Keyword
			}
			if c == '$' && !inValue && cssIsProperty(code, j, depth, true) {
				afterProp = true
			}
		case c == '!' && strings.HasPrefix(code[i+1:], "important"):
			k, j = Keyword, i+len("!important")
		case c == '#' && i+1 < to && isTagNameByte(code[i+1]):
			j = cssIdentEnd(code, i+1)
			k = Type
			if inValue {
				k = Number
			}
		case c == '.' && !inValue && i+1 < to && isCSSIdentStart(code[i+1]):
			k, j = Type, cssIdentEnd(code, i+1)
		case isDigitByte(c) || (c == '.' || c == '-') && digitAt(code, i+1):
			for j < to && (isWordByte(code[j]) || code[j] == '.' || code[j] == '%') {
				j++
			}
			k = Number
		case isCSSIdentStart(c):
			j = cssIdentEnd(code, i)
			switch {
			case j < to && code[j] == '(':
				k = Function
			case inValue:
			case cssIsProperty(code, j, depth, false):
				k, afterProp = Type, true
			default:
				k = Keyword
			}
		case strings.IndexByte(">+~*=,", c) >= 0:
			k = Operator
		}
		e.add(k, i, j)
		i = j
	}
}

// isCSSIdentStart reports whether c can start a CSS identifier.
func isCSSIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c >= 0x80
}

// cssIdentEnd is the end of the identifier from j on.
func cssIdentEnd(code string, j int) int {
	for j < len(code) && (isWordByte(code[j]) || code[j] == '-' || code[j] >= 0x80) {
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
