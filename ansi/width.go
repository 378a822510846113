package ansi

import (
	"strings"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"
)

// Width returns the display width of s in terminal cells, by grapheme
// cluster and East Asian width: CJK and emoji count 2, combining marks and
// zero-width characters 0, ZWJ sequences as one cluster. s must not contain
// escape sequences (document text never does).
func Width(s string) int {
	w := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] < 0x80:
			w++
		case boxDrawing(s[i:]):
			// U+2500–U+257F, one cell each: the frames and rules
			// markii draws, measured without grapheme segmentation.
			w++
			i += 2
		default:
			return xansi.StringWidth(s)
		}
	}
	return w
}

// boxDrawing reports whether s starts with a character of the Box
// Drawing block (U+2500–U+257F, encoded E2 94 80 to E2 95 BF) that no
// combining mark or variation selector follows: the string ends after
// it, or an ASCII byte or what may be another such character comes next.
func boxDrawing(s string) bool {
	return boxChar(s) && (len(s) == 3 || s[3] < 0x80 || boxLead(s[3:]))
}

// boxChar reports whether s starts with a character of the Box Drawing
// block: E2, then 94 or 95 (the bit 0 aside, 94), then a continuation
// byte (80 to BF, the top bits 10).
func boxChar(s string) bool {
	return len(s) >= 3 && boxLead(s) && s[2]&0xc0 == 0x80
}

// boxLead reports whether s, not empty, starts as a Box Drawing
// character does, as far as it goes in two bytes.
func boxLead(s string) bool {
	return s[0] == 0xe2 && (len(s) < 2 || s[1]&^1 == 0x94)
}

// keycap is the combining enclosing keycap (U+20E3), which is zero width
// however a terminal counts.
const keycap = '\u20e3'

// CellSafe returns s drawn so that a terminal that counts cells code point
// by code point (wcwidth), as a terminal without grapheme mode (mode 2027)
// does, gives each grapheme cluster the cells Width gives it. A cluster
// whose code points add up to other than its width is drawn as its first
// code point (a ZWJ sequence as its first emoji, a skin tone without its
// modifier, a keycap as its digit with the keycap mark), padded with
// spaces to its width when that is narrower: 👩‍💻 becomes 👩, 1️⃣ becomes
// "1⃣ ", ❤️ becomes "❤ ". Everything else, and all of an ASCII s, is
// kept as it is.
func CellSafe(s string) string { return cellSafe(s, xansi.StringWidthWc, xansi.StringWidthWc) }

// CellSafeJoined is CellSafe for a terminal that joins a code point after
// a zero-width joiner into the cell before it and otherwise counts cells
// code point by code point, as tmux does from version 3.3, drawn by a
// renderer that counts cells by grapheme cluster: a cluster that terminal
// gives the cells Width gives it is kept whole (👩‍💻, 👨‍👩‍👧), any
// other is drawn as CellSafe draws it (a skin tone without its modifier,
// 1️⃣ as "1⃣ ", 👁️‍🗨️ as "👁 ", whose eye is one cell there).
func CellSafeJoined(s string) string { return cellSafe(s, JoinedWidth, xansi.StringWidth) }

// JoinedWidth is the cells a terminal that joins what follows a
// zero-width joiner into the cell before it gives s: the code points'
// wcwidth, those right after a joiner counting none.
func JoinedWidth(s string) int {
	w, joined := 0, false
	for _, r := range s {
		if !joined {
			w += xansi.StringWidthWc(string(r))
		}
		joined = r == zwj
	}
	return w
}

// zwj is the zero-width joiner.
const zwj = '\u200d'

// cellSafe draws s so that each cluster takes the cells Width gives it
// both by the terminal's count and by the renderer's.
func cellSafe(s string, terminal, renderer func(string) int) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for rest := s; rest != ""; {
		cluster, w := xansi.FirstGraphemeCluster(rest, xansi.GraphemeWidth)
		rest = rest[len(cluster):]
		if cluster == "" {
			break
		}
		if terminal(cluster) == w && renderer(cluster) == w {
			b.WriteString(cluster)
			continue
		}
		b.WriteString(clusterHead(cluster, w, terminal, renderer))
	}
	return b.String()
}

// isASCII reports whether s is all ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// clusterHead is cluster, w cells wide, drawn as its first code point
// (with the keycap mark when it has one), padded with spaces to w; only
// the spaces when the head itself would not take the same cells by both
// counts within w.
func clusterHead(cluster string, w int, terminal, renderer func(string) int) string {
	first, _ := utf8.DecodeRuneInString(cluster)
	head := string(first)
	if strings.ContainsRune(cluster, keycap) {
		head += string(keycap)
	}
	hw := terminal(head)
	if hw > w || renderer(head) != hw {
		head, hw = "", 0
	}
	return head + strings.Repeat(" ", w-hw)
}

// Cut returns the w cells of line that start at cell from: what a screen
// scrolled sideways by from cells shows of it. A character that either
// edge cuts through is drawn as spaces in its cells inside; the spans
// keep their styles, links and targets.
func (l Line) Cut(from, w int) Line {
	from, end := max(from, 0), max(from, 0)+max(w, 0)
	var out Line
	col := 0
	for _, sp := range l {
		if col >= end {
			break
		}
		sw := Width(sp.Text)
		switch {
		case col+sw <= from && sw > 0:
			// Wholly left of the window.
		case col >= from && col+sw <= end:
			out = append(out, sp)
		default:
			if sp.Text = cutText(sp.Text, col, from, end); sp.Text != "" {
				out = append(out, sp)
			}
		}
		col += sw
	}
	return out
}

// cutText is what the window of cells from to end shows of text, which
// starts at cell col: its clusters inside the window, and spaces for the
// cells inside of one an edge cuts through.
func cutText(text string, col, from, end int) string {
	var b strings.Builder
	c := col
	for rest := text; rest != "" && c < end; {
		cluster, cw := xansi.FirstGraphemeCluster(rest, xansi.GraphemeWidth)
		if cluster == "" {
			break
		}
		rest = rest[len(cluster):]
		switch {
		case c >= from && c+cw <= end:
			b.WriteString(cluster)
		case c+cw > from:
			b.WriteString(strings.Repeat(" ", min(c+cw, end)-max(c, from)))
		}
		c += cw
	}
	return b.String()
}
