package viewer

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// TestFoldedHeadingKeepsAllItsLines: a heading that wraps, at the top level
// or inside a box, folds after its last line, as layout reports it, and a
// level 1 heading keeps its rule; only the body goes.
func TestFoldedHeadingKeepsAllItsLines(t *testing.T) {
	title := "A heading long enough to wrap over four or five lines at this narrow width"
	for _, c := range []struct{ name, src string }{
		{"top level", "## " + title + "\n\nBody.\n\n## Next\n"},
		{"level 1", "# " + title + "\n\nBody.\n\n# Next\n"},
		{"card", ":::card\n## " + title + "\n\nBody.\n\nMore body.\n:::\n\n## Next\n"},
		{"callout", ":::callout\n## " + title + "\n\nBody.\n:::\n\n## Next\n"},
	} {
		for _, level := range []ansi.Level{ansi.None, ansi.TrueColor} {
			p := newPage([]byte(c.src), render.Options{Width: 24, Level: level, Theme: theme.Dark, Now: fixedNow()}, nil)
			if len(p.sections) < 1 {
				t.Fatalf("%s: no sections", c.name)
			}
			s := p.sections[0]
			var head []string
			for i := s.line; i < s.body; i++ {
				head = append(head, p.lineText(i))
			}
			shown := strings.Join(head, "\n")
			flat := strings.Join(strings.Fields(strings.NewReplacer("│", "", "▌", "", "#", "").Replace(shown)), " ")
			if !strings.Contains(flat, title) {
				t.Fatalf("%s at %v: the folded heading shows %q, not its whole text", c.name, level, shown)
			}
			if strings.Contains(shown, "Body") {
				t.Fatalf("%s at %v: the heading's lines take in the body: %q", c.name, level, shown)
			}
			if c.name == "level 1" && !strings.Contains(p.lineText(s.body-1), "━") {
				t.Fatalf("%s at %v: the rule under the heading is folded away: %q", c.name, level, shown)
			}
			if s.end <= s.body || !strings.Contains(p.lineText(s.body)+p.lineText(s.body+1), "Body") {
				t.Fatalf("%s at %v: the section folds lines %d..%d", c.name, level, s.body, s.end)
			}
		}
	}
}
