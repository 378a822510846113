package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
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

// TestNestedCalloutBarsKeepTheirTones: the bars of nested callouts are
// joined only where a callout of the same tone is inside: each bar keeps
// its callout's color, outermost first.
func TestNestedCalloutBarsKeepTheirTones(t *testing.T) {
	if calloutBars != strings.Repeat("▌ ", maxJoinedFrames) {
		t.Fatal("calloutBars is not maxJoinedFrames bars")
	}
	src := "::::::callout{type=warning}\n:::::callout\n::::callout\n:::callout{type=warning}\nx\n:::\n::::\n:::::\n::::::\n"
	page := Layout(Parse([]byte(src)), Options{Width: 40, Level: ansi.TrueColor, Theme: theme.Dark})
	st := NewStyles(theme.Dark)
	var last ansi.Line
	for _, ln := range page.Lines {
		if strings.HasSuffix(ln.Text(), "x") {
			last = ln
		}
	}
	if got := last.Text(); got != "▌ ▌ ▌ ▌ x" {
		t.Fatalf("innermost line reads %q", got)
	}
	var tones []ansi.Style
	for _, sp := range last {
		for range strings.Count(sp.Text, "▌") {
			tones = append(tones, sp.Style)
		}
	}
	want := []ansi.Style{st.Warning, st.Info, st.Info, st.Warning}
	if !slices.Equal(tones, want) {
		t.Errorf("bars' styles %v, want %v", tones, want)
	}
}
