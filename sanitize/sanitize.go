// Package sanitize makes untrusted text inert before it enters markii's
// document tree. Every string a note contributes to the output passes one of
// these functions exactly once, on its way into the tree.
//
// The functions are pure: no state, no environment, no allocation when the
// input is already clean.
package sanitize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TabWidth is the number of spaces a tab becomes in preformatted text.
const TabWidth = 4

// tabSpaces is what one tab becomes in preformatted text.
var tabSpaces = strings.Repeat(" ", TabWidth)

// bidiOpen is a bidi control that is open, at its offset.
type bidiOpen struct {
	at      int
	isolate bool
}

// strayBidi returns the offsets of the bidi controls of s that s does not
// open and close in order. It walks the controls as a stack: a closer
// (PDF U+202C closes an embedding or override, PDI U+2069 an isolate)
// pairs with the innermost open control of its class; a PDI also closes
// the embeddings opened inside its isolate, as the Unicode algorithm
// does.
func strayBidi(s string) map[int]bool {
	var stack []bidiOpen
	stray := map[int]bool{}
	for i, r := range s {
		switch bidiKindOf(r) {
		case bidiEmbedding:
			stack = append(stack, bidiOpen{i, false})
		case bidiIsolate:
			stack = append(stack, bidiOpen{i, true})
		case bidiPDF:
			stack = closeEmbedding(stack, stray, i)
		case bidiPDI:
			stack = closeIsolate(stack, stray, i)
		}
	}
	for _, o := range stack {
		stray[o.at] = true
	}
	return stray
}

// bidiKind is what a bidi control does: open an embedding or override,
// open an isolate, or close one (PDF, PDI).
type bidiKind uint8

const (
	notBidi bidiKind = iota
	bidiEmbedding
	bidiIsolate
	bidiPDF
	bidiPDI
)

// bidiKinds are the kinds of U+202A–U+202E (LRE, RLE, PDF, LRO, RLO) and
// of U+2066–U+2069 (LRI, RLI, FSI, PDI).
var (
	embeddingKinds = [...]bidiKind{bidiEmbedding, bidiEmbedding, bidiPDF, bidiEmbedding, bidiEmbedding}
	isolateKinds   = [...]bidiKind{bidiIsolate, bidiIsolate, bidiIsolate, bidiPDI}
)

// bidiKindOf is the kind of bidi control r is, or notBidi.
func bidiKindOf(r rune) bidiKind {
	switch {
	case r >= 0x202a && r <= 0x202e:
		return embeddingKinds[r-0x202a]
	case r >= 0x2066 && r <= 0x2069:
		return isolateKinds[r-0x2066]
	}
	return notBidi
}

// closeEmbedding pairs the PDF at offset i with the innermost open
// control when that is an embedding or override, else marks the PDF
// stray, and returns the stack left.
func closeEmbedding(stack []bidiOpen, stray map[int]bool, i int) []bidiOpen {
	if n := len(stack); n > 0 && !stack[n-1].isolate {
		return stack[:n-1]
	}
	stray[i] = true
	return stack
}

// closeIsolate pairs the PDI at offset i with the innermost open isolate,
// marking stray the embeddings still open inside it, or the PDI itself
// when no isolate is open, and returns the stack left.
func closeIsolate(stack []bidiOpen, stray map[int]bool, i int) []bidiOpen {
	j := len(stack) - 1
	for j >= 0 && !stack[j].isolate {
		j--
	}
	if j < 0 {
		stray[i] = true
		return stack
	}
	for _, o := range stack[j+1:] {
		stray[o.at] = true
	}
	return stack[:j]
}

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
		if s[i] >= 0x80 {
			// Multi-byte: check the rest the slow way.
			return utf8.ValidString(s[i:]) && cleanRunes(s[i:], noSpace, keepLF, keepTab)
		}
		if unwanted(rune(s[i]), noSpace, keepLF, keepTab) {
			return false
		}
	}
	return true
}

// cleanRunes is clean's check of each character of valid UTF-8.
func cleanRunes(s string, noSpace, keepLF, keepTab bool) bool {
	for _, r := range s {
		if unwanted(r, noSpace, keepLF, keepTab) {
			return false
		}
	}
	return true
}

// unwanted reports whether clean refuses r.
func unwanted(r rune, noSpace, keepLF, keepTab bool) bool {
	if r == '\n' && keepLF || r == '\t' && keepTab {
		return false
	}
	return isControl(r) || noSpace && r == ' '
}

