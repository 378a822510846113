package snapshot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/markii/markii/sanitize"
)

// maxDiffLines caps the lines of one diff; the rest is counted.
const maxDiffLines = 400

// Tokens marks where the changed part of a line starts and ends in a
// diff: [-removed-] and {+added+}, as wdiff writes them.
const (
	delOpen, delClose = "[-", "-]"
	insOpen, insClose = "{+", "+}"
)

// Visible is snapshot text with every escape sequence and control
// character shown as a readable token: an SGR as ⟨fg #93c5fd bold⟩ (⟨/⟩
// for a reset), an OSC 8 hyperlink as ⟨link https://…⟩ and ⟨/link⟩, any
// other escape or control byte as ⟨ESC⟩, ⟨U+009B⟩ and so on, a
// bidirectional control as ⟨U+202E⟩. What it
// returns holds no control character but line feeds.
func Visible(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); {
		if n, tok := escapeToken(b[i:]); n > 0 {
			out.WriteString(tok)
			i += n
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n':
			out.WriteByte('\n')
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&out, "⟨%#02x⟩", b[i])
		case isControl(r):
			out.WriteString(controlName(r))
		default:
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.String()
}

// isControl reports whether r is a C0 or C1 control, DEL or a
// bidirectional control: a character Visible shows as a token.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidiControl(r)
}

// isBidiControl reports whether r is a bidirectional embedding, override
// or isolate control, which could reorder the text around it.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// controlName is a control character's token.
func controlName(r rune) string {
	switch r {
	case 0x1b:
		return "⟨ESC⟩"
	case '\t':
		return "⟨TAB⟩"
	case '\r':
		return "⟨CR⟩"
	case 0x07:
		return "⟨BEL⟩"
	}
	return fmt.Sprintf("⟨U+%04X⟩", r)
}

// escapeToken reads an SGR or OSC 8 sequence at the start of b and
// returns its length and token, or 0.
func escapeToken(b []byte) (int, string) {
	if len(b) < 2 || b[0] != 0x1b {
		return 0, ""
	}
	switch b[1] {
	case '[':
		return sgrAt(b)
	case ']':
		return linkAt(b)
	}
	return 0, ""
}

// sgrAt reads an SGR (ESC [ digits and ; m) at the start of b.
func sgrAt(b []byte) (int, string) {
	for j := 2; j < len(b) && j < 64; j++ {
		c := b[j]
		if c == 'm' {
			return j + 1, sgrToken(string(b[2:j]))
		}
		if (c < '0' || c > '9') && c != ';' {
			return 0, ""
		}
	}
	return 0, ""
}

// linkAt reads an OSC 8 hyperlink sequence, ended by BEL or ESC \, at the
// start of b.
func linkAt(b []byte) (int, string) {
	if !strings.HasPrefix(string(b[:min(len(b), 4)]), "\x1b]8;") {
		return 0, ""
	}
	for j := 4; j < len(b) && j < 4096; j++ {
		switch {
		case b[j] == 0x07:
			return j + 1, linkToken(string(b[4:j]))
		case b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\':
			return j + 2, linkToken(string(b[4:j]))
		}
	}
	return 0, ""
}

// linkToken is the token of an OSC 8 sequence's "params;URI".
func linkToken(body string) string {
	_, uri, _ := strings.Cut(body, ";")
	if uri == "" {
		return "⟨/link⟩"
	}
	return "⟨link " + sanitize.Line(sanitize.URL(uri)) + "⟩"
}

// sgrToken is the token of an SGR's parameters.
func sgrToken(params string) string {
	if params == "" || params == "0" {
		return "⟨/⟩"
	}
	ps := strings.Split(params, ";")
	var words []string
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		w, used := sgrWord(n, ps[i+1:])
		words = append(words, w)
		i += used
	}
	return "⟨" + strings.Join(words, " ") + "⟩"
}

// sgrNames names the SGR attributes markii writes.
var sgrNames = [...]string{
	0: "reset", 1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "inverse", 9: "strike",
	22: "/bold", 23: "/italic", 24: "/underline", 27: "/inverse", 29: "/strike",
	39: "fg default", 49: "bg default",
}

// sgrWord names one SGR parameter; used is how many of the following
// parameters it took (the parts of a 256-color or RGB color).
func sgrWord(n int, rest []string) (string, int) {
	if n >= 0 && n < len(sgrNames) && sgrNames[n] != "" {
		return sgrNames[n], 0
	}
	switch n {
	case 38:
		return extendedColor("fg", rest)
	case 48:
		return extendedColor("bg", rest)
	}
	if w, ok := basicColor(n); ok {
		return w, 0
	}
	return "sgr " + strconv.Itoa(n), 0
}

// basicColor names a 16-color code: 30–37 and 40–47 (foreground and
// background), 90–97 and 100–107 (their bright forms).
func basicColor(n int) (string, bool) {
	bright := ""
	if n >= 90 {
		n, bright = n-60, "bright "
	}
	if n < 30 || n > 47 {
		return "", false
	}
	side := "fg"
	if n >= 40 {
		side = "bg"
	}
	return fmt.Sprintf("%s %s%d", side, bright, n%10), true
}

