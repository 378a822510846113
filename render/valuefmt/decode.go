package valuefmt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decoder is a strict JSON reader (RFC 8259) that builds the values Decode
// returns without reflection, keeping object keys in order.
type decoder struct {
	data []byte
	pos  int
}

// Decode reads one JSON value into nil, bool, float64, string, []any or
// Object. Numbers become float64, as in JavaScript. Invalid UTF-8 and lone
// surrogate escapes in strings become U+FFFD. Trailing data after the
// value, nesting deeper than MaxDepth and numbers beyond float64 are
// errors.
func Decode(data []byte) (any, error) {
	d := &decoder{data: data}
	d.space()
	if d.pos >= len(d.data) {
		return nil, errors.New("unexpected end of JSON input")
	}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.pos < len(d.data) {
		return nil, fmt.Errorf("unexpected data after the JSON value at offset %d", d.pos)
	}
	return v, nil
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) fail(what string) error {
	if d.pos >= len(d.data) {
		return errors.New("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid character %q %s at offset %d", d.data[d.pos], what, d.pos)
}

func (d *decoder) value(depth int) (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.fail("")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, fmt.Errorf("JSON nests deeper than %d levels", MaxDepth)
		}
		return d.object(depth)
	case c == '[':
		if depth >= MaxDepth {
			return nil, fmt.Errorf("JSON nests deeper than %d levels", MaxDepth)
		}
		return d.array(depth)
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	}
	return nil, d.fail("looking for the beginning of a value")
}

func (d *decoder) literal(word string) error {
	if !strings.HasPrefix(string(d.data[d.pos:min(len(d.data), d.pos+len(word))]), word) {
		return d.fail("in literal " + word)
	}
	d.pos += len(word)
	return nil
}

func (d *decoder) object(depth int) (any, error) {
	d.pos++
	obj := Object{}
	var index map[string]int
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return obj, nil
	}
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail("looking for an object key")
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail("after an object key")
		}
		d.pos++
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if index == nil {
			index = map[string]int{}
		}
		if i, ok := index[key]; ok {
			obj[i].Value = v
		} else {
			index[key] = len(obj)
			obj = append(obj, Member{Key: key, Value: v})
		}
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.fail("")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return orderKeys(obj), nil
		default:
			return nil, d.fail("after an object value")
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	d.pos++
	arr := []any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return arr, nil
	}
	for {
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.fail("")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return arr, nil
		default:
			return nil, d.fail("after an array element")
		}
	}
}

func (d *decoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.at('0') {
		d.pos++
	} else if d.digits() == 0 {
		return nil, d.fail("in a number")
	}
	if d.at('.') {
		d.pos++
		if d.digits() == 0 {
			return nil, d.fail("after a decimal point")
		}
	}
	if d.at('e') || d.at('E') {
		if err := d.exponent(); err != nil {
			return nil, err
		}
	}
	lexeme := string(d.data[start:d.pos])
	f, err := strconv.ParseFloat(lexeme, 64)
	if err != nil {
		return nil, fmt.Errorf("number %s is out of range", lexeme)
	}
	return f, nil
}

// at reports whether the byte at d.pos is c.
func (d *decoder) at(c byte) bool { return d.pos < len(d.data) && d.data[d.pos] == c }

// digits reads a run of decimal digits and returns its length.
func (d *decoder) digits() int {
	n := 0
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
		n++
	}
	return n
}

// exponent reads a number's exponent from its e or E.
func (d *decoder) exponent() error {
	d.pos++
	if d.at('+') || d.at('-') {
		d.pos++
	}
	if d.digits() == 0 {
		return d.fail("in an exponent")
	}
	return nil
}

// str reads a string starting at its opening quote.
func (d *decoder) str() (string, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes, ASCII or valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			return validUTF8(string(s)), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.pos++
	}
	var b strings.Builder
	b.Write(d.data[start:d.pos])
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return validUTF8(b.String()), nil
		case c < 0x20:
			return "", d.fail("in a string (control characters must be escaped)")
		case c == '\\':
			if err := d.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			d.pos++
		}
	}
	return "", errors.New("unexpected end of JSON input")
}

// validUTF8 returns s with each invalid UTF-8 sequence replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// escapes are the characters of JSON's one-letter escapes, by letter.
var escapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape reads the escape at the backslash at d.pos into b.
func (d *decoder) escape(b *strings.Builder) error {
	d.pos++
	if d.pos >= len(d.data) {
		return d.fail("")
	}
	e := d.data[d.pos]
	d.pos++
	if c := escapes[e]; c != 0 {
		b.WriteByte(c)
		return nil
	}
	if e != 'u' {
		d.pos--
		return d.fail("in a string escape")
	}
	r, ok := d.hex4()
	if !ok {
		return d.fail("in a \\u escape")
	}
	b.WriteRune(d.surrogate(r))
	return nil
}

// surrogate returns r, or, when r is the first half of a surrogate pair
// and the second follows as a \u escape, the character they make (read
// past); a lone half is U+FFFD.
func (d *decoder) surrogate(r rune) rune {
	if !utf16.IsSurrogate(r) {
		return r
	}
	save := d.pos
	if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
		d.pos += 2
		if r2, ok := d.hex4(); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return dec
			}
		}
	}
	d.pos = save
	return utf8.RuneError
}

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		v := digitValue(rune(c))
		if v < 0 {
			return 0, false
		}
		r = r*16 + rune(v)
	}
	d.pos += 4
	return r, true
}
