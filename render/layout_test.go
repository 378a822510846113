package render

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// txt builds inline text.
func txt(s string) *Text { return &Text{Text: s} }

func para(in ...Inline) *Paragraph { return &Paragraph{Content: in} }

func doc(bs ...Block) *Document { return &Document{Blocks: bs} }

// plainLayout lays d out at width with no color, checks that no line is
// wider than width, and returns the text.
func plainLayout(t *testing.T, d *Document, width int) string {
	t.Helper()
	p := Layout(d, Options{Width: width, Level: ansi.None, Theme: theme.Dark})
	for i, ln := range p.Lines {
		if w := ln.Width(); w > width {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i, w, width, ln.Text())
		}
	}
	return string(ansi.Encode(p.Lines, ansi.None))
}

func check(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s\n(got %q)", got, want, got)
	}
}

func TestLayoutParagraphWrap(t *testing.T) {
	d := doc(
		para(txt("The quick brown fox jumps over the lazy dog."), &SoftBreak{}, &Strong{Content: []Inline{txt("Bold words")}}, txt(" and "), &Emphasis{Content: []Inline{txt("italic")}}, txt(".")),
		para(txt("second")),
	)
	check(t, plainLayout(t, d, 20), "The quick brown fox\njumps over the lazy\ndog. Bold words and\nitalic.\n\nsecond\n")
}

func TestLayoutEmptyDocument(t *testing.T) {
	check(t, plainLayout(t, doc(), 80), "")
	check(t, plainLayout(t, &Document{}, 80), "")
	if p := Layout(nil, Options{Width: 80}); len(p.Lines) != 0 {
		t.Fatalf("nil document drew %d lines", len(p.Lines))
	}
}

func TestLayoutLongWordHardBreak(t *testing.T) {
	d := doc(para(txt("go abcdefghijklmnopqrstuvwxyz end")))
	check(t, plainLayout(t, d, 10), "go\nabcdefghij\nklmnopqrst\nuvwxyz end\n")
}

func TestLayoutWideCharacters(t *testing.T) {
	// CJK counts two cells; a run of them with no spaces breaks between
	// characters, never inside one.
	d := doc(para(txt("日本語のテキストです")))
	check(t, plainLayout(t, d, 7), "日本語\nのテキ\nストで\nす\n")
	// A ZWJ family emoji is one cluster of width 2 and is never split; a
	// combining accent adds no width.
	d = doc(para(txt("👨‍👩‍👧 cafe\u0301 ok")))
	check(t, plainLayout(t, d, 7), "👨‍👩‍👧 cafe\u0301\nok\n")
}

func TestLayoutHardBreak(t *testing.T) {
	d := doc(para(txt("one"), &HardBreak{}, txt("two")))
	check(t, plainLayout(t, d, 80), "one\ntwo\n")
}

func TestLayoutHeadingsRecorded(t *testing.T) {
	d := doc(
		&Heading{Level: 1, Content: []Inline{txt("Title")}},
		para(txt("body")),
		&Quote{Blocks: []Block{&Heading{Level: 2, Content: []Inline{txt("Quoted")}}}},
		&Heading{Level: 3, Content: []Inline{txt("Third")}},
	)
	p := Layout(d, Options{Width: 40, Theme: theme.Dark})
	got := string(ansi.Encode(p.Lines, ansi.None))
	check(t, got, "# Title\n━━━━━━━\n\nbody\n\n│ ## Quoted\n│ ─────────\n\n### Third\n")
	want := []HeadingRef{{0, 1, "Title", 0, 2}, {1, 2, "Quoted", 5, 7}, {2, 3, "Third", 8, 9}}
	if len(p.Headings) != len(want) {
		t.Fatalf("headings %+v, want %+v", p.Headings, want)
	}
	for i := range want {
		if p.Headings[i] != want[i] {
			t.Errorf("heading %d = %+v, want %+v", i, p.Headings[i], want[i])
		}
	}
}

