package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// TestHeadingLevelsDifferInMoreThanAShade: in every theme and at every
// color level, no two heading levels look alike once shades are set
// aside: each differs from every other in its marker, its rule, its
// weight or slant, or its color as a 16-color terminal shows it.
func TestHeadingLevelsDifferInMoreThanAShade(t *testing.T) {
	src := "# Alpha\n\n## Alpha\n\n### Alpha\n\n#### Alpha\n\n##### Alpha\n\n###### Alpha\n"
	for _, th := range []theme.Theme{theme.Dark, theme.Light, theme.HighContrast} {
		for _, lvl := range []ansi.Level{ansi.None, ansi.Color16, ansi.Color256, ansi.TrueColor} {
			p := Layout(Parse([]byte(src)), Options{Width: 40, Level: lvl, Theme: th})
			if len(p.Headings) != 6 {
				t.Fatalf("%s at %v: %d headings", th.Name, lvl, len(p.Headings))
			}
			seen := map[string]int{}
			for _, h := range p.Headings {
				var sig strings.Builder
				for _, ln := range p.Lines[h.Line:h.EndLine] {
					for _, sp := range ln {
						text := strings.ReplaceAll(sp.Text, "Alpha", "…")
						fmt.Fprintf(&sig, "%q", text)
						if lvl != ansi.None {
							st := sp.Style
							fmt.Fprintf(&sig, "[b%v i%v c%d]", st.Bold, st.Italic, st.FG.ANSI16)
						}
					}
					sig.WriteString("/")
				}
				if prev, ok := seen[sig.String()]; ok {
					t.Errorf("%s at %v: heading levels %d and %d look alike: %s", th.Name, lvl, prev, h.Level, sig.String())
				}
				seen[sig.String()] = h.Level
			}
		}
	}
}
