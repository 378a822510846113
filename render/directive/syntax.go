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

// ScanAttrs reads the attribute block that starts with the `{` at b[i] (SPEC
// §1.4): whitespace-separated `key`, `key=bare`, `key="double"`,
// `key='single'`, `#id` and `.class` entries. Line endings count as
// whitespace (and may appear in quoted values) only when allowEOL is set.
// It returns the entries in source order, the index just past the closing
// `}`, and ok=false for a malformed or unclosed block. A repeated key keeps
// its last value; `.class` shorthands accumulate into one space-separated
// class value.
func ScanAttrs(b []byte, i int, allowEOL bool) (attrs []Attr, end int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return nil, i, false
	}
	j := i + 1
	space := func(c byte) bool { return isBlank(c) || (allowEOL && isEOL(c)) }
	for {
		for j < len(b) && space(b[j]) {
			j++
		}
		if j >= len(b) {
			return nil, i, false
		}
		c := b[j]
		switch {
		case c == '}':
			return dedupe(attrs), j + 1, true
		case c == '#' || c == '.':
			k := j + 1
			for k < len(b) && !isValueStop(b[k]) && b[k] != '#' && b[k] != '.' {
				k++
			}
			if k == j+1 {
				return nil, i, false
			}
			v := string(b[j+1 : k])
			if c == '#' {
				attrs = append(attrs, Attr{Key: "id", Value: v})
			} else {
				attrs = append(attrs, Attr{Key: classShorthand, Value: v})
			}
			j = k
			continue
		case isKeyStart(c):
			k := j + 1
			for k < len(b) && isKeyChar(b[k]) {
				k++
			}
			key := string(b[j:k])
			m := k
			for m < len(b) && space(b[m]) {
				m++
			}
			if m >= len(b) || b[m] != '=' {
				attrs = append(attrs, Attr{Key: key, Bare: true})
				j = k
				if k < len(b) && !space(b[k]) && b[k] != '}' && b[k] != '#' && b[k] != '.' {
					return nil, i, false
				}
				continue
			}
			m++
			for m < len(b) && space(b[m]) {
				m++
			}
			if m >= len(b) {
				return nil, i, false
			}
			var val string
			if q := b[m]; q == '"' || q == '\'' {
				n := m + 1
				for n < len(b) && b[n] != q {
					if !allowEOL && isEOL(b[n]) {
						return nil, i, false
					}
					n++
				}
				if n >= len(b) {
					return nil, i, false
				}
				val = string(b[m+1 : n])
				j = n + 1
				if j < len(b) && !space(b[j]) && b[j] != '}' {
					return nil, i, false
				}
			} else {
				n := m
				for n < len(b) && !isValueStop(b[n]) {
					n++
				}
				if n == m {
					return nil, i, false
				}
				val = string(b[m:n])
				j = n
				if j < len(b) && !space(b[j]) && b[j] != '}' {
					return nil, i, false
				}
			}
			attrs = append(attrs, Attr{Key: key, Value: val})
		default:
			return nil, i, false
		}
	}
}

// classShorthand is the internal key of a `.class` entry until dedupe
// merges it; it cannot collide with a real key, which never starts with a
// space.
const classShorthand = " class"

// dedupe merges repeated keys: the first position is kept and the last
// value wins, except that `.class` shorthands accumulate into one
// space-separated class value (an explicit class= replaces what came
// before it).
func dedupe(attrs []Attr) []Attr {
	if len(attrs) == 0 {
		return nil
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
			if !shorthand {
				classes = classes[:0]
			}
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
