package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// TestThePageHoldsTheNote: what markii has to say about a note (an ignored
// attribute, an unknown component or pack, a missing label) is on the
// page's diagnostics and never in its text; an unknown inline component
// keeps its label in the sentence, an unknown block its content, and a
// progress bar with no value says "—", never 0%.
func TestThePageHoldsTheNote(t *testing.T) {
	src := "---\nuses: [dash]\n---\n\nStars grew :dash_delta[+3%] this week.\n\n" +
		":::dash_board{kind=x}\nThe board's own words.\n:::\n\n" +
		":::callout{type=critical}\nBody.\n:::\n\n" +
		"::progress{data=build label=Build}\n"
	page := Layout(Parse([]byte(src)), Options{Width: 60, Level: ansi.None, Theme: theme.Dark})
	out := string(ansi.Encode(page.Lines, ansi.None))
	for _, bad := range []string{"unknown", "ignored", "pack", "no content", "0%"} {
		if strings.Contains(out, bad) {
			t.Errorf("the page says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"Stars grew +3% this week.", "The board's own words.", "kind: x", "Build ░", " —"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q:\n%s", want, out)
		}
	}
	diags := strings.Join(page.Diagnostics, "\n")
	for _, want := range []string{"unknown component `dash_delta` from pack dash", "unknown component `dash_board` from pack dash", `"critical" is not a valid type value`} {
		if !strings.Contains(diags, want) {
			t.Errorf("diagnostics lack %q: %q", want, page.Diagnostics)
		}
	}
}
