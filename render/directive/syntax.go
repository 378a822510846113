package directive

import "strings"

// This file holds the hand-written scanners shared by the three forms:
// names, bracketed labels and `{...}` attribute blocks. They work on plain
// byte slices and never allocate except for the attributes they return.

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isLetter(c) || isDigit(c) }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isEOL(c byte) bool { return c == '\n' || c == '\r' }

// byteAt is b[i], or 0 when i is outside b.
func byteAt(b []byte, i int) byte {
	if i < 0 || i >= len(b) {
		return 0
	}
	return b[i]
}

// isPunct reports whether c is ASCII punctuation (what a backslash escapes).
func isPunct(c byte) bool {
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~')
}

// scanName reads a directive name starting at b[i]: an ASCII letter, then
// letters, digits, '-' and '_', not ending in '-' or '_'. It returns the
// index just past the name, or -1.
func scanName(b []byte, i int) int {
	if i >= len(b) || !isLetter(b[i]) {
		return -1
	}
	j := i + 1
	for j < len(b) && (isAlnum(b[j]) || b[j] == '-' || b[j] == '_') {
		j++
	}
	if b[j-1] == '-' || b[j-1] == '_' {
		return -1
	}
	return j
}

// scanLabel finds the `]` that closes the `[` at b[i], honouring nested
// brackets and backslash escapes. Unless allowEOL is set a line ending ends
// the search. It returns the index of the closing `]`, or -1.
func scanLabel(b []byte, i int, allowEOL bool) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch c := b[j]; {
		case c == '\\' && j+1 < len(b) && isPunct(b[j+1]):
			j++
		case c == '[':
			depth++
		case c == ']':
			depth--
			if depth == 0 {
				return j
			}
		case !allowEOL && isEOL(c):
			return -1
		}
	}
	return -1
}

func isKeyStart(c byte) bool { return isLetter(c) || c == '_' || c == ':' }

func isKeyChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == ':' || c == '.' || c == '-'
}

// isValueStop reports the bytes an unquoted value or a `#id`/`.class`
// shorthand cannot contain.
func isValueStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '<', '=', '>', '`', '{', '}':
		return true
	}
	return false
}

// scanAttrs reads the attribute block that starts with the `{` at b[i] (SPEC
// §1.4): whitespace-separated `key`, `key=bare`, `key="double"`,
// `key='single'`, `#id` and `.class` entries. Line endings count as
// whitespace (and may appear in quoted values) only when allowEOL is set.
// It returns the entries in source order, the index just past the closing
// `}`, and ok=false for a malformed or unclosed block. A repeated key keeps
// its last value; classes (`class=` and `.class`) accumulate into one
// space-separated value.
func scanAttrs(b []byte, i int, allowEOL bool) (attrs []Attr, end int, ok bool) {
	var buf [8]attrSpan
	spans, end, ok := scanAttrSpans(b, i, allowEOL, buf[:0])
	if !ok {
		return nil, i, false
	}
	if len(spans) == 0 {
		return nil, end, true
	}
	return attrsOf(string(b[i:end]), i, spans), end, true
}

// attrSpan is one entry of an attribute block as offsets into the scanned
// bytes: the key (unless kind is '#' or '.') and the value.
type attrSpan struct {
	// kind is '=' for key=value, 'b' for a bare key, '#' for an id and '.'
	// for a class shorthand.
	kind       byte
	key0, key1 int
	val0, val1 int
}

// scanAttrSpans scans the attribute block at b[i] as scanAttrs does,
// appending its entries to spans without making a string.
func scanAttrSpans(b []byte, i int, allowEOL bool, spans []attrSpan) (_ []attrSpan, end int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return nil, i, false
	}
	sc := attrScanner{b: b, allowEOL: allowEOL}
	j := i + 1
	for {
		j = sc.skipSpace(j)
		if j >= len(b) {
			return nil, i, false
		}
		var span attrSpan
		switch c := b[j]; {
		case c == '}':
			return spans, j + 1, true
		case isShorthand(c):
			span, j, ok = sc.shorthand(j)
		case isKeyStart(c):
			span, j, ok = sc.keyed(j)
		default:
			ok = false
		}
		if !ok {
			return nil, i, false
		}
		spans = append(spans, span)
	}
}

// attrScanner scans the entries of one attribute block.
type attrScanner struct {
	b        []byte
	allowEOL bool
}

// space reports whether c separates entries: a blank, or a line ending
// where the block may span lines.
func (sc attrScanner) space(c byte) bool { return isBlank(c) || (sc.allowEOL && isEOL(c)) }

// skipSpace is the index of the first byte at or after j that is not
// space.
func (sc attrScanner) skipSpace(j int) int {
	for j < len(sc.b) && sc.space(sc.b[j]) {
		j++
	}
	return j
}

// shorthand scans the `#id` or `.class` entry at b[j].
func (sc attrScanner) shorthand(j int) (attrSpan, int, bool) {
	b := sc.b
	k := j + 1
	for k < len(b) && !isValueStop(b[k]) && !isShorthand(b[k]) {
		k++
	}
	return attrSpan{kind: b[j], val0: j + 1, val1: k}, k, k > j+1
}

// endsEntry reports whether an entry may end before b[j]: at the end,
// space or the closing brace.
func (sc attrScanner) endsEntry(j int) bool {
	return j >= len(sc.b) || sc.space(sc.b[j]) || sc.b[j] == '}'
}

