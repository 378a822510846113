package valuefmt

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Member is one key of a JSON object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its keys in the order JavaScript's
// JSON.parse gives them: array-index keys ("0", "1", …) first in ascending
// numeric order, then every other key in first-seen order. A repeated key
// keeps its first position and its last value.
type Object []Member

// Get returns the value of key and whether the object has that own key.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Keys returns the object's keys in order.
func (o Object) Keys() []string {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.Key
	}
	return keys
}

// MaxDepth is the deepest nesting Decode accepts.
const MaxDepth = 200

// arrayIndex reports whether key is a canonical array index
// ("0".."4294967294" without leading zeros) and its value.
func arrayIndex(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

// orderKeys moves array-index keys to the front in numeric order, as
// JavaScript orders an object's own keys.
func orderKeys(o Object) Object {
	var idx, rest Object
	for _, m := range o {
		if _, ok := arrayIndex(m.Key); ok {
			idx = append(idx, m)
		} else {
			rest = append(rest, m)
		}
	}
	if len(idx) == 0 {
		return o
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, _ := arrayIndex(idx[i].Key)
		b, _ := arrayIndex(idx[j].Key)
		return a < b
	})
	return append(idx, rest...)
}

// Stringify is JavaScript's JSON.stringify without indentation for the
// values Decode produces.
func Stringify(v any) string {
	var b strings.Builder
	stringify(&b, v)
	return b.String()
}

func stringify(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		b.WriteString(jsonNumber(t))
	case string:
		quote(b, t)
	case []any:
		stringifyArray(b, t)
	case Object:
		stringifyObject(b, t)
	default:
		b.WriteString("null")
	}
}

// jsonNumber is n as JSON.stringify writes it: null when not finite.
func jsonNumber(n float64) string {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return "null"
	}
	return NumberString(n)
}

func stringifyArray(b *strings.Builder, a []any) {
	b.WriteByte('[')
	for i, e := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		stringify(b, e)
	}
	b.WriteByte(']')
}

func stringifyObject(b *strings.Builder, o Object) {
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		quote(b, m.Key)
		b.WriteByte(':')
		stringify(b, m.Value)
	}
	b.WriteByte('}')
}

// quote writes s as a JSON string the way JSON.stringify does: only the
// quote, the backslash and C0 controls are escaped.
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r)
			i += size
			continue
		case quoteEscapes[c] != "":
			b.WriteString(quoteEscapes[c])
		case c < 0x20:
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	b.WriteByte('"')
}

// quoteEscapes are the two-character escapes JSON.stringify writes, by
// the ASCII byte they stand for.
var quoteEscapes = [utf8.RuneSelf]string{
	'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`,
}