func TestPlainHeadingsShowTheirLevel(t *testing.T) {
	var blocks []Block
	for lvl := 1; lvl <= 6; lvl++ {
		blocks = append(blocks, &Heading{Level: lvl, Content: []Inline{txt("Level"), &Strong{Content: []Inline{txt(" bold")}}}})
	}
	d := doc(blocks...)
	check(t, plainLayout(t, d, 40), "# Level bold\n━━━━━━━━━━━━\n\n## Level bold\n─────────────\n\n### Level bold\n\n#### Level bold\n\n##### Level bold\n\n###### Level bold\n")

	// A wrapped heading's later lines hang under its text, and the rule
	// under a level 1 or 2 heading is as wide as its widest line.
	long := doc(&Heading{Level: 1, Content: []Inline{txt("one two three four five six")}}, &Heading{Level: 3, Content: []Inline{txt("alpha beta gamma delta")}})
	check(t, plainLayout(t, long, 20), "# one two three four\n  five six\n━━━━━━━━━━━━━━━━━━━━\n\n### alpha beta gamma\n    delta\n")

	// Too narrow for markers and a readable line: the text alone.
	check(t, plainLayout(t, doc(&Heading{Level: 6, Content: []Inline{txt("tiny")}}), 17), "tiny\n")

	// With color the level is in the style, and the markers are left out.
	p := Layout(d, Options{Width: 40, Level: ansi.TrueColor, Theme: theme.Dark})
	if out := p.Lines[0].Text(); out != "Level bold" {
		t.Errorf("a heading in color starts %q, want no markers", out)
	}
}

