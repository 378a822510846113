package render

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// wideNote has a table too wide for 40 columns, one that fits, a code
// block with a long line, prose, and wide tables inside a quote and a
// callout.
const wideNote = "Intro paragraph that wraps to the page like any other prose does.\n\n" +
	"| Name | Kind | Size | Owner | Created | Modified | Status |\n|---|---|---|---|---|---|---|\n" +
	"| alpha.txt | file | 12 KB | ada | 2024-01-02 | 2024-03-04 | ok |\n" +
	"| beta | folder | - | linus | 2023-05-06 | 2024-07-08 | archived |\n\n" +
	"| a | b |\n|---|---|\n| 1 | 2 |\n\n" +
	"```go\nfunc main() { fmt.Println(\"a line of code far longer than forty columns of screen\") }\n```\n\n" +
	"> | Name | Kind | Size | Owner | Created | Modified | Status |\n> |---|---|---|---|---|---|---|\n> | alpha.txt | file | 12 KB | ada | 2024-01-02 | 2024-03-04 | ok |\n\n" +
	":::callout{type=info}\n| Name | Kind | Size | Owner | Created | Modified | Status |\n|---|---|---|---|---|---|---|\n| alpha.txt | file | 12 KB | ada | 2024-01-02 | 2024-03-04 | ok |\n:::\n"

// TestScrollWidthLaysWideBlocksOut: with ScrollWidth a top-level table
// that would break its words and a code block with long lines are laid
// out wider than the page, every word and line whole, and so is one in a
// quote; Page.Wide says where. The prose, the table that fits and a table
// in a component's frame keep the page's width; without ScrollWidth
// nothing is wider than the page.
func TestScrollWidthLaysWideBlocksOut(t *testing.T) {
	doc := Parse([]byte(wideNote))
	opt := Options{Width: 40, Level: ansi.TrueColor, Theme: theme.Dark, ScrollWidth: 1000}
	pg := Layout(doc, opt)
	if len(pg.Wide) != 3 {
		t.Fatalf("want the table, the code block and the quoted table wide, got %+v", pg.Wide)
	}
	if q := pg.Lines[pg.Wide[2].Line].Text(); !strings.HasPrefix(q, "│ ┌") {
		t.Fatalf("the third wide block is not the quoted table: %q", q)
	}
	for _, ln := range pg.Lines[pg.Wide[2].EndLine:] {
		if ln.Width() > 40 {
			t.Fatalf("the table in the callout is wider than the page: %q", ln.Text())
		}
	}
	for i, ln := range pg.Lines {
		in := false
		for _, w := range pg.Wide {
			if i >= w.Line && i < w.EndLine {
				in = true
				if got := ln.Width(); got > w.Width {
					t.Errorf("line %d is %d cells, its block says %d: %q", i, got, w.Width, ln.Text())
				}
			}
		}
		if !in && ln.Width() > 40 {
			t.Errorf("line %d outside a wide block is %d cells: %q", i, ln.Width(), ln.Text())
		}
	}
	table := pg.Wide[0]
	first := pg.Lines[table.Line].Text()
	if !strings.HasPrefix(first, "┌") || ansi.Width(first) != table.Width || table.Width <= 40 {
		t.Fatalf("the wide table's block is not its grid: %+v %q", table, first)
	}
	text := ""
	for _, ln := range pg.Lines[table.Line:table.EndLine] {
		text += ln.Text() + "\n"
	}
	for _, word := range []string{"alpha.txt", "2024-01-02", "2023-05-06", "Modified", "archived"} {
		if !strings.Contains(text, word) {
			t.Errorf("the wide table broke %q:\n%s", word, text)
		}
	}
	code := pg.Wide[1]
	if !strings.Contains(pg.Lines[code.Line+1].Text(), `"a line of code far longer than forty columns of screen") }`) || code.EndLine-code.Line != 3 {
		t.Fatalf("the long code line is broken: %+v\n%q", code, pg.Lines[code.Line+1].Text())
	}
	if w := pg.Lines[code.Line].Width(); w != code.Width {
		t.Errorf("the code frame's rule is %d cells, the block %d", w, code.Width)
	}

	// The packed layout a viewer uses places them alike.
	pk := NewPacker(opt)
	pk.Add(Parse([]byte(wideNote)))
	packed := pk.Page()
	if len(packed.Wide) != len(pg.Wide) {
		t.Fatalf("packed wide blocks %+v, laid out %+v", packed.Wide, pg.Wide)
	}
	for i := range pg.Wide {
		if packed.Wide[i] != pg.Wide[i] {
			t.Errorf("packed wide block %+v, laid out %+v", packed.Wide[i], pg.Wide[i])
		}
	}
	for i := range pg.Lines {
		if packed.Packed.Text(i) != pg.Lines[i].Text() {
			t.Fatalf("packed line %d %q, laid out %q", i, packed.Packed.Text(i), pg.Lines[i].Text())
		}
	}

	// A ScrollWidth too small for the words keeps the page's layout; none
	// keeps every line within the page.
	for _, sw := range []int{0, 40, 50} {
		o := opt
		o.ScrollWidth = sw
		p := Layout(Parse([]byte(wideNote)), o)
		if sw != 50 && len(p.Wide) != 0 {
			t.Fatalf("ScrollWidth %d: wide blocks %+v", sw, p.Wide)
		}
		for _, ln := range p.Lines {
			if ln.Width() > max(40, sw) {
				t.Fatalf("ScrollWidth %d: a line of %d cells: %q", sw, ln.Width(), ln.Text())
			}
		}
	}
}

// TestFillColumnsKeepsFloors: columns are cut from the widest down, none
// below its floor, and the sum is exactly what is available.
func TestFillColumnsKeepsFloors(t *testing.T) {
	for _, c := range []struct {
		widths, floors []int
		avail          int
		want           []int
	}{
		{[]int{30, 10, 5}, []int{8, 8, 5}, 45, []int{30, 10, 5}},
		{[]int{30, 10, 5}, []int{8, 8, 5}, 30, []int{15, 10, 5}},
		{[]int{30, 30, 5}, []int{8, 8, 5}, 30, []int{13, 12, 5}},
		{[]int{30, 10, 5}, []int{20, 8, 5}, 33, []int{20, 8, 5}},
		{[]int{1000000, 3}, []int{8, 3}, 20, []int{17, 3}},
	} {
		got := append([]int(nil), c.widths...)
		fillColumns(got, c.floors, c.avail)
		if !slices.Equal(got, c.want) {
			t.Errorf("fillColumns(%v, %v, %d) = %v, want %v", c.widths, c.floors, c.avail, got, c.want)
		}
	}
}

// TestLongestWord: words run across runs, spaces and breaks end them, and
// a wide character is a word of its own.
func TestLongestWord(t *testing.T) {
	for _, c := range []struct {
		runs []run
		want int
	}{
		{[]run{{text: "a bb ccc"}}, 3},
		{[]run{{text: "ab"}, {text: "cd ef"}}, 4},
		{[]run{{text: "ab"}, {brk: true}, {text: "cd"}}, 2},
		{[]run{{text: "中文的内容"}}, 2},
		{[]run{{text: "café au"}}, 4},
		{[]run{}, 0},
	} {
		if got := longestWord(c.runs, math.MaxInt); got != c.want {
			t.Errorf("longestWord(%+v) = %d, want %d", c.runs, got, c.want)
		}
	}
	// A word longer than the limit does not count.
	if got := longestWord([]run{{text: "tiny enormousword mid"}}, 5); got != 4 {
		t.Errorf("longestWord with limit 5 = %d, want 4", got)
	}
}
