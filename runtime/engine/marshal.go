package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
)

// MarshalReason says why a value could not cross out of Lua (SPEC §3.8).
type MarshalReason string

// The marshal failure reasons.
const (
	ReasonDepth     MarshalReason = "depth"
	ReasonNodes     MarshalReason = "nodes"
	ReasonCycle     MarshalReason = "cycle"
	ReasonType      MarshalReason = "type"
	ReasonKeyType   MarshalReason = "key-type"
	ReasonNonFinite MarshalReason = "non-finite-number"
	ReasonNulByte   MarshalReason = "nul-byte"
	ReasonSize      MarshalReason = "size"
)

// MarshalError is a value that cannot become JSON.
type MarshalError struct {
	Reason MarshalReason
	// Path locates the offending value, e.g. `value.items[3]`.
	Path   string
	Detail string
}

func (e *MarshalError) Error() string {
	return fmt.Sprintf("%s cannot be turned into data (%s): %s", e.Path, e.Reason, e.Detail)
}

// marshaller is the one capped, cycle-safe walk every value leaving Lua
// takes: return values, cache writes and json.encode.
type marshaller struct {
	maxDepth int
	maxNodes int
	maxBytes int64
	nodes    int
	onPath   map[*lua.LTable]bool
	buf      bytes.Buffer
	// step charges work to the run's budget; false stops the walk.
	step func(n int64) bool
}

// marshal turns v into compact JSON with sorted object keys.
func marshal(v lua.LValue, maxDepth, maxNodes int, maxBytes int64, step func(int64) bool) (json.RawMessage, error) {
	m := &marshaller{maxDepth: maxDepth, maxNodes: maxNodes, maxBytes: maxBytes, onPath: map[*lua.LTable]bool{}, step: step}
	if err := m.value(v, 0, "value"); err != nil {
		return nil, err
	}
	return json.RawMessage(m.buf.Bytes()), nil
}

var errStopped = errors.New("stopped")

func (m *marshaller) value(v lua.LValue, depth int, path string) error {
	if err := m.count(path); err != nil {
		return err
	}
	switch x := v.(type) {
	case *lua.LNilType:
		m.buf.WriteString("null")
	case lua.LBool:
		m.buf.WriteString(strconv.FormatBool(bool(x)))
	case lua.LNumber:
		return m.number(float64(x), path)
	case lua.LString:
		return m.str(string(x), path)
	case *lua.LTable:
		return m.table(x, depth+1, path)
	default:
		return &MarshalError{ReasonType, path, fmt.Sprintf("a %s is not data", v.Type().String())}
	}
	return nil
}

// count counts one more value against the budgets: values, the meter's
// step and the bytes written so far.
func (m *marshaller) count(path string) error {
	m.nodes++
	if m.nodes > m.maxNodes {
		return &MarshalError{ReasonNodes, path, fmt.Sprintf("more than %d values", m.maxNodes)}
	}
	if m.step != nil && !m.step(1) {
		return errStopped
	}
	if int64(m.buf.Len()) > m.maxBytes {
		return &MarshalError{ReasonSize, path, fmt.Sprintf("more than %d bytes of JSON", m.maxBytes)}
	}
	return nil
}

// number writes a finite number.
func (m *marshaller) number(f float64, path string) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &MarshalError{ReasonNonFinite, path, "NaN and infinities have no JSON form"}
	}
	m.buf.WriteString(formatNumber(f))
	return nil
}

// str writes a string without NUL bytes that fits the byte budget.
func (m *marshaller) str(s, path string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return &MarshalError{ReasonNulByte, path, "strings with a NUL byte are not data"}
	}
	if int64(m.buf.Len())+int64(len(s)) > m.maxBytes {
		return &MarshalError{ReasonSize, path, fmt.Sprintf("more than %d bytes of JSON", m.maxBytes)}
	}
	writeJSONString(&m.buf, s)
	return nil
}

func (m *marshaller) table(t *lua.LTable, depth int, path string) error {
	if depth > m.maxDepth {
		return &MarshalError{ReasonDepth, path, fmt.Sprintf("nested deeper than %d", m.maxDepth)}
	}
	if m.onPath[t] {
		return &MarshalError{ReasonCycle, path, "the table contains itself"}
	}
	m.onPath[t] = true
	defer delete(m.onPath, t)

	sh := shapeOf(t)
	if sh.count+m.nodes > m.maxNodes {
		return &MarshalError{ReasonNodes, path, fmt.Sprintf("more than %d values", m.maxNodes)}
	}
	switch {
	case sh.count == 0 || sh.allIndex:
		return m.array(t, sh.count, depth, path)
	case sh.allString:
		return m.object(t, sh.keys, depth, path)
	}
	what := "a table mixing number and string keys, or with gaps, is neither an array nor an object"
	if sh.bad != nil {
		what = fmt.Sprintf("a %s key is not data", sh.bad.Type().String())
	}
	return &MarshalError{ReasonKeyType, path, what}
}

