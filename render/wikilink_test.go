package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

func TestWikiLinksParse(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[[Note]]", `(p (wiki "Note" "" "Note"))`},
		{"[[Note|a label]] x", `(p (wiki "Note" "" "a label") " x")`},
		{"[[Note#Heading]]", `(p (wiki "Note" "Heading" "Note › Heading"))`},
		{"[[Note#Heading|label]]", `(p (wiki "Note" "Heading" "label"))`},
		{"[[ ]] [[a[b]] [x](y)", `(p "[[ ]] [[a[b]] " (a "y" "x"))`},
		{"[[&#27;Note|x&#7;]]", `(p (wiki "Note" "" "x"))`},
	} {
		if got := dump(Parse([]byte(c.src))); got != c.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
		}
	}
}

// TestWikiLinkDraws: with no resolver a wikilink is its label and never
// a hyperlink; a resolved one is a link to the note the caller names.
func TestWikiLinkDraws(t *testing.T) {
	doc := Parse([]byte("See [[Other Note|the other]] and [[Missing]].\n"))
	opt := Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark}
	out := string(ansi.Encode(Layout(doc, opt).Lines, ansi.TrueColor))
	if strings.Contains(out, "\x1b]8;") || !strings.Contains(out, "the other") || !strings.Contains(out, "Missing") {
		t.Errorf("unresolved wikilinks: %q", out)
	}
	opt.WikiLinks = func(target, heading string) string {
		if strings.EqualFold(target, "other note") {
			return "https://notes.example/other-note.md"
		}
		return ""
	}
	page := Layout(doc, opt)
	out = string(ansi.Encode(page.Lines, ansi.TrueColor))
	if !strings.Contains(out, "\x1b]8;;https://notes.example/other-note.md") {
		t.Errorf("a resolved wikilink is no hyperlink: %q", out)
	}
	if strings.Count(out, "\x1b]8;;https") != 1 {
		t.Errorf("the unresolved wikilink became a hyperlink: %q", out)
	}
}
