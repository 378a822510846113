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

// TestCellSafeJoined: for a terminal that joins ZWJ sequences (tmux 3.3
// and later) under a renderer that counts clusters, a ZWJ sequence whose
// joined cell is as wide as the layout says is kept whole, and every
// cluster takes its width by both counts.
func TestCellSafeJoined(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain ASCII", "plain ASCII"},
		{"日本語 and café and cafe\u0301", "日本語 and café and cafe\u0301"},
		{"a 👩‍💻 b", "a 👩‍💻 b"},
		{"👨‍👩‍👧‍👦|", "👨‍👩‍👧‍👦|"},
		{"🧑‍🚀|", "🧑‍🚀|"},
		{"🇺🇸 flag", "🇺🇸 flag"},
		{"👍🏽|", "👍|"},
		{"👩🏽‍💻|", "👩|"},
		{"1️⃣|", "1\u20e3 |"},
		{"❤️|", "❤ |"},
		{"🏳️‍🌈|", "🏳 |"},
		{"👁️‍🗨️|", "👁 |"},
	} {
		got := CellSafeJoined(c.in)
		if got != c.want {
			t.Errorf("CellSafeJoined(%q) = %q, want %q", c.in, got, c.want)
		}
		if jw, gw, w := JoinedWidth(got), Width(got), Width(c.in); jw != w || gw != w {
			t.Errorf("CellSafeJoined(%q) = %q counts %d cells joined and %d by cluster, want %d", c.in, got, jw, gw, w)
		}
	}
	// Plain CellSafe keeps 👁️‍🗨️ (two narrow code points), which a
	// joining terminal draws in one cell.
	if JoinedWidth("👁️‍🗨️") != 1 || CellSafe("👁️‍🗨️") != "👁️‍🗨️" {
		t.Fatalf("JoinedWidth(👁️‍🗨️) = %d, CellSafe %q", JoinedWidth("👁️‍🗨️"), CellSafe("👁️‍🗨️"))
	}
}
