package sanitize

import (
	"testing"
	"unicode/utf8"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestInline(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb\rc\nd", "a b c d"},
		{"\x1b[2Jwipe", "[2Jwipe"},
		{"bell\x07 bs\x08 del\x7f nul\x00", "bell bs del nul"},
		{"c1 \u009b31m \u0085next", "c1 31m next"},
		{"osc \x1b]0;title\x07", "osc ]0;title"},
		{"bad \xff\xfe utf8", "bad \uFFFD\uFFFD utf8"},
		{"raw c1 \x9b byte", "raw c1 \uFFFD byte"},
		{"日本語 👩‍💻 café", "日本語 👩‍💻 café"},
	} {
		if got := Inline(c.in); got != c.want {
			t.Errorf("Inline(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPre(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\r\nb\rc\nd", "a\nb\nc\nd"},
		// SPEC §7.2: a tab is 4 spaces wherever it stands, not a tab stop.
		{"\tx\n12\ty", "    x\n12    y"},
		{"é\tx", "é    x"},
		{"a\t\tb", "a        b"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"keep\x00 \u009dgone\x7f", "keep gone"},
		{"\xc3", "\uFFFD"},
		{"clean\ncode {\n}\n", "clean\ncode {\n}\n"},
		{"日本\n語\u0085", "日本\n語"},
		{"", ""},
	} {
		if got := Pre(c.in); got != c.want {
			t.Errorf("Pre(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\r\nb\rc\nd", "a\nb\nc\nd"},
		{"\r\r\n", "\n\n"},
		{"\tx\n12\ty", "\tx\n12\ty"},
		{"\x1b[31mred\x1b[0m\x1b]8;;x\x07", "[31mred[0m]8;;x"},
		{"keep\x00 \u009dgone\x7f\f\v\b", "keep gone"},
		{"\xc3", "\uFFFD"},
		{"# Title\n\n\tcode\n", "# Title\n\n\tcode\n"},
		{"日本\n語\u0085", "日本\n語"},
		{"", ""},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestURLAndSafeURL(t *testing.T) {
	if got := URL("https://ex ample.com/\x1b]8;;\x07x"); got != "https://example.com/]8;;x" {
		t.Errorf("URL = %q", got)
	}
	for u, safe := range map[string]bool{
		"https://example.com": true, "HTTP://x": true, "mailto:a@b": true, "tel:+1": true,
		"relative/path": true, "#frag": true, "?q=1": true, "./a:b": true, "a/b:c": true,
		"javascript:alert(1)": false, "JavaScript:x": false, " javascript:x": false,
		"data:text/html,x": false, "file:///etc/passwd": false, "vbscript:x": false,
	} {
		if SafeURL(u) != safe {
			t.Errorf("SafeURL(%q) = %v, want %v", u, !safe, safe)
		}
	}
	if LinkURL("javascript:x") != "" || LinkURL("https://a.b/c d") != "https://a.b/cd" {
		t.Errorf("LinkURL kept an unsafe URL or a space")
	}
}

// Clean text comes back as the same string, with no allocation.
func TestCleanInputNotCopied(t *testing.T) {
	code, inline := "func main() {\n    x := \"é\"\n}\n", "a plain line é"
	if n := testing.AllocsPerRun(10, func() { Pre(code); Inline(inline); URL("https://example.org/"); Text("\t" + code) }); n != 0 {
		t.Errorf("clean input allocated %v times", n)
	}
}

// Every output of every class is valid UTF-8 with no C0, DEL or C1
// control (Pre keeps only line feeds, Text line feeds and tabs).
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"a\x1b[2Jb", "\u009b\r\n\t", "\xff", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Pre(s) != pre(s) {
			t.Fatalf("Pre(%q) = %q, but the full pass gives %q", s, Pre(s), pre(s))
		}
		if Text(s) != text(s) {
			t.Fatalf("Text(%q) = %q, but the full pass gives %q", s, Text(s), text(s))
		}
		for name, out := range map[string]string{"inline": Inline(s), "pre": Pre(s), "url": URL(s), "text": Text(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%s: invalid UTF-8 %q", name, out)
			}
			for _, r := range out {
				kept := (name == "pre" || name == "text") && r == '\n' || name == "text" && r == '\t'
				if (r < 0x20 && !kept) || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					t.Fatalf("%s(%q) kept control %U", name, s, r)
				}
				if name == "url" && r == ' ' {
					t.Fatalf("url(%q) kept a space", s)
				}
			}
		}
	})
}

func TestLine(t *testing.T) {
	cases := map[string]string{
		"":                     "",
		"plain words":          "plain words",
		"  two\nlines\r\n":     "two lines",
		"tab\there":            "tab here",
		"esc\x1b]0;PWN\x07x":   "esc]0;PWNx",
		"c1\u009b31m":          "c131m",
		"exa\u202emple.com":    "exa⟨U+202E⟩mple.com",
		"iso\u2066late\u2069d": "iso⟨U+2066⟩late⟨U+2069⟩d",
		"zero\u200bwidth":      "zero⟨U+200B⟩width",
		"many     spaces":      "many spaces",
		"bad \xff byte":        "bad \ufffd byte",
		"del\x7f":              "del",
		"\u00a0nbsp\u00a0":     "nbsp",
	}
	for in, want := range cases {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestVisible: every bidi control, mark and default-ignorable character is
// a visible escape; everything else is Inline's.
func TestVisible(t *testing.T) {
	cases := map[string]string{
		"https://example.com/":                "https://example.com/",
		"https://exa\u202emple.com/":          "https://exa⟨U+202E⟩mple.com/",
		"a\u202ab\u202cc":                     "a⟨U+202A⟩b⟨U+202C⟩c",
		"\u2066x\u2069":                       "⟨U+2066⟩x⟨U+2069⟩",
		"l\u200er\u200fa\u061c":               "l⟨U+200E⟩r⟨U+200F⟩a⟨U+061C⟩",
		"z\u200bw\u200cj\u200dw\u2060b\ufeff": "z⟨U+200B⟩w⟨U+200C⟩j⟨U+200D⟩w⟨U+2060⟩b⟨U+FEFF⟩",
		"soft\u00adhyphen":                    "soft⟨U+00AD⟩hyphen",
		"tag\U000E0041":                       "tag⟨U+E0041⟩",
		"esc\x1b[2J":                          "esc[2J",
		"日本 é":                                "日本 é",
	}
	for in, want := range cases {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	if got := TextVisible("a\u202e\nb\tc"); got != "a⟨U+202E⟩\nb\tc" {
		t.Errorf("TextVisible: %q", got)
	}
	if n := testing.AllocsPerRun(10, func() { Visible("https://example.org/é") }); n != 0 {
		t.Errorf("clean input allocated %v times", n)
	}
}

// TestInlineBidi: prose keeps a bidi control its own text closes and shows
// one left open or closing nothing, so it cannot reorder what follows.
func TestInlineBidi(t *testing.T) {
	cases := map[string]string{
		"\u2067שלום\u2069 world":        "\u2067שלום\u2069 world",
		"a \u202bb\u202c c":             "a \u202bb\u202c c",
		"a \u202eevil":                  "a ⟨U+202E⟩evil",
		"stray \u202c close":            "stray ⟨U+202C⟩ close",
		"\u2066in \u202eside\u2069 out": "\u2066in ⟨U+202E⟩side\u2069 out",
		"\u2069\u2066":                  "⟨U+2069⟩⟨U+2066⟩",
		"zero\u200bwidth kept":          "zero\u200bwidth kept",
	}
	for in, want := range cases {
		if got := Inline(in); got != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}
