// Package sanitize makes untrusted text inert before it enters markii's
// document tree. Every string a note contributes to the output passes one of
// these functions exactly once, on its way into the tree.
//
// The functions are pure: no state, no environment, no allocation when the
// input is already clean.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// TabWidth is the number of spaces a tab becomes in preformatted text.
const TabWidth = 4

// tabSpaces is what one tab becomes in preformatted text.
var tabSpaces = strings.Repeat(" ", TabWidth)

// isControl reports whether r is a C0 control, DEL or a C1 control.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)
}

// clean reports whether s is valid UTF-8 with no control characters
// (line feeds aside when keepLF is set, tabs aside when keepTab is set)
// and, if noSpace is set, no spaces. It lets the common case return s
// unchanged.
func clean(s string, noSpace, keepLF, keepTab bool) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if (b < 0x20 && !(keepLF && b == '\n') && !(keepTab && b == '\t')) || b == 0x7f || (noSpace && b == ' ') {
			return false
		}
		if b >= 0x80 {
			// Multi-byte: check the whole string the slow way.
			if !utf8.ValidString(s[i:]) {
				return false
			}
			for _, r := range s[i:] {
				if (isControl(r) && !(keepLF && r == '\n') && !(keepTab && r == '\t')) || (noSpace && r == ' ') {
					return false
				}
			}
			return true
		}
	}
	return true
}

// Inline sanitizes text that is shown inside a line: paragraph text,
// headings, link text, alt text, attribute values a component prints and
// script values. Every C0 control (ESC included), DEL and every C1 control is
// removed, except that tab, carriage return and line feed each become one
// space so words do not run together. Invalid UTF-8 becomes U+FFFD.
func Inline(s string) string {
	if clean(s, false, false, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s { // range yields U+FFFD for invalid bytes
		switch {
		case r == '\t' || r == '\r' || r == '\n':
			b.WriteByte(' ')
		case isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Pre sanitizes preformatted text (code block bodies). CRLF and lone CR
// become LF, line feeds are kept, every tab becomes TabWidth spaces
// wherever it stands (SPEC §7.2: the reference does the same, so a note's
// code lines up as its author saw it there), and every other C0 control,
// DEL and C1 control is removed. Invalid UTF-8 becomes U+FFFD.
func Pre(s string) string {
	if clean(s, false, true, false) {
		return s
	}
	return pre(s)
}

// pre is Pre without the shortcut for text that needs no change.
func pre(s string) string { return layoutText(s, tabSpaces) }

// Text sanitizes whole text that keeps its layout, such as markdown
// source written to a terminal or a pipe: CRLF and lone CR become LF, tabs
// and line feeds are kept as they are, and every other C0 control, DEL and
// C1 control is removed. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if clean(s, false, true, true) {
		return s
	}
	return text(s)
}

// text is Text without the shortcut for text that needs no change.
func text(s string) string { return layoutText(s, "\t") }

// layoutText is the loop of Pre and Text: CRLF and lone CR become LF,
// line feeds are kept, each tab becomes tab, and every other C0 control,
// DEL and C1 control is removed. Invalid UTF-8 becomes U+FFFD.
func layoutText(s, tab string) string {
	var b strings.Builder
	b.Grow(len(s))
	prevCR := false
	for _, r := range s {
		if prevCR && r == '\n' {
			prevCR = false
			continue
		}
		prevCR = r == '\r'
		switch {
		case r == '\r' || r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(tab)
		case isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// URL sanitizes a URL that may be written into a hyperlink sequence: every
// C0 control, DEL, C1 control and space is removed, and invalid UTF-8
// becomes U+FFFD.
func URL(s string) string {
	if clean(s, true, false, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if isControl(r) || r == ' ' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SafeURL reports whether u passes the safe-scheme rule of the Markii
// format: a URL with no scheme (relative, "#frag", "?q") or with the scheme
// http, https, mailto or tel, compared case-insensitively. The scheme is the
// text before the first ':' only when that ':' comes before any '/', '?' or
// '#'. The candidate is compared as written, so " javascript:" (with a
// leading space) is refused.
func SafeURL(u string) bool {
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return true
	}
	switch strings.ToLower(u[:i]) {
	case "http", "https", "mailto", "tel":
		return true
	}
	return false
}

// LinkURL returns the URL to keep for a link or image destination: the
// URL-class sanitized form of u if u passes SafeURL, else "".
func LinkURL(u string) string {
	if !SafeURL(u) {
		return ""
	}
	return URL(u)
}

// Line makes untrusted text fit one line of a message (a diagnostic, an
// error, a status line, a name in a record): Inline, with the
// bidirectional embedding, override and isolate controls removed too (they
// could reorder the words around them), runs of spaces folded to one and
// the ends trimmed.
func Line(s string) string {
	s = Inline(s)
	if strings.ContainsFunc(s, isBidiControl) {
		s = strings.Map(func(r rune) rune {
			if isBidiControl(r) {
				return -1
			}
			return r
		}, s)
	}
	if !strings.Contains(s, "  ") && strings.TrimSpace(s) == s {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isBidiControl reports whether r is one of the bidirectional embedding,
// override or isolate controls (U+202A–U+202E, U+2066–U+2069).
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
