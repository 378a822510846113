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
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidiControl(r):
			out.WriteString(controlName(r))
		default:
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.String()
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

// sgrName names the SGR attributes markii writes.
func sgrName(n int) (string, bool) {
	switch n {
	case 0:
		return "reset", true
	case 1:
		return "bold", true
	case 2:
		return "dim", true
	case 3:
		return "italic", true
	case 4:
		return "underline", true
	case 7:
		return "inverse", true
	case 9:
		return "strike", true
	case 22:
		return "/bold", true
	case 23:
		return "/italic", true
	case 24:
		return "/underline", true
	case 27:
		return "/inverse", true
	case 29:
		return "/strike", true
	case 39:
		return "fg default", true
	case 49:
		return "bg default", true
	}
	return "", false
}

// sgrWord names one SGR parameter; used is how many of the following
// parameters it took (the parts of a 256-color or RGB color).
func sgrWord(n int, rest []string) (string, int) {
	if w, ok := sgrName(n); ok {
		return w, 0
	}
	side := "fg"
	if n == 48 || (n >= 40 && n <= 47) || (n >= 100 && n <= 107) {
		side = "bg"
	}
	if n == 38 || n == 48 {
		return extendedColor(side, rest)
	}
	switch {
	case n >= 30 && n <= 47:
		return fmt.Sprintf("%s %d", side, n%10), 0
	case n >= 90 && n <= 107:
		return fmt.Sprintf("%s bright %d", side, n%10), 0
	}
	return "sgr " + strconv.Itoa(n), 0
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
		for i := 0; i < len(h.Lines); {
			j := i
			for j < len(h.Lines) && h.Lines[j].Kind == udiff.Delete {
				j++
			}
			k := j
			for k < len(h.Lines) && h.Lines[k].Kind == udiff.Insert {
				k++
			}
			if k == i {
				lines += writeLine(&out, " ", h.Lines[i].Content)
				i++
				continue
			}
			lines += writeChanged(&out, h.Lines[i:j], h.Lines[j:k])
			i = k
			if lines > maxDiffLines {
				fmt.Fprintf(&out, "… (diff cut at %d lines)\n", maxDiffLines)
				return out.String()
			}
		}
	}
	return out.String()
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