// tableShape is what a table's keys make it: an array (keys exactly
// 1..count), an object (string keys) or neither, with its first key that
// is neither a number nor a string.
type tableShape struct {
	count               int
	allIndex, allString bool
	keys                []string
	bad                 lua.LValue
}

// shapeOf reads the keys of t.
func shapeOf(t *lua.LTable) tableShape {
	sh := tableShape{allIndex: true, allString: true}
	t.ForEach(func(k, _ lua.LValue) {
		sh.count++
		switch kk := k.(type) {
		case lua.LNumber:
			sh.allString = false
			if sh.bad == nil && (float64(kk) != math.Trunc(float64(kk)) || kk < 1) {
				sh.allIndex = false
			}
		case lua.LString:
			sh.allIndex = false
			sh.keys = append(sh.keys, string(kk))
		default:
			sh.allIndex, sh.allString = false, false
			if sh.bad == nil {
				sh.bad = k
			}
		}
	})
	if sh.allIndex {
		// Keys are distinct positive integers; they are exactly 1..n iff
		// each is at most the count.
		for i := 1; i <= sh.count; i++ {
			if t.RawGetInt(i) == lua.LNil {
				sh.allIndex = false
				break
			}
		}
	}
	return sh
}

// array writes t's values 1..count as a JSON array.
func (m *marshaller) array(t *lua.LTable, count, depth int, path string) error {
	m.buf.WriteByte('[')
	for i := 1; i <= count; i++ {
		if i > 1 {
			m.buf.WriteByte(',')
		}
		if err := m.value(t.RawGetInt(i), depth, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	m.buf.WriteByte(']')
	return nil
}

// object writes t's string keys as a JSON object. Keys are sorted and
// compared as they will be written (invalid UTF-8 replaced), so the
// object is canonical and two keys that would be written alike are
// refused rather than both written.
func (m *marshaller) object(t *lua.LTable, keys []string, depth int, path string) error {
	written := make(map[string]string, len(keys))
	for _, k := range keys {
		w := validUTF8(k)
		if prev, dup := written[w]; dup {
			return &MarshalError{ReasonKeyType, path, fmt.Sprintf("the keys %s and %s are the same text once invalid UTF-8 is replaced", strconv.Quote(prev), strconv.Quote(k))}
		}
		written[w] = k
	}
	sort.Slice(keys, func(i, j int) bool { return validUTF8(keys[i]) < validUTF8(keys[j]) })
	m.buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			m.buf.WriteByte(',')
		}
		if strings.IndexByte(k, 0) >= 0 {
			return &MarshalError{ReasonNulByte, path, "a key with a NUL byte is not data"}
		}
		writeJSONString(&m.buf, k)
		m.buf.WriteByte(':')
		if err := m.value(t.RawGetString(k), depth, keyPath(path, k)); err != nil {
			return err
		}
	}
	m.buf.WriteByte('}')
	return nil
}

func keyPath(path, k string) string {
	if len(k) > 40 {
		k = k[:40] + "…"
	}
	return path + "." + strconv.Quote(k)
}

// formatNumber writes f the way JSON.stringify does: integers without a
// fraction, others in the shortest form that round-trips.
func formatNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	// Go writes e+21 / e-07; JSON.stringify writes e+21 / e-7.
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

const hexDigits = "0123456789abcdef"

// validUTF8 is s as writeJSONString writes its text: each byte of invalid
// UTF-8 becomes U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// writeJSONString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func writeJSONString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			writeJSONByte(b, c)
			i++
			continue
		}
		i += writeJSONRune(b, s[i:])
	}
	b.WriteByte('"')
}

// jsonShortEscapes are the bytes a JSON string escapes with a letter,
// each at its escape letter's index in jsonEscapeLetters.
const (
	jsonShortEscapes  = "\"\\\n\r\t"
	jsonEscapeLetters = "\"\\nrt"
)

// writeJSONByte writes one ASCII byte of a JSON string: quote, backslash
// and the control bytes escaped, the rest as they are.
func writeJSONByte(b *bytes.Buffer, c byte) {
	if i := strings.IndexByte(jsonShortEscapes, c); i >= 0 {
		b.WriteByte('\\')
		b.WriteByte(jsonEscapeLetters[i])
		return
	}
	if c < 0x20 || c == 0x7f {
		b.WriteString(`\u00`)
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&0xf])
		return
	}
	b.WriteByte(c)
}

