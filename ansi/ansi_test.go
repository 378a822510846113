package ansi

import (
	"bytes"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
	}{
		{"CSI erase display", "a\x1b[2Jb"},
		{"CSI cursor move", "\x1b[10;10H"},
		{"CSI private mode", "\x1b[?1049h"},
		{"empty SGR", "\x1b[m"},
		{"SGR with colon", "\x1b[38:2:1:2:3m"},
		{"unterminated CSI", "\x1b[31"},
		{"OSC 0 title", "\x1b]0;pwned\x07"},
		{"OSC 2 title", "\x1b]2;pwned\x1b\\"},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07"},
		{"OSC 8 with ST", "\x1b]8;;https://a.b\x1b\\x\x1b]8;;\x1b\\"},
		{"OSC 8 javascript", "\x1b]8;;javascript:alert(1)\x07x\x1b]8;;\x07"},
		{"OSC 8 space in URL", "\x1b]8;;https://a.b/x y\x07x\x1b]8;;\x07"},
		{"OSC 8 control in URL", "\x1b]8;;https://a.b/\x01\x07x\x1b]8;;\x07"},
		{"OSC 8 ESC in URL", "\x1b]8;;https://a.b/\x1b[2J\x07x"},
		{"OSC 8 unterminated", "\x1b]8;;https://a.b"},
		{"DCS", "\x1bP1$r\x1b\\"},
		{"ESC charset", "\x1b(0"},
		{"lone ESC", "abc\x1b"},
		{"C1 CSI as UTF-8", "a\u009b2Jb"},
		{"C1 OSC as UTF-8", "\u009d0;x\u009c"},
		{"raw C1 byte", "a\x9bb"},
		{"BEL", "ding\x07"},
		{"BS", "a\bb"},
		{"CR", "a\rb"},
		{"TAB", "a\tb"},
		{"DEL", "a\x7fb"},
		{"NUL", "a\x00b"},
		{"invalid UTF-8", "a\xff\xfeb"},
		{"truncated UTF-8", "a\xe6\x97"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Validate([]byte(tc.in)); err == nil {
				t.Fatalf("Validate accepted %q", tc.in)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	for _, in := range []string{
		"",
		"plain text\n",
		"日本語 👩‍💻 cafe\u0301\n",
		"\x1b[1;4;38;2;1;2;3mtitle\x1b[0m\n",
		"\x1b[38;5;208mx\x1b[0m",
		"\x1b]8;;https://example.com/a?b=c#d\x07link\x1b]8;;\x07",
		"\x1b]8;;mailto:a@b.c\x07mail\x1b]8;;\x07",
	} {
		if err := Validate([]byte(in)); err != nil {
			t.Errorf("Validate(%q) = %v", in, err)
		}
	}
}

var sample = []Line{
	{{Text: "Title", Style: Style{Bold: true, Underline: true, FG: Color{R: 147, G: 197, B: 253, ANSI16: 94, Set: true}}}},
	nil,
	{
		{Text: "plain "},
		{Text: "link", Style: Style{Underline: true}, Link: "https://example.com/"},
		{Text: " and ", Style: Style{}},
		{Text: "code", Style: Style{FG: Color{R: 249, G: 168, B: 212, ANSI16: 95, Set: true}, BG: Color{R: 39, G: 39, B: 42, Set: true}}},
		{Text: " refused", Link: "javascript:alert(1)"},
	},
}

func TestEncodeLevels(t *testing.T) {
	for _, tc := range []struct {
		level Level
		want  string
	}{
		{None, "Title\n\nplain link and code refused\n"},
		{Color16, "\x1b[1;4;94mTitle\x1b[0m\n\nplain \x1b]8;;https://example.com/\x07\x1b[4mlink\x1b[0m\x1b]8;;\x07 and \x1b[95mcode\x1b[0m refused\n"},
		{Color256, "\x1b[1;4;38;5;117mTitle\x1b[0m\n\nplain \x1b]8;;https://example.com/\x07\x1b[4mlink\x1b[0m\x1b]8;;\x07 and \x1b[38;5;218;48;5;235mcode\x1b[0m refused\n"},
		{TrueColor, "\x1b[1;4;38;2;147;197;253mTitle\x1b[0m\n\nplain \x1b]8;;https://example.com/\x07\x1b[4mlink\x1b[0m\x1b]8;;\x07 and \x1b[38;2;249;168;212;48;2;39;39;42mcode\x1b[0m refused\n"},
	} {
		t.Run(tc.level.String(), func(t *testing.T) {
			got := Encode(sample, tc.level)
			if string(got) != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
			if err := Validate(got); err != nil {
				t.Fatal(err)
			}
			if tc.level == None && bytes.IndexByte(got, 0x1b) >= 0 {
				t.Fatal("an escape at level none")
			}
		})
	}
}

func TestEncodeMergesSpans(t *testing.T) {
	st := Style{Bold: true}
	got := string(Encode([]Line{{{Text: "a", Style: st}, {Text: "b", Style: st}, {Text: "c"}}}, TrueColor))
	if got != "\x1b[1mab\x1b[0mc\n" {
		t.Fatalf("got %q", got)
	}
	// A background-only style with no 16-color code writes nothing at 16.
	bgOnly := Style{BG: Color{R: 1, G: 2, B: 3, Set: true}}
	if got := string(Encode([]Line{{{Text: "x", Style: bgOnly}}}, Color16)); got != "x\n" {
		t.Fatalf("got %q", got)
	}
}

// TestUnsanitizedTextFailsValidation shows that Encode does not clean
// text: raw author text with escapes passes straight through and
// Validate catches it. Sanitizing on the way into the tree is what keeps
// rendered notes clean.
func TestUnsanitizedTextFailsValidation(t *testing.T) {
	for _, raw := range []string{"\x1b[2J", "\x1b]52;c;eA==\x07", "\u009b31m", "a\rb", "\x07"} {
		for _, lvl := range []Level{None, Color16, Color256, TrueColor} {
			out := Encode([]Line{{{Text: "before " + raw + " after", Style: Style{Bold: true}}}}, lvl)
			if Validate(out) == nil {
				t.Errorf("level %v: raw %q passed Validate", lvl, raw)
			}
		}
	}
}

func TestLinkAllowed(t *testing.T) {
	for u, want := range map[string]bool{
		"https://a.b/c":       true,
		"HTTP://A.B":          true,
		"mailto:x@y.z":        true,
		"tel:+123":            true,
		"":                    false,
		"javascript:alert(1)": false,
		"file:///etc/passwd":  false,
		"./rel.mk.md":         false,
		"https://a.b/ c":      false,
		"https://a.b/\x1b":    false,
		"https://ä.b":         false,
	} {
		if got := LinkAllowed(u); got != want {
			t.Errorf("LinkAllowed(%q) = %v, want %v", u, got, want)
		}
	}
}

func TestWidth(t *testing.T) {
	for s, want := range map[string]int{
		"":              0,
		"abc":           3,
		"日本語":           6,
		"cafe\u0301":    4,
		"👍":             2,
		"👍🏽":            2,
		"👩‍💻":           2,
		"👨‍👩‍👧":         2,
		"a\u200bb":      2,
		"ｆｕｌｌ":          8,
		"한국어":           6,
		"e\u0301\u0302": 1,
		// Box drawing is measured without segmentation, unless a mark
		// or selector joins a character of it.
		"┆ ┌╌┐ ┆":  7,
		"─\u0301─": 2,
		"┆\ufe0f":  2,
		"┆\u200d┆": 2,
	} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestIndex256(t *testing.T) {
	for _, tc := range []struct {
		c    Color
		want int
	}{
		{Color{R: 0, G: 0, B: 0}, 16},
		{Color{R: 255, G: 255, B: 255}, 231},
		{Color{R: 128, G: 128, B: 128}, 244},
		{Color{R: 39, G: 39, B: 42}, 235},
		{Color{R: 8, G: 8, B: 8}, 232},
		{Color{R: 255, G: 0, B: 0}, 196},
		{Color{R: 59, G: 130, B: 246}, 69},
	} {
		if got := tc.c.Index256(); got != tc.want {
			t.Errorf("%+v.Index256() = %d, want %d", tc.c, got, tc.want)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	lines := make([]Line, 1000)
	for i := range lines {
		lines[i] = sample[2]
	}
	b.ReportAllocs()
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendLines(buf[:0], lines, TrueColor)
	}
	b.SetBytes(int64(len(buf)))
}

func TestParseLevelReadsEveryLevelsName(t *testing.T) {
	for l := None; l <= TrueColor; l++ {
		if got, ok := ParseLevel(l.String()); !ok || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, ok)
		}
	}
	if got, ok := ParseLevel("never"); !ok || got != None {
		t.Errorf("never: %v, %v", got, ok)
	}
	for _, bad := range []string{"", "auto", "24bit", "Truecolor", "8"} {
		if _, ok := ParseLevel(bad); ok {
			t.Errorf("ParseLevel(%q) accepted", bad)
		}
	}
}