// extendedColor names a 38 or 48 color from the parameters after it: 2;R;G;B
// or 5;N.
func extendedColor(side string, rest []string) (string, int) {
	switch {
	case len(rest) >= 4 && rest[0] == "2":
		r, _ := strconv.Atoi(rest[1])
		g, _ := strconv.Atoi(rest[2])
		b, _ := strconv.Atoi(rest[3])
		return fmt.Sprintf("%s #%02x%02x%02x", side, r&255, g&255, b&255), 4
	case len(rest) >= 2 && rest[0] == "5":
		return side + " " + rest[1], 2
	}
	return side + " ?", 0
}

// Diff is a unified diff of two snapshot bodies as readable text: every
// escape sequence a token (see Visible), the changed part of a changed
// line marked [-so-] on the old line and {+so+} on the new one. It is ""
// when they are equal. name labels the two sides.
func Diff(name string, old, new []byte) string {
	a, b := Visible(old), Visible(new)
	if a == b {
		return ""
	}
	edits := udiff.Lines(a, b)
	u, err := udiff.ToUnifiedDiff(name+" (stored)", name+" (now)", a, edits, 2)
	if err != nil {
		return "--- " + name + "\n(the diff could not be computed: " + sanitize.Line(err.Error()) + ")\n"
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s (stored)\n+++ %s (now)\n", sanitize.Line(name), sanitize.Line(name))
	lines := 0
	for _, h := range u.Hunks {
		fmt.Fprintf(&out, "@@ line %d @@\n", h.FromLine)
		var cut bool
		if lines, cut = writeHunk(&out, h.Lines, lines); cut {
			fmt.Fprintf(&out, "… (diff cut at %d lines)\n", maxDiffLines)
			return out.String()
		}
	}
	return out.String()
}

// writeHunk writes a hunk's lines, counting them on from lines: a run of
// removed lines and the added lines after it as one change. cut reports
// that the count passed maxDiffLines at the end of a change.
func writeHunk(out *strings.Builder, hl []udiff.Line, lines int) (int, bool) {
	for i := 0; i < len(hl); {
		j := runEnd(hl, i, udiff.Delete)
		k := runEnd(hl, j, udiff.Insert)
		if k == i {
			lines += writeLine(out, " ", hl[i].Content)
			i++
			continue
		}
		lines += writeChanged(out, hl[i:j], hl[j:k])
		i = k
		if lines > maxDiffLines {
			return lines, true
		}
	}
	return lines, false
}

// runEnd is the index after the run of kind lines starting at i.
func runEnd(hl []udiff.Line, i int, kind udiff.OpKind) int {
	for i < len(hl) && hl[i].Kind == kind {
		i++
	}
	return i
}

// writeChanged writes a run of removed lines and the added lines that
// replace them; a removed and an added line in the same place have their
// changed parts marked.
func writeChanged(out *strings.Builder, dels, ins []udiff.Line) int {
	n := 0
	for i, d := range dels {
		text := strings.TrimSuffix(d.Content, "\n")
		if i < len(ins) {
			text, _ = markChange(text, strings.TrimSuffix(ins[i].Content, "\n"))
		}
		n += writeLine(out, "-", text)
	}
	for i, in := range ins {
		text := strings.TrimSuffix(in.Content, "\n")
		if i < len(dels) {
			_, text = markChange(strings.TrimSuffix(dels[i].Content, "\n"), text)
		}
		n += writeLine(out, "+", text)
	}
	return n
}

// writeLine writes one diff line.
func writeLine(out *strings.Builder, mark, text string) int {
	out.WriteString(mark)
	// text is Visible's: it holds no control character.
	out.WriteString(strings.TrimSuffix(text, "\n"))
	out.WriteByte('\n')
	return 1
}

// markChange marks the part of a and b between their common prefix and
// suffix (whole tokens and characters).
func markChange(a, b string) (string, string) {
	p := commonPrefix(a, b)
	s := commonSuffix(a[p:], b[p:])
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	ma, mb := a, b
	if am != "" {
		ma = a[:p] + delOpen + am + delClose + a[len(a)-s:]
	}
	if bm != "" {
		mb = b[:p] + insOpen + bm + insClose + b[len(b)-s:]
	}
	return ma, mb
}

// commonPrefix is the length of a and b's common prefix, not splitting a
// character or a ⟨token⟩.
func commonPrefix(a, b string) int {
	n, open := 0, -1
	for i, r := range a {
		if i >= len(b) || !strings.HasPrefix(b[i:], string(r)) {
			break
		}
		if r == '⟨' {
			open = i
		} else if r == '⟩' {
			open = -1
		}
		n = i + utf8.RuneLen(r)
	}
	if open >= 0 {
		return open
	}
	return n
}

// commonSuffix is the length of a and b's common suffix, not splitting a
// character or a ⟨token⟩.
func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) {
		r, size := utf8.DecodeLastRuneInString(a[:len(a)-n])
		if !strings.HasSuffix(b[:len(b)-n], string(r)) {
			break
		}
		n += size
	}
	// Back out of a token cut in half: its ⟩ is kept but not its ⟨.
	tail := a[len(a)-n:]
	if c, o := strings.Index(tail, "⟩"), strings.Index(tail, "⟨"); c >= 0 && (o < 0 || c < o) {
		n -= c + len("⟩")
	}
	return n
}