// writeJSONRune writes the character s starts with, which is not ASCII,
// and returns its length in s: U+FFFD for a byte that is not UTF-8, an
// escape for the line and paragraph separators.
func writeJSONRune(b *bytes.Buffer, s string) int {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size == 1:
		b.WriteString("\ufffd")
	case r == '\u2028' || r == '\u2029':
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		b.WriteString(s[:size])
	}
	return size
}

// DecodeError is JSON that cannot become Lua data.
type DecodeError struct {
	// Reason is syntax, size, depth, nodes or number.
	Reason string
	Detail string
}

func (e *DecodeError) Error() string { return fmt.Sprintf("invalid JSON (%s): %s", e.Reason, e.Detail) }

// decodeJSON builds genuine Lua tables from data, checking the size, depth
// and node budgets as it goes. JSON null is absent in an object and false in
// an array, so arrays stay dense.
func decodeJSON(L *lua.LState, data []byte, maxBytes int64, maxDepth, maxNodes int, step func(int64) bool) (lua.LValue, error) {
	if int64(len(data)) > maxBytes {
		return nil, &DecodeError{"size", fmt.Sprintf("%d bytes is more than the %d allowed", len(data), maxBytes)}
	}
	d := &jsonDecoder{L: L, dec: json.NewDecoder(bytes.NewReader(data)), maxDepth: maxDepth, maxNodes: maxNodes, step: step}
	d.dec.UseNumber()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, &DecodeError{"syntax", "text after the JSON value"}
	}
	return v, nil
}

type jsonDecoder struct {
	L        *lua.LState
	dec      *json.Decoder
	maxDepth int
	maxNodes int
	nodes    int
	step     func(int64) bool
}

func (d *jsonDecoder) token() (json.Token, error) {
	tok, err := d.dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, &DecodeError{"syntax", "unexpected end of JSON"}
		}
		return nil, &DecodeError{"syntax", err.Error()}
	}
	return tok, nil
}

func (d *jsonDecoder) value(depth int) (lua.LValue, error) {
	tok, err := d.token()
	if err != nil {
		return nil, err
	}
	return d.fromToken(tok, depth)
}

func (d *jsonDecoder) fromToken(tok json.Token, depth int) (lua.LValue, error) {
	d.nodes++
	if d.nodes > d.maxNodes {
		return nil, &DecodeError{"nodes", fmt.Sprintf("more than %d values", d.maxNodes)}
	}
	if d.step != nil && !d.step(1) {
		return nil, errStopped
	}
	switch t := tok.(type) {
	case nil:
		return lua.LNil, nil
	case bool:
		return lua.LBool(t), nil
	case string:
		return lua.LString(t), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return nil, &DecodeError{"number", fmt.Sprintf("%.40s is out of range", string(t))}
		}
		return lua.LNumber(f), nil
	case json.Delim:
		return d.container(t, depth)
	}
	return nil, &DecodeError{"syntax", "unexpected token"}
}

// container reads the array or object that delim opens into a table.
func (d *jsonDecoder) container(delim json.Delim, depth int) (lua.LValue, error) {
	if depth+1 > d.maxDepth {
		return nil, &DecodeError{"depth", fmt.Sprintf("nested deeper than %d", d.maxDepth)}
	}
	tbl := d.L.NewTable()
	var err error
	if delim == '[' {
		err = d.arrayInto(tbl, depth)
	} else {
		err = d.objectInto(tbl, depth)
	}
	if err != nil {
		return nil, err
	}
	if _, err := d.token(); err != nil {
		return nil, err
	}
	return tbl, nil
}

// arrayInto reads an array's values into tbl from index 1; a null is
// false, so that the array has no holes.
func (d *jsonDecoder) arrayInto(tbl *lua.LTable, depth int) error {
	i := 0
	for d.dec.More() {
		v, err := d.value(depth + 1)
		if err != nil {
			return err
		}
		if v == lua.LNil {
			v = lua.LFalse
		}
		i++
		tbl.RawSetInt(i, v)
	}
	return nil
}

// objectInto reads an object's members into tbl.
func (d *jsonDecoder) objectInto(tbl *lua.LTable, depth int) error {
	for d.dec.More() {
		kt, err := d.token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		v, err := d.value(depth + 1)
		if err != nil {
			return err
		}
		tbl.RawSetString(k, v)
	}
	return nil
}
