package render

import (
	"strings"
	"testing"
)

// TestRuleCutIsRepeat: a cut rule reads as the glyph repeated, within
// the constant rules and past them.
func TestRuleCutIsRepeat(t *testing.T) {
	for _, c := range []struct {
		rules, lead, glyph string
	}{{lightRules, "", "─"}, {heavyRules, "", "━"}, {spacedRule, " ", "─"}, {cornerRule, "╰", "─"}} {
		if c.rules != c.lead+strings.Repeat(c.glyph, maxCutRule) {
			t.Fatalf("%q… is not %q and %d of %q", c.rules[:12], c.lead, maxCutRule, c.glyph)
		}
		for _, n := range []int{-1, 0, 1, 2, 100, maxCutRule - 1, maxCutRule, maxCutRule + 1, 1000} {
			if got, want := ruleCut(c.rules, len(c.lead), c.glyph, n), c.lead+strings.Repeat(c.glyph, max(n, 0)); got != want {
				t.Errorf("ruleCut(%q…, %d) = %d bytes, want %d", c.lead, n, len(got), len(want))
			}
		}
	}
}
