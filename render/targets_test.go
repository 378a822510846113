package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

func TestPageSaysWhereItsTargetsAre(t *testing.T) {
	src := ":::callout{kind=note}\nA [boxed link whose text wraps](https://c.example) here.\n:::\n\n" +
		"Code `(https://c.example)` is not a link.\n\n:::details{title=\"More\"}\nBody\n:::\n"
	for _, l := range []ansi.Level{ansi.None, ansi.TrueColor} {
		p := Layout(Parse([]byte(src)), Options{Width: 24, Level: l, Live: &LiveState{Focus: -1}})
		var details []Focusable
		for _, f := range p.Focusables {
			if f.Kind == FocusDetails {
				details = append(details, f)
			}
		}
		if p.Links.Len() != 1 || len(p.Links.Ranges(0)) < 2 || p.Links.URL(0) != "https://c.example" {
			t.Fatalf("%v: %d links, want one over several lines", l, p.Links.Len())
		}
		var text []string
		for _, r := range p.Links.Ranges(0) {
			line := p.Lines[r.Line].Text()
			if r.From == 0 {
				t.Fatalf("%v: the link range %+v starts at the box border of %q", l, r, line)
			}
			text = append(text, line[r.From:r.To])
		}
		if got := strings.Join(strings.Fields(strings.Join(text, " ")), " "); !strings.HasPrefix(got, "boxed link whose text wraps") {
			t.Fatalf("%v: the link covers %q", l, got)
		}
		if len(details) != 1 {
			t.Fatalf("%v: details %+v", l, details)
		}
		d := details[0]
		line := p.Lines[d.Mark.Line].Text()
		if line[d.Mark.From:d.Mark.To] != "  " || d.Title.Line != d.Mark.Line || line[d.Title.From:d.Title.To] != "More" || d.Open {
			t.Fatalf("%v: details mark %+v title %+v open %v on %q", l, d.Mark, d.Title, d.Open, line)
		}
	}
}