func TestLayoutLinks(t *testing.T) {
	link := &Link{URL: "https://example.com/x", Content: []Inline{txt("site")}}
	same := &Link{URL: "https://example.com/", Content: []Inline{txt("https://example.com/")}, Auto: true}
	refused := &Link{URL: "", Content: []Inline{txt("bad")}}
	img := &Image{URL: "cat.png", Alt: "a cat"}
	d := doc(para(link, txt(" "), same, txt(" "), refused, txt(" "), img))
	check(t, plainLayout(t, d, 200), "site (https://example.com/x) https://example.com/ bad [a cat] (cat.png)\n")

	// With color on, an allowed URL becomes an OSC 8 hyperlink and is not
	// repeated; a relative URL cannot be a hyperlink and is printed.
	rel := &Link{URL: "./other.mk.md", Content: []Inline{txt("other")}}
	p := Layout(doc(para(link, txt(" "), rel)), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	out := ansi.Encode(p.Lines, ansi.TrueColor)
	if err := ansi.Validate(out); err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if !strings.Contains(s, "\x1b]8;;https://example.com/x\x07") || strings.Contains(s, "(https://example.com/x)") {
		t.Errorf("no OSC 8 hyperlink or URL repeated: %q", s)
	}
	if !strings.Contains(p.Lines[0].Text(), "other (./other.mk.md)") {
		t.Errorf("relative link not printed: %q", p.Lines[0].Text())
	}
}

func TestLayoutLists(t *testing.T) {
	yes, no := true, false
	inner := &List{Tight: true, Items: []*ListItem{{Blocks: []Block{para(txt("nested item"))}}}}
	d := doc(&List{Tight: true, Items: []*ListItem{
		{Blocks: []Block{para(txt("first item wraps onto a second line")), inner}},
		{Task: &yes, Blocks: []Block{para(txt("done"))}},
		{Task: &no, Blocks: []Block{para(txt("todo"))}},
	}})
	check(t, plainLayout(t, d, 24), "• first item wraps onto\n  a second line\n  ◦ nested item\n• [x] done\n• [ ] todo\n")

	ol := &List{Ordered: true, Start: 9, Tight: true, Items: []*ListItem{
		{Blocks: []Block{para(txt("nine"))}},
		{Blocks: []Block{para(txt("ten is long enough to wrap"))}},
	}}
	check(t, plainLayout(t, doc(ol), 16), " 9. nine\n10. ten is long\n    enough to\n    wrap\n")
}

func TestLayoutQuoteCodeRuleScript(t *testing.T) {
	d := doc(
		&Quote{Blocks: []Block{para(txt("quoted text that wraps")), para(txt("more"))}},
		&CodeBlock{Lang: "go", Text: "x := 1\n\nreturn x"},
		&ThematicBreak{},
		&ScriptBlock{Name: "stars", Label: "lua", Source: "return 1"},
	)
	check(t, plainLayout(t, d, 14), "│ quoted text\n│ that wraps\n│\n│ more\n\n╭─ go ────────\n│ x := 1\n│\n│ return x\n╰─────────────\n\n──────────────\n\n⚙ stars · lua\n")
	// Too narrow for a frame: the language over the code.
	check(t, plainLayout(t, doc(&CodeBlock{Lang: "go", Text: "x := 1"}), 8), " go\nx := 1\n")
}

func TestLayoutCodeBlockLongLine(t *testing.T) {
	d := doc(&CodeBlock{Text: "abcdefghijklmnop"})
	check(t, plainLayout(t, d, 10), "╭─────────\n│ abcdefgh\n│ ↪ ijklmn\n│ ↪ op\n╰─────────\n")
}

func TestLayoutCodeHighlighted(t *testing.T) {
	d := doc(&CodeBlock{Lang: "go", Text: "func main() { return \"s\" } // c"})
	p := Layout(d, Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	st := NewStyles(theme.Dark)
	found := map[string]ansi.Style{}
	for _, sp := range p.Lines[1] {
		found[strings.TrimSpace(sp.Text)] = sp.Style
	}
	if found["func"] != st.Keyword || found[`"s"`] != st.String || found["// c"] != st.Comment || found["main"] != st.Function {
		t.Fatalf("tokens not styled from the theme: %+v", p.Lines[1])
	}
	if p.Lines[1].Text() != "│ func main() { return \"s\" } // c" {
		t.Fatalf("highlighting changed the text: %q", p.Lines[1].Text())
	}
}

func TestLayoutTable(t *testing.T) {
	cell := func(s string) []Inline { return []Inline{txt(s)} }
	tb := &Table{
		Align:  []Align{AlignLeft, AlignRight},
		Header: [][]Inline{cell("Name"), cell("Qty")},
		Rows:   [][][]Inline{{cell("apple"), cell("3")}, {cell("kiwi"), cell("12")}},
	}
	check(t, plainLayout(t, doc(tb), 80), ""+
		"┌───────┬─────┐\n"+
		"│ Name  │ Qty │\n"+
		"├───────┼─────┤\n"+
		"│ apple │   3 │\n"+
		"│ kiwi  │  12 │\n"+
		"└───────┴─────┘\n")
	// Too wide: the widest column shrinks and its cells wrap.
	wide := &Table{
		Header: [][]Inline{cell("k"), cell("description")},
		Rows:   [][][]Inline{{cell("a"), cell("a long description that must wrap")}},
	}
	check(t, plainLayout(t, doc(wide), 24), ""+
		"┌───┬──────────────────┐\n"+
		"│ k │ description      │\n"+
		"├───┼──────────────────┤\n"+
		"│ a │ a long           │\n"+
		"│   │ description that │\n"+
		"│   │ must wrap        │\n"+
		"└───┴──────────────────┘\n")
}

func TestShrinkColumns(t *testing.T) {
	for _, tc := range []struct {
		in    []int
		avail int
		want  []int
	}{
		{[]int{5, 5}, 20, []int{5, 5}},
		{[]int{10, 4}, 10, []int{6, 4}},
		{[]int{8, 8}, 13, []int{6, 7}},
		{[]int{1 << 20, 2}, 10, []int{8, 2}},
		{[]int{9, 9, 9}, 3, []int{3, 3, 3}},
	} {
		w := append([]int(nil), tc.in...)
		shrinkColumns(w, tc.avail)
		for i := range w {
			if w[i] != tc.want[i] {
				t.Errorf("shrink %v to %d = %v, want %v", tc.in, tc.avail, w, tc.want)
				break
			}
		}
	}
}

func TestStreamMatchesLayout(t *testing.T) {
	mk := func() *Document {
		return doc(
			&Heading{Level: 1, Content: []Inline{txt("Title")}},
			para(txt("one two three four five six")),
			&Directive{Name: "nobody-home", Form: FormLeaf},
			&List{Tight: true, Items: []*ListItem{{Blocks: []Block{para(txt("item"))}}}},
			&Paragraph{},
			&ThematicBreak{},
		)
	}
	opt := Options{Width: 24, Level: ansi.TrueColor, Theme: theme.Light, Registry: NewRegistry()}
	want := ansi.Encode(Layout(mk(), opt).Lines, ansi.TrueColor)
	var got []byte
	d := mk()
	diags, err := Stream(d, opt, func(lines []ansi.Line) error {
		got = ansi.AppendLines(got, lines, ansi.TrueColor)
		return nil
	})
	if err != nil || len(diags) != 1 || diags[0] != "unknown component `nobody-home`" {
		t.Fatalf("Stream: %v %v", diags, err)
	}
	if string(got) != string(want) {
		t.Fatalf("Stream drew\n%q\nLayout drew\n%q", got, want)
	}
	for i, b := range d.Blocks {
		if b != nil {
			t.Fatalf("block %d not released", i)
		}
	}
}

// FuzzWrap checks the wrapper's invariants on arbitrary text: every line
// fits the width unless it is a single grapheme cluster wider than the
// width, no line starts or ends with a gap, and the words survive in
// order.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"hello world", "日本語のテキスト abc", "a  b   c", "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", "x\u0301y\u0302", "  lead", "trail  ", strings.Repeat("long", 30)} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		// Tree text is valid UTF-8 with no line breaks or tabs.
		if width < 1 || width > 200 || !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r\t") {
			return
		}
		half := len(s) / 2
		runs := []run{{text: s[:half]}, {text: s[half:], style: ansi.Style{Bold: true}}}
		lines := wrapRuns(runs, width, nil)
		var words []string
		for _, ln := range lines {
			text := ln.Text()
			if w := ansi.Width(text); w > width && strings.Contains(strings.TrimSpace(text), " ") {
				t.Fatalf("line %q is %d wide at width %d", text, w, width)
			}
			if strings.HasPrefix(text, " ") || strings.HasSuffix(text, " ") {
				t.Fatalf("line %q has an edge gap", text)
			}
			words = append(words, strings.Fields(text)...)
		}
		if strings.Join(words, "") != strings.Join(strings.Fields(s), "") {
			t.Fatalf("text lost: %q -> %q", s, words)
		}
	})
}