// isShorthand reports whether c starts a `#id` or `.class` entry.
func isShorthand(c byte) bool { return c == '#' || c == '.' }

// keyed scans the `key` or `key=value` entry at b[j].
func (sc attrScanner) keyed(j int) (attrSpan, int, bool) {
	b := sc.b
	k := j + 1
	for k < len(b) && isKeyChar(b[k]) {
		k++
	}
	m := sc.skipSpace(k)
	if m >= len(b) || b[m] != '=' {
		// A bare key ends at space, the block's end or a shorthand.
		ok := sc.endsEntry(k) || isShorthand(b[k])
		return attrSpan{kind: 'b', key0: j, key1: k}, k, ok
	}
	m = sc.skipSpace(m + 1)
	if m >= len(b) {
		return attrSpan{}, m, false
	}
	span := attrSpan{kind: '=', key0: j, key1: k}
	var ok bool
	span.val0, span.val1, j, ok = sc.value(m)
	if !ok || !sc.endsEntry(j) {
		return attrSpan{}, j, false
	}
	return span, j, true
}

// value scans the quoted or bare value at b[m]: the value's bounds and
// the index just past it.
func (sc attrScanner) value(m int) (val0, val1, next int, ok bool) {
	b := sc.b
	if q := b[m]; q == '"' || q == '\'' {
		n := m + 1
		for n < len(b) && b[n] != q {
			if !sc.allowEOL && isEOL(b[n]) {
				return 0, 0, n, false
			}
			n++
		}
		return m + 1, n, n + 1, n < len(b)
	}
	n := m
	for n < len(b) && !isValueStop(b[n]) {
		n++
	}
	return m, n, n, n > m
}

// nameAndAttrs makes the name b[nameStart:nameEnd] of a directive and the
// attributes of spans. When the attribute block directly follows the name
// one string holds both; a label between them is not copied.
func nameAndAttrs(b []byte, nameStart, nameEnd int, spans []attrSpan) (string, []Attr) {
	if len(spans) == 0 {
		return string(b[nameStart:nameEnd]), nil
	}
	// The block's last entry ends before its closing brace.
	attrStart, attrStop := spans[0].key0, max(spans[len(spans)-1].key1, spans[len(spans)-1].val1)
	if isShorthand(spans[0].kind) {
		attrStart = spans[0].val0
	}
	if attrStart-nameEnd <= 8 {
		attrStart = nameStart
	}
	s := string(b[attrStart:attrStop])
	var name string
	if attrStart == nameStart {
		name = s[:nameEnd-nameStart]
	} else {
		name = string(b[nameStart:nameEnd])
	}
	return name, attrsOf(s, attrStart, spans)
}

// attrsOf makes the attributes of spans, whose offsets are into bytes of
// which s is a copy from offset base on; every key and value is a
// substring of s. It returns nil for no spans.
func attrsOf(s string, base int, spans []attrSpan) []Attr {
	if len(spans) == 0 {
		return nil
	}
	attrs := make([]Attr, len(spans))
	for k, sp := range spans {
		switch sp.kind {
		case '#':
			attrs[k] = Attr{Key: "id", Value: s[sp.val0-base : sp.val1-base]}
		case '.':
			attrs[k] = Attr{Key: classShorthand, Value: s[sp.val0-base : sp.val1-base]}
		case 'b':
			attrs[k] = Attr{Key: s[sp.key0-base : sp.key1-base], Bare: true}
		default:
			attrs[k] = Attr{Key: s[sp.key0-base : sp.key1-base], Value: s[sp.val0-base : sp.val1-base]}
		}
	}
	return dedupe(attrs)
}

// classShorthand is the internal key of a `.class` entry until dedupe
// merges it; it cannot collide with a real key, which never starts with a
// space.
const classShorthand = " class"

// dedupe merges repeated keys: the first position is kept and the last
// value wins, except that every class, written `class=` or `.class`,
// accumulates into one space-separated value, as in remark-directive
// (`{class=a .b class="c d"}` is class "a b c d").
func dedupe(attrs []Attr) []Attr {
	if len(attrs) == 0 {
		return nil
	}
	if distinctKeys(attrs) {
		return attrs
	}
	out := attrs[:0:0]
	index := make(map[string]int, len(attrs))
	var classes []string
	for _, a := range attrs {
		shorthand := a.Key == classShorthand
		if shorthand {
			a.Key = "class"
		}
		if a.Key == "class" {
			if a.Value != "" {
				classes = append(classes, a.Value)
			}
		}
		if k, seen := index[a.Key]; seen {
			out[k] = a
			continue
		}
		index[a.Key] = len(out)
		out = append(out, a)
	}
	if k, ok := index["class"]; ok && len(classes) > 1 {
		out[k] = Attr{Key: "class", Value: strings.Join(classes, " ")}
	}
	return out
}

// distinctKeys reports, for a short list, that no key repeats and no
// entry is a `.class` shorthand: dedupe would return the list unchanged.
// It reports false for a long list, which dedupe then indexes.
func distinctKeys(attrs []Attr) bool {
	if len(attrs) > 16 {
		return false
	}
	for k, a := range attrs {
		if a.Key == classShorthand {
			return false
		}
		for _, b := range attrs[:k] {
			if a.Key == b.Key {
				return false
			}
		}
	}
	return true
}
