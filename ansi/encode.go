package ansi

import (
	"strconv"
	"strings"
)

// Encode writes lines as terminal bytes at level, each line followed by a
// line feed. SGR state is line-local: every styled span is closed with a
// full reset before the next span and before the line feed. At None no
// escape byte is written at all, and a span's Image is left out. A span's Link becomes an OSC 8 hyperlink
// only when the level is not None and the URL passes LinkAllowed.
func Encode(lines []Line, level Level) []byte {
	return AppendLines(nil, lines, level)
}

// AppendLines appends the encoding of lines (each followed by a line feed)
// to dst and returns the extended slice.
func AppendLines(dst []byte, lines []Line, level Level) []byte {
	var e Encoder
	return e.AppendLines(dst, lines, level)
}

// Encoder encodes lines exactly as AppendLines does, remembering across
// calls the escape sequences of the styles it met, so that a page encoded
// a block at a time does not rebuild them for every block. The zero
// Encoder is ready to use; it is not safe for concurrent use.
type Encoder struct{ e encoder }

// AppendLines is AppendLines using what e remembers.
func (e *Encoder) AppendLines(dst []byte, lines []Line, level Level) []byte {
	for _, l := range lines {
		dst = e.e.appendLine(dst, l, level)
		dst = append(dst, '\n')
	}
	return dst
}

// AppendLine appends the encoding of one line, without a line feed, to
// dst. Consecutive spans of one style and link are merged into one run.
func AppendLine(dst []byte, l Line, level Level) []byte {
	var e *encoder
	return e.appendLine(dst, l, level)
}

// sgrCacheSize is how many recently used styles an encoder remembers the
// SGR sequence of; a page uses a handful of styles over and over.
const sgrCacheSize = 8

// maxSGR bounds the length of one SGR sequence: six attributes and two
// 24-bit colors come to 48 bytes.
const maxSGR = 48

// encoder encodes lines, remembering the SGR sequences of the styles it
// met last and whether the link it met last may be written. A nil
// encoder remembers nothing, for a single line.
type encoder struct {
	sgr  [sgrCacheSize]cachedSGR
	next int

	link        string
	linkAllowed bool
}

// cachedSGR is the SGR sequence that opens style at level (n bytes of
// seq; none when n is 0).
type cachedSGR struct {
	style Style
	level Level
	used  bool
	n     uint8
	seq   [maxSGR]byte
}

// appendOpen appends the SGR sequence that opens st at level, or nothing
// when st has no effect at level.
func (e *encoder) appendOpen(dst []byte, st Style, level Level) []byte {
	if e == nil {
		return appendSGR(dst, st, level)
	}
	for i := range e.sgr {
		c := &e.sgr[i]
		if c.used && c.style == st && c.level == level {
			return append(dst, c.seq[:c.n]...)
		}
	}
	n := len(dst)
	dst = appendSGR(dst, st, level)
	if seq := dst[n:]; len(seq) <= maxSGR {
		c := &e.sgr[e.next]
		e.next = (e.next + 1) % sgrCacheSize
		c.style, c.level, c.used, c.n = st, level, true, uint8(copy(c.seq[:], seq))
	}
	return dst
}

// allowed is LinkAllowed, remembering the answer for the last URL.
func (e *encoder) allowed(u string) bool {
	if e == nil {
		return LinkAllowed(u)
	}
	if u != e.link {
		e.link, e.linkAllowed = u, LinkAllowed(u)
	}
	return e.linkAllowed
}

// appendLine is AppendLine.
func (e *encoder) appendLine(dst []byte, l Line, level Level) []byte {
	for i := 0; i < len(l); {
		s := &l[i]
		if s.Image != nil {
			dst = appendPixels(dst, s.Image, level)
			i++
			continue
		}
		j := runEnd(l, i)
		// The spans l[i:j] share a style and a link: their text is
		// written under one OSC 8 and one SGR.
		link := level != None && s.Link != "" && e.allowed(s.Link)
		if link {
			dst = appendLinkOpen(dst, s.Link)
		}
		n := len(dst)
		if level != None && !s.Style.IsZero() {
			// A style whose colors do not exist at this level and that
			// has no attribute writes nothing rather than an empty SGR.
			dst = e.appendOpen(dst, s.Style, level)
		}
		sgr := len(dst) > n
		for k := i; k < j; k++ {
			dst = append(dst, l[k].Text...)
		}
		dst = appendCloses(dst, sgr, link)
		i = j
	}
	return dst
}

// appendPixels appends an image span's picture; pixels are for a
// terminal that was asked to show colors.
func appendPixels(dst []byte, img *Image, level Level) []byte {
	if level == None {
		return dst
	}
	return appendImage(dst, img)
}

// appendLinkOpen appends the OSC 8 sequence that opens a link to u.
func appendLinkOpen(dst []byte, u string) []byte {
	dst = append(dst, "\x1b]8;;"...)
	dst = append(dst, u...)
	return append(dst, 0x07)
}

// appendCloses appends the SGR reset when a style is open and the OSC 8
// close when a link is.
func appendCloses(dst []byte, sgr, link bool) []byte {
	if sgr {
		dst = append(dst, "\x1b[0m"...)
	}
	if link {
		dst = append(dst, "\x1b]8;;\x07"...)
	}
	return dst
}

// runEnd is the end of the run of text spans from l[i] that share its
// style and link, written under one SGR and one OSC 8.
func runEnd(l Line, i int) int {
	j := i + 1
	for j < len(l) && l[j].Style == l[i].Style && l[j].Link == l[i].Link && l[j].Image == nil {
		j++
	}
	return j
}

// appendSGR appends one SGR sequence that opens style st at level, or
// nothing when st has no effect at level.
func appendSGR(dst []byte, st Style, level Level) []byte {
	start := len(dst)
	dst = append(dst, "\x1b["...)
	open := len(dst)
	attrs := [...]struct {
		on    bool
		param byte
	}{{st.Bold, '1'}, {st.Dim, '2'}, {st.Italic, '3'}, {st.Underline, '4'}, {st.Inverse, '7'}, {st.Strikethru, '9'}}
	for _, a := range attrs {
		if a.on {
			dst = append(paramSep(dst, open), a.param)
		}
	}
	dst = appendColor(dst, open, st.FG, false, level)
	dst = appendColor(dst, open, st.BG, true, level)
	if len(dst) == open {
		return dst[:start]
	}
	return append(dst, 'm')
}

// appendColor appends the SGR parameters of color c at level, as the
// background when bg, to an SGR sequence whose parameters start at
// dst[open:]; nothing when c is unset or does not exist at level.
func appendColor(dst []byte, open int, c Color, bg bool, level Level) []byte {
	if !c.Set {
		return dst
	}
	intro := "38;"
	if bg {
		intro = "48;"
	}
	switch level {
	case Color16:
		if c.ANSI16 == 0 {
			return dst
		}
		n := int(c.ANSI16)
		if bg {
			n += 10
		}
		dst = strconv.AppendInt(paramSep(dst, open), int64(n), 10)
	case Color256:
		dst = append(append(paramSep(dst, open), intro...), "5;"...)
		dst = strconv.AppendInt(dst, int64(c.Index256()), 10)
	case TrueColor:
		dst = append(append(paramSep(dst, open), intro...), "2;"...)
		dst = strconv.AppendInt(dst, int64(c.R), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(c.G), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(c.B), 10)
	}
	return dst
}

// paramSep appends the ';' that separates a parameter from the ones
// before it, when dst[open:] holds any.
func paramSep(dst []byte, open int) []byte {
	if len(dst) > open {
		dst = append(dst, ';')
	}
	return dst
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