// TestTableKeepsWordsWhole: whatever its cells and the width, a table
// never breaks a word the width could hold whole, even beside a word too
// long for it; it narrows its columns to keep them whole, or stacks its
// rows where no grid can.
func TestTableKeepsWordsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	word := func() string {
		n := 1 + rng.IntN(18)
		if rng.IntN(40) == 0 {
			n = 150 // longer than any width here: it breaks, and the others stay whole
		}
		return strings.Repeat(string(rune('a'+rng.IntN(26))), n)
	}
	cellText := func() string {
		words := make([]string, 1+rng.IntN(5))
		for i := range words {
			words[i] = word()
		}
		return strings.Join(words, " ")
	}
	for range 400 {
		cols, rows := 1+rng.IntN(8), 1+rng.IntN(4)
		tb := &Table{}
		var all []string
		mkRow := func() [][]Inline {
			row := make([][]Inline, cols)
			for i := range row {
				s := cellText()
				all = append(all, strings.Fields(s)...)
				row[i] = []Inline{txt(s)}
			}
			return row
		}
		tb.Header = mkRow()
		for range rows {
			tb.Rows = append(tb.Rows, mkRow())
		}
		width := 20 + rng.IntN(120)
		out := plainLayout(t, doc(tb), width)
		seen := map[string]bool{}
		for ln := range strings.SplitSeq(out, "\n") {
			for _, f := range strings.FieldsFunc(ln, func(r rune) bool { return r == ' ' || r == '│' || r == ':' }) {
				seen[f] = true
			}
		}
		for _, w := range all {
			if len(w) <= width && !seen[w] {
				t.Fatalf("width %d: the word %q is broken:\n%s", width, w, out)
			}
		}
	}
}
