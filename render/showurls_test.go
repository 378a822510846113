package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// TestShowURLsPrintsEveryAddress: with ShowURLs a link's address follows
// its text at every level, as the no-color level prints it, and the
// hyperlink stays on the text where the level draws one.
func TestShowURLsPrintsEveryAddress(t *testing.T) {
	src := "See [the docs](https://docs.example/a), <https://b.example/> and [a note](./next.mk.md).\n"
	plain := Layout(Parse([]byte(src)), Options{Width: 100, Level: ansi.None}).Lines[0].Text()
	for _, l := range []ansi.Level{ansi.None, ansi.Color16, ansi.TrueColor} {
		lines := Layout(Parse([]byte(src)), Options{Width: 100, Level: l, ShowURLs: true}).Lines
		if got := lines[0].Text(); got != plain {
			t.Fatalf("%v: %q, want the no-color text %q", l, got, plain)
		}
		links := map[string]bool{}
		for _, s := range lines[0] {
			if s.Link != "" {
				links[s.Link] = true
			}
		}
		if l != ansi.None && !links["https://docs.example/a"] {
			t.Fatalf("%v: the hyperlink is gone from the text (links %v)", l, links)
		}
	}
	if !strings.Contains(plain, "the docs (https://docs.example/a)") || !strings.Contains(plain, "a note (./next.mk.md)") {
		t.Fatalf("the no-color text %q", plain)
	}
	// Without it, a level with hyperlinks prints no address.
	if got := Layout(Parse([]byte(src)), Options{Width: 100, Level: ansi.TrueColor}).Lines[0].Text(); strings.Contains(got, "(https://docs.example/a)") {
		t.Fatalf("truecolor without ShowURLs printed the address: %q", got)
	}
}
