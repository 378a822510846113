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
		calloutBars[:4], calloutBars, "▌", "▌ ▌", "▌ x",
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

// TestDashedBoxSidesLineUp: the right side of every dashed box is in the
// column of its top corner on every line of the box, however boxes nest
// in each other and in the containers that pass a box's lines on (a box
// whose lines are known to fit is not measured again).
func TestDashedBoxSidesLineUp(t *testing.T) {
	box := func(name, body string, colons int) string {
		c := strings.Repeat(":", colons)
		return c + name + "\n" + body + "\n" + c + "\n"
	}
	words := "some words that wrap over a few lines of the box they are in"
	deep := words
	for i := 3; i < 9; i++ {
		deep = box("note", deep, i)
	}
	sources := []string{
		deep,
		box("note", "> "+strings.ReplaceAll(box("inner", words, 3), "\n", "\n> "), 4),
		box("note", "- item\n\n  "+strings.ReplaceAll(box("inner", words, 3), "\n", "\n  "), 4),
		box("note", box("center", box("inner", "short", 3), 4), 5),
		box("note", box("narrow", box("inner", words, 3), 4), 5),
		box("note", box("fit", box("inner", "short", 3), 4), 5),
		box("note", box("row", box("cell", box("a", words, 3), 4)+box("cell", box("b", "x", 3), 4), 5), 6),
		box("note[label]{k=v}", box("inner", box("in2", words, 3), 4), 5),
		box("note", box("callout", box("inner", words, 3), 4), 5),
		box("note", box("inner", words, 3)+"\ntext between\n\n"+box("in2", words, 3), 4),
	}
	for _, src := range sources {
		for width := 8; width <= 90; width += 7 {
			lines, _ := draw(t, src, width, nil, nil)
			rows := make([][]rune, len(lines))
			for i, ln := range lines {
				rows[i] = []rune(ln)
			}
			for i, row := range rows {
				for c, r := range row {
					if r != '┌' {
						continue
					}
					e := c + 1
					for e < len(row) && row[e] == '╌' {
						e++
					}
					if e == len(row) || row[e] != '┐' {
						continue
					}
					for j := i + 1; j < len(rows) && (c >= len(rows[j]) || rows[j][c] != '└'); j++ {
						if e >= len(rows[j]) || rows[j][e] != '┆' {
							t.Fatalf("width %d: line %d of the box at line %d, column %d has no side at column %d:\n%s", width, j+1, i+1, c, e, strings.Join(lines, "\n"))
						}
					}
				}
			}
		}
	}
}
