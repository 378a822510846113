package render

import "strings"

// WrapText breaks one line of plain, already sanitized text into rows of
// at most width display cells, with the wrapper every paragraph of a page
// goes through: rows break at spaces, spaces inside a row are kept as
// written, and only a word wider than a row is broken, between grapheme
// clusters. Trailing spaces of a row are dropped. It is how markii's own
// text (a grant question, a dialog, a pane) is fitted to a terminal.
func WrapText(s string, width int) []string {
	lines := wrapRuns([]run{{text: s}}, width, nil)
	out := make([]string, 0, max(len(lines), 1))
	for _, l := range lines {
		var b strings.Builder
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}
