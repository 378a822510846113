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
		switch {
		case escapes && escapesPunct(b, i):
			dst = append(dst, b[i+1])
			i += 2
		case b[i] == '&':
			var n int
			dst, n = appendReference(dst, b[i:])
			i += n
		default:
			j := skipOutside(b, i+1, classDecode)
			dst = append(dst, b[i:j]...)
			i = j
		}
	}
	return dst
}

// appendReference appends the character reference b starts with,
// decoded, or its '&' when it starts with none; it returns how many
// bytes of b it read.
func appendReference(dst, b []byte) ([]byte, int) {
	if r, n := decodeReference(b); n > 0 {
		return append(dst, r...), n
	}
	return append(dst, '&'), 1
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
	// A name of up to 32 letters and digits.
	i := skipClass(b[:min(len(b), 33)], 1, classAlnum)
	if !endsReference(b, 1, i) {
		return nil, 0
	}
	e, ok := util.LookUpHTML5EntityByName(string(b[1:i]))
	if !ok {
		return nil, 0
	}
	return e.Characters, i + 1
}

// endsReference reports whether a reference whose name or number runs
// from b[start] to b[i] is not empty and ends with ';' there.
func endsReference(b []byte, start, i int) bool {
	return i > start && i < len(b) && b[i] == ';'
}

// numericReference decodes the numeric reference `&#123;` or `&#x1F;` at
// the start of b, as decodeReference does.
func numericReference(b []byte) (repl []byte, n int) {
	i, base, most := 2, 10, 7
	if b[i]|0x20 == 'x' {
		i, base, most = 3, 16, 6
	}
	v, end := digitsAt(b, i, base, most)
	if !endsReference(b, i, end) {
		return nil, 0
	}
	r := rune(v)
	if v == 0 || !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return utf8.AppendRune(nil, r), end + 1
}

// digitsAt reads up to most digits in base at b[i:] and returns their
// value and where they end.
func digitsAt(b []byte, i, base, most int) (v, end int) {
	for end = i; end < len(b) && end-i < most; end++ {
		d := digitValue(b[end], base)
		if d < 0 {
			break
		}
		v = v*base + d
	}
	return v, end
}
