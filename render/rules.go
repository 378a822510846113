package render

import "strings"

// lightRules and heavyRules are rules maxCutRule cells long, from which
// the rules of frames and headings are cut (see ruleCut) rather than
// built anew for every code block and heading.
const (
	lightRules = "────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────"
	heavyRules = "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━"
	maxCutRule = 256

	// spacedRule and cornerRule are lightRules after a blank and after a
	// code block's bottom-left corner.
	spacedRule = " " + lightRules
	cornerRule = "╰" + lightRules
)

// ruleCut returns the first lead bytes of rules followed by n glyphs of
// glyph, the one rules repeats: a cut of rules when n fits in it.
func ruleCut(rules string, lead int, glyph string, n int) string {
	n = max(n, 0)
	if end := lead + n*len(glyph); end <= len(rules) {
		return rules[:end]
	}
	return rules[:lead] + strings.Repeat(glyph, n)
}
