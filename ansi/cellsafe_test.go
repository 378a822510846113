package ansi

import (
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
)

// TestCellSafeKeepsEachClustersWidth: every cluster markii lays out keeps
// its cells when a terminal counts code points, and what needs no change
// is unchanged.
func TestCellSafeKeepsEachClustersWidth(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain ASCII", "plain ASCII"},
		{"日本語 and café and cafe\u0301", "日本語 and café and cafe\u0301"},
		{"🚀 rocket", "🚀 rocket"},
		{"🇺🇸 flag", "🇺🇸 flag"},
		{"a 👩‍💻 b", "a 👩 b"},
		{"👨‍👩‍👧‍👦|", "👨|"},
		{"👍🏽|", "👍|"},
		{"1️⃣|", "1\u20e3 |"},
		{"❤️|", "❤ |"},
		{"#️⃣|", "#\u20e3 |"},
	} {
		got := CellSafe(c.in)
		if got != c.want {
			t.Errorf("CellSafe(%q) = %q, want %q", c.in, got, c.want)
		}
		if wc, w := xansi.StringWidthWc(got), Width(c.in); wc != w {
			t.Errorf("CellSafe(%q) = %q counts %d cells by code point, want %d (its width)", c.in, got, wc, w)
		}
	}
}
