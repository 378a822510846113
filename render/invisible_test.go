package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// invisibleProbe puts a right-to-left override and a zero-width space in a
// link's text, its address, an autolink, an image source and a diagnostic
// (an unknown component named with them).
const invisibleProbe = "See [pay\u202eLIVE\u200b](https://bank.example/\u202efdp.exe) and <https://exa\u200bmple.com/\u202ex>.\n\n" +
	"![pic](https://img.example/\u202ea.png)\n\n::unknown\u202ecomp\n"

// TestInvisibleCharactersAreShown: at every level, with and without
// --show-urls, no U+202E or U+200B reaches the page raw; each is a visible
// escape wherever an address or a link's text is drawn.
func TestInvisibleCharactersAreShown(t *testing.T) {
	for _, show := range []bool{false, true} {
		for _, level := range []ansi.Level{ansi.None, ansi.Color16, ansi.TrueColor} {
			laid := Layout(Parse([]byte(invisibleProbe)), Options{Width: 200, Level: level, ShowURLs: show})
			var text strings.Builder
			for _, l := range laid.Lines {
				text.WriteString(l.Text())
				text.WriteByte('\n')
			}
			out := text.String()
			if strings.ContainsAny(out, "\u202e\u200b") {
				t.Fatalf("level %v show %v: a raw invisible character:\n%q", level, show, out)
			}
			for _, want := range []string{"pay⟨U+202E⟩LIVE⟨U+200B⟩", "exa⟨U+200B⟩mple.com/⟨U+202E⟩x"} {
				if !strings.Contains(out, want) {
					t.Fatalf("level %v show %v: %q missing from\n%s", level, show, want, out)
				}
			}
			if (show || level == ansi.None) && !strings.Contains(out, "(https://bank.example/⟨U+202E⟩fdp.exe)") {
				t.Fatalf("level %v show %v: the printed address is not escaped:\n%s", level, show, out)
			}
			if !strings.Contains(out, "(https://img.example/⟨U+202E⟩a.png)") {
				t.Fatalf("level %v: the image source is not escaped:\n%s", level, out)
			}
			for _, d := range laid.Diagnostics {
				if strings.ContainsAny(d, "\u202e\u200b") {
					t.Fatalf("a diagnostic holds a raw invisible character: %q", d)
				}
			}
		}
	}
}
