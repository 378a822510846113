package render

import (
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// appendDecoded appends b to dst with CommonMark's backslash escapes (when
// escapes is set) and entity and numeric character references resolved.
// The result still needs sanitizing: `&#27;` decodes to a real ESC here, and
// that is exactly why the sanitizer runs after this step.
func appendDecoded(dst, b []byte, escapes bool) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\' && escapes && i+1 < len(b) && isASCIIPunct(b[i+1]):
			dst = append(dst, b[i+1])
			i += 2
		case c == '&':
			if r, n := decodeReference(b[i:]); n > 0 {
				dst = append(dst, r...)
				i += n
			} else {
				dst = append(dst, c)
				i++
			}
		default:
			j := i + 1
			for j < len(b) && b[j] != '&' && b[j] != '\\' {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
		}
	}
	return dst
}

// decodeReference decodes the character reference at the start of b
// (`&name;`, `&#123;`, `&#x1F;`). It returns the replacement bytes and the
// length consumed, or n=0 when b does not start with a valid reference.
// Code point 0, surrogates and values past U+10FFFF become U+FFFD.
func decodeReference(b []byte) (repl []byte, n int) {
	if len(b) < 3 || b[0] != '&' {
		return nil, 0
	}
	if b[1] == '#' {
		return numericReference(b)
	}
	i := 1
	for i < len(b) && i <= 32 && isASCIIAlnum(b[i]) {
		i++
	}
	if i == 1 || i >= len(b) || b[i] != ';' {
		return nil, 0
	}
	e, ok := util.LookUpHTML5EntityByName(string(b[1:i]))
	if !ok {
		return nil, 0
	}
	return e.Characters, i + 1
}

// numericReference decodes the numeric reference `&#123;` or `&#x1F;` at
// the start of b, as decodeReference does.
func numericReference(b []byte) (repl []byte, n int) {
	i, base, max := 2, 10, 7
	if b[i] == 'x' || b[i] == 'X' {
		i, base, max = 3, 16, 6
	}
	start := i
	v := 0
	for i < len(b) && i-start < max {
		d := digitValue(b[i], base)
		if d < 0 {
			break
		}
		v = v*base + d
		i++
	}
	if i == start || i >= len(b) || b[i] != ';' {
		return nil, 0
	}
	r := rune(v)
	if v == 0 || v > utf8.MaxRune || (r >= 0xd800 && r <= 0xdfff) {
		r = utf8.RuneError
	}
	return utf8.AppendRune(nil, r), i + 1
}