// Inline sanitizes text that is shown inside a line: paragraph text,
// headings, link text, alt text, attribute values a component prints and
// script values. Every C0 control (ESC included), DEL and every C1 control is
// removed, except that tab, carriage return and line feed each become one
// space so words do not run together. Invalid UTF-8 becomes U+FFFD.
//
// A bidirectional embedding, override or isolate control (U+202A–U+202E,
// U+2066–U+2069) is kept when the same text closes it, and shown as a
// visible escape (⟨U+202E⟩, as Visible does) when it is left open or
// closes nothing: see balanceBidi for why it is shown rather than closed.
func Inline(s string) string {
	if clean(s, false, false, false) {
		return balanceBidi(s)
	}
	return balanceBidi(inline(s))
}

// inline is Inline without the shortcut and the bidi balance.
func inline(s string) string {
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
// error, a status line, a name in a record): Visible, with runs of spaces
// folded to one and the ends trimmed.
func Line(s string) string {
	s = Visible(s)
	if !strings.Contains(s, "  ") && strings.TrimSpace(s) == s {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Visible sanitizes text where trust is decided — an address shown to a
// reader (a printed URL, a link's target in the status bar, a link's
// visible text), a host name, a grant question, a diagnostic, a file name
// — as Inline does, and shows every character that would change how the
// text reads without being seen as a visible escape, ⟨U+202E⟩: the
// bidirectional embedding, override, isolate and mark characters
// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and the zero-width
// and other default-ignorable characters (Invisible). A right-to-left
// override in an address can otherwise make it read reversed (the Trojan
// Source class, CVE-2021-42574), and a zero-width character makes two
// different names look the same. Clean input is returned as it is.
func Visible(s string) string {
	s = Inline(s)
	if !hasInvisible(s) {
		return s
	}
	return escapeInvisible(s)
}

// hasInvisible reports whether s holds an Invisible character; ASCII text
// holds none.
func hasInvisible(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.ContainsFunc(s[i:], Invisible)
		}
	}
	return false
}

// TextVisible is Text with the characters Visible escapes shown as it
// shows them: for a message of several lines (standard error).
func TextVisible(s string) string {
	s = Text(s)
	if !hasInvisible(s) {
		return s
	}
	return escapeInvisible(s)
}

// escapeInvisible writes every Invisible character of s as ⟨U+XXXX⟩.
func escapeInvisible(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if Invisible(r) {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Invisible reports whether r is a bidirectional control or mark
// (isBidiControl, U+200E, U+200F, U+061C) or a default-ignorable code point
// (Unicode's Default_Ignorable_Code_Point: soft hyphen, zero-width space,
// joiners, word joiner, variation selectors, the byte order mark, tags and
// the rest): a character that changes how text reads, or nothing at all,
// without being seen.
func Invisible(r rune) bool {
	for _, g := range invisibles {
		if r < g.lo {
			return false
		}
		if r <= g.hi {
			return true
		}
	}
	return false
}

// invisibles are the code points Invisible reports, as ranges in
// ascending order: the default-ignorable code points, among them the
// bidi controls of U+2066–U+2069 and the marks U+200E and U+200F, and
// the bidi controls U+202A–U+202E and U+061C.
var invisibles = [...]struct{ lo, hi rune }{
	{0x00ad, 0x00ad},
	{0x034f, 0x034f},
	{0x061c, 0x061c},
	{0x115f, 0x1160},
	{0x17b4, 0x17b5},
	{0x180b, 0x180f},
	{0x200b, 0x200f},
	{0x202a, 0x202e},
	{0x2060, 0x206f},
	{0x3164, 0x3164},
	{0xfe00, 0xfe0f},
	{0xfeff, 0xfeff},
	{0xffa0, 0xffa0},
	{0xfff0, 0xfff8},
	{0x1bca0, 0x1bca3},
	{0x1d173, 0x1d17a},
	{0xe0000, 0xe0fff},
}

// balanceBidi keeps the bidirectional embedding, override and isolate
// controls of s that s itself opens and closes in order (an author writing
// right-to-left text marks it so) and shows every other one as a visible
// escape. The unit is the text passed in — in prose one run of a
// paragraph's text between two inline marks, never more than a paragraph
// — so an override cannot reach past it to reorder what follows. An open
// control is shown rather than closed at the end: a terminal that applies
// bidi does it per row, and markii's wrapper places text on rows the
// author never saw, beside table borders and other cells; a closer added
// at the paragraph's end may land on another row than the opener, where it
// would protect nothing. Showing the stray control is exact on every row
// and tells the reader the note holds one.
func balanceBidi(s string) string {
	// Every bidi control's UTF-8 form starts with 0xE2.
	if strings.IndexByte(s, 0xe2) < 0 || !strings.ContainsFunc(s, isBidiControl) {
		return s
	}
	stray := strayBidi(s)
	if len(stray) == 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if stray[i] {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isBidiControl reports whether r is one of the bidirectional embedding,
// override or isolate controls (U+202A–U+202E, U+2066–U+2069).
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
