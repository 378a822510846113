package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// TestWrapText holds WrapText to whole words within the width by display
// cells, the legend's inner spacing kept, and long words broken only when
// they cannot fit a row.
func TestWrapText(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"A yes covers every path", 10, []string{"A yes", "covers", "every path"}},
		{"y allow    n or esc deny", 40, []string{"y allow    n or esc deny"}},
		{"語語語 語語", 6, []string{"語語語", "語語"}},
		{"api.open-meteo.com", 8, []string{"api.open", "-meteo.c", "om"}},
		{"", 5, []string{""}},
	}
	for _, c := range cases {
		got := WrapText(c.in, c.width)
		if !slices.Equal(got, c.want) {
			t.Errorf("WrapText(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		for _, r := range got {
			if ansi.Width(r) > c.width {
				t.Errorf("row %q wider than %d", r, c.width)
			}
		}
		if strings.Join(strings.Fields(strings.Join(got, " ")), " ") != strings.Join(strings.Fields(c.in), " ") && !strings.Contains(c.in, "meteo") {
			t.Errorf("words lost: %q", got)
		}
	}
}
