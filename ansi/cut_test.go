package ansi

import "testing"

// TestLineCut: a window of cells is cut from a line, its spans keeping
// their styles, and a wide character an edge cuts through becomes spaces.
func TestLineCut(t *testing.T) {
	bold := Style{Bold: true}
	line := Line{{Text: "ab"}, {Text: "日本語", Style: bold}, {Text: "cd", Link: "https://example.com"}}
	for _, c := range []struct {
		from, w int
		want    string
	}{
		{0, 10, "ab日本語cd"},
		{0, 3, "ab "},
		{1, 4, "b日 "},
		{3, 4, " 本 "},
		{4, 6, "本語cd"},
		{9, 5, "d"},
		{10, 5, ""},
		{-3, 2, "ab"},
		{2, 0, ""},
	} {
		got := line.Cut(c.from, c.w)
		if got.Text() != c.want {
			t.Errorf("Cut(%d, %d) = %q, want %q", c.from, c.w, got.Text(), c.want)
		}
		if got.Width() > max(c.w, 0) {
			t.Errorf("Cut(%d, %d) is %d cells wide", c.from, c.w, got.Width())
		}
	}
	got := line.Cut(3, 7)
	if len(got) != 2 || got[0].Style != bold || got[1].Link != "https://example.com" {
		t.Fatalf("the spans lost their styles or links: %#v", got)
	}
}
