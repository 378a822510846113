package valuefmt

import (
	"bytes"
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
	c := d.data[d.pos]
	if (c == '{' || c == '[') && depth >= MaxDepth {
		return nil, fmt.Errorf("JSON nests deeper than %d levels", MaxDepth)
	}
	switch c {
	case '{':
		return d.object(depth)
	case '[':
		return d.array(depth)
	case '"':
		return d.str()
	case 't', 'f', 'n':
		return d.literal()
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return d.number()
	}
	return nil, d.fail("looking for the beginning of a value")
}

// literals are JSON's words and their values, in the order of their
// first letters in "tfn".
var literals = [...]struct {
	word  string
	value any
}{{"true", true}, {"false", false}, {"null", nil}}

// literal reads the word (true, false or null) whose first letter is at
// d.pos.
func (d *decoder) literal() (any, error) {
	lit := literals[strings.IndexByte("tfn", d.data[d.pos])]
	if !bytes.HasPrefix(d.data[d.pos:], []byte(lit.word)) {
		return nil, d.fail("in literal " + lit.word)
	}
	d.pos += len(lit.word)
	return lit.value, nil
}

func (d *decoder) object(depth int) (any, error) {
	d.pos++
	obj := Object{}
	if d.closes('}') {
		return obj, nil
	}
	index := map[string]int{} // where each key is in obj
	for {
		key, v, err := d.member(depth)
		if err != nil {
			return nil, err
		}
		if i, ok := index[key]; ok {
			obj[i].Value = v
		} else {
			index[key] = len(obj)
			obj = append(obj, Member{Key: key, Value: v})
		}
		done, err := d.next('}', "after an object value")
		if err != nil {
			return nil, err
		}
		if done {
			return orderKeys(obj), nil
		}
	}
}

// member reads an object's `"key": value`.
func (d *decoder) member(depth int) (string, any, error) {
	d.space()
	if !d.at('"') {
		return "", nil, d.fail("looking for an object key")
	}
	key, err := d.str()
	if err != nil {
		return "", nil, err
	}
	d.space()
	if !d.at(':') {
		return "", nil, d.fail("after an object key")
	}
	d.pos++
	d.space()
	v, err := d.value(depth + 1)
	return key, v, err
}

func (d *decoder) array(depth int) (any, error) {
	d.pos++
	arr := []any{}
	if d.closes(']') {
		return arr, nil
	}
	for {
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		done, err := d.next(']', "after an array element")
		if err != nil {
			return nil, err
		}
		if done {
			return arr, nil
		}
	}
}

// closes reads, after white space, the close of an empty object or array
// and reports whether it was there.
func (d *decoder) closes(close byte) bool {
	d.space()
	if d.at(close) {
		d.pos++
		return true
	}
	return false
}

// next reads, after white space, the comma or the close that follows an
// object's member or an array's element, and reports whether it was the
// close; any other byte is an error, described by what.
func (d *decoder) next(close byte, what string) (done bool, err error) {
	d.space()
	switch {
	case d.at(','):
		d.pos++
		return false, nil
	case d.at(close):
		d.pos++
		return true, nil
	}
	return false, d.fail(what)
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
