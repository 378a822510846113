package render

import (
	"testing"

	"github.com/markii/markii/ansi"
)

// TestCutWidthIsWidth: the frame edges and blanks cutWidth measures by
// their length measure as ansi.Width does, and other text is measured.
func TestCutWidthIsWidth(t *testing.T) {
	for _, s := range []string{
		"", leftFrames[:4], leftFrames[:40], rightFrames[:8], rightFrames, leftFrames,
		spaces[:1], spaces, "┆", "┆ ┆", " ┆ x", "abc", "日本", ":::", "┆ ┆ 日",
	} {
		if got, want := cutWidth(s), ansi.Width(s); got != want {
			t.Errorf("cutWidth(%q) = %d, want %d", s, got, want)
		}
	}
}
