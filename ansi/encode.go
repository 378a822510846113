package ansi

import (
	"strconv"
	"strings"
)

// Encode writes lines as terminal bytes at level, each line followed by a
// line feed. SGR state is line-local: every styled span is closed with a
// full reset before the next span and before the line feed. At None no
// escape byte is written at all. A span's Link becomes an OSC 8 hyperlink
// only when the level is not None and the URL passes LinkAllowed.
func Encode(lines []Line, level Level) []byte {
	var b strings.Builder
	for _, l := range lines {
		EncodeLine(&b, l, level)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// EncodeLine appends one line (without a line feed) to b.
func EncodeLine(b *strings.Builder, l Line, level Level) {
	for i := 0; i < len(l); {
		s := l[i]
		// Merge following spans that share style and link.
		j := i + 1
		for j < len(l) && l[j].Style == s.Style && l[j].Link == s.Link {
			j++
		}
		link := level != None && s.Link != "" && LinkAllowed(s.Link)
		if link {
			b.WriteString("\x1b]8;;")
			b.WriteString(s.Link)
			b.WriteString("\x07")
		}
		sgr := level != None && !s.Style.IsZero()
		if sgr {
			writeSGR(b, s.Style, level)
		}
		for k := i; k < j; k++ {
			b.WriteString(l[k].Text)
		}
		if sgr {
			b.WriteString("\x1b[0m")
		}
		if link {
			b.WriteString("\x1b]8;;\x07")
		}
		i = j
	}
}

// writeSGR writes one SGR sequence that opens style st at level.
func writeSGR(b *strings.Builder, st Style, level Level) {
	codes := make([]string, 0, 8)
	if st.Bold {
		codes = append(codes, "1")
	}
	if st.Dim {
		codes = append(codes, "2")
	}
	if st.Italic {
		codes = append(codes, "3")
	}
	if st.Underline {
		codes = append(codes, "4")
	}
	if st.Inverse {
		codes = append(codes, "7")
	}
	if st.Strikethru {
		codes = append(codes, "9")
	}
	codes = appendColor(codes, st.FG, level, false)
	codes = appendColor(codes, st.BG, level, true)
	if len(codes) == 0 {
		codes = append(codes, "0")
	}
	b.WriteString("\x1b[")
	b.WriteString(strings.Join(codes, ";"))
	b.WriteByte('m')
}

func appendColor(codes []string, c Color, level Level, bg bool) []string {
	if !c.Set {
		return codes
	}
	switch level {
	case Color16:
		if c.ANSI16 == 0 {
			return codes
		}
		n := int(c.ANSI16)
		if bg {
			n += 10
		}
		return append(codes, strconv.Itoa(n))
	case Color256:
		p := "38;5;"
		if bg {
			p = "48;5;"
		}
		return append(codes, p+strconv.Itoa(c.Index256()))
	case TrueColor:
		p := "38;2;"
		if bg {
			p = "48;2;"
		}
		return append(codes, p+strconv.Itoa(int(c.R))+";"+strconv.Itoa(int(c.G))+";"+strconv.Itoa(int(c.B)))
	}
	return codes
}

// LinkAllowed reports whether u may be written into an OSC 8 sequence: it
// is non-empty, contains no control character, space or non-ASCII byte
// (so it cannot end the sequence early), and its scheme is http, https,
// mailto or tel.
func LinkAllowed(u string) bool {
	if u == "" {
		return false
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= 0x20 || c >= 0x7f {
			return false
		}
	}
	i := strings.IndexByte(u, ':')
	if i < 0 {
		return false
	}
	switch strings.ToLower(u[:i]) {
	case "http", "https", "mailto", "tel":
		return true
	}
	return false
}
