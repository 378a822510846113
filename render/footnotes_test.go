package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

const footnoteNote = "Para with a note[^n] and another[^2].\n\n" +
	"> Quoted[^q], and the first again[^n].\n\n" +
	"[^n]: The first note, long enough that it wraps at this narrow width.\n" +
	"[^2]: Second.\n\n" +
	"    A second paragraph.\n\n" +
	"> [^q]: Defined inside a quote.\n\n" +
	"[^unused]: Never referenced, never shown.\n\n" +
	"Unknown [^zz] stays text.\n"

// TestFootnotesParse: references are numbered in the order of first
// reference, an undefined label stays text, an unreferenced definition is
// dropped, and a definition inside a quote still joins the section, which
// comes after every other block.
func TestFootnotesParse(t *testing.T) {
	doc := Parse([]byte(footnoteNote))
	var refs []int
	var walk func([]Inline)
	walk = func(in []Inline) {
		for _, n := range in {
			switch n := n.(type) {
			case *FootnoteRef:
				refs = append(refs, n.Number)
			case *Emphasis:
				walk(n.Content)
			}
		}
	}
	for _, b := range doc.Blocks {
		switch b := b.(type) {
		case *Paragraph:
			walk(b.Content)
			if strings.Contains(plainText(b.Content), "Unknown") && plainText(b.Content) != "Unknown [^zz] stays text." {
				t.Errorf("undefined reference: %q", plainText(b.Content))
			}
		case *Quote:
			for _, qb := range b.Blocks {
				if p, ok := qb.(*Paragraph); ok {
					walk(p.Content)
				}
			}
		}
	}
	if want := []int{1, 2, 3, 1}; !equalInts(refs, want) {
		t.Errorf("reference numbers %v, want %v", refs, want)
	}
	f, ok := doc.Blocks[len(doc.Blocks)-1].(*Footnotes)
	if !ok {
		t.Fatalf("last block is %T, want *Footnotes", doc.Blocks[len(doc.Blocks)-1])
	}
	var texts []string
	for i, fn := range f.Notes {
		if fn.Number != i+1 {
			t.Errorf("note %d has number %d", i, fn.Number)
		}
		var b strings.Builder
		for _, blk := range fn.Blocks {
			if p, ok := blk.(*Paragraph); ok {
				b.WriteString(plainText(p.Content) + "|")
			}
		}
		texts = append(texts, b.String())
	}
	want := []string{
		"The first note, long enough that it wraps at this narrow width.|",
		"Second.|A second paragraph.|",
		"Defined inside a quote.|",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFootnotesLayout: a reference is drawn as its bracketed number and
// the section lists each note under the same marker, hanging beside it;
// at a width without room for the hang the marker takes its own line.
func TestFootnotesLayout(t *testing.T) {
	got := string(ansi.Encode(Layout(Parse([]byte(footnoteNote)), Options{Width: 40, Level: ansi.None, Theme: theme.Dark}).Lines, ansi.None))
	want := "Para with a note[1] and another[2].\n" +
		"\n" +
		"│ Quoted[3], and the first again[1].\n" +
		"\n" +
		"Unknown [^zz] stays text.\n" +
		"\n" +
		"────────────────────────────────────────\n" +
		"[1] The first note, long enough that it\n" +
		"    wraps at this narrow width.\n" +
		"[2] Second.\n" +
		"\n" +
		"    A second paragraph.\n" +
		"[3] Defined inside a quote.\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	narrow := string(ansi.Encode(Layout(Parse([]byte("a[^1]\n\n[^1]: note text\n")), Options{Width: 14, Level: ansi.None, Theme: theme.Dark}).Lines, ansi.None))
	if want := "a[1]\n\n──────────────\n[1]\nnote text\n"; narrow != want {
		t.Errorf("narrow: got %q, want %q", narrow, want)
	}
}

// TestFootnotesAcrossChunks: a long note streamed in pieces numbers its
// footnotes as the whole note does, though the definitions are far from
// the references.
func TestFootnotesAcrossChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("First[^a] and second[^b].\n\n")
	for b.Len() < 8*chunkMin {
		b.WriteString("A paragraph of filler text that pads the note out.\n\n")
	}
	b.WriteString("Third[^a].\n\n[^b]: Bee.\n\n[^a]: Ay.\n")
	src := []byte(b.String())
	opt := Options{Width: 60, Level: ansi.TrueColor, Theme: theme.Dark}
	want := ansi.Encode(Layout(Parse(src), opt).Lines, opt.Level)
	var got []byte
	var s *Streamer
	err := ParseChunks(src, func(doc *Document) error {
		if s == nil {
			s = NewStreamer(opt, func(lines []ansi.Line) error {
				got = ansi.AppendLines(got, lines, opt.Level)
				return nil
			})
		}
		return s.Add(doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("streamed pieces differ from the whole note")
	}
	if plain := ansi.Encode(Layout(Parse(src), Options{Width: 60}).Lines, ansi.None); !bytes.Contains(plain, []byte("[1] Ay.\n[2] Bee.\n")) || !bytes.HasPrefix(plain, []byte("First[1] and second[2].")) {
		t.Errorf("numbers across the note are wrong:\n%s", plain[len(plain)-200:])
	}
	if !mayDefineFootnote([]byte("x\n[^a]: y")) || mayDefineFootnote([]byte("regexp [^a-z]+ and [^\n]: no")) {
		t.Error("mayDefineFootnote")
	}
}

// TestHostileFootnotes: definitions nested ten thousand deep, a label
// holding escape sequences and thousands of references finish quickly and
// draw only sanitized text.
func TestHostileFootnotes(t *testing.T) {
	var refs strings.Builder
	for i := 0; i < 5000; i++ {
		refs.WriteString("x[^" + strings.Repeat("l", i%50+1) + "] ")
	}
	refs.WriteString("\n\n")
	for i := 0; i < 50; i++ {
		refs.WriteString("[^" + strings.Repeat("l", i+1) + "]: note\n")
	}
	for _, src := range []string{
		"a[^a]\n\n" + strings.Repeat("[^a]: ", 10000) + "deep\n",
		"a[^\x1b]0;pwned\x07]\n\n[^\x1b]0;pwned\x07]: \x1b[31mred\n",
		refs.String(),
	} {
		out := ansi.Encode(Layout(Parse([]byte(src)), Options{Width: 60, Level: ansi.TrueColor, Theme: theme.Dark}).Lines, ansi.TrueColor)
		if err := ansi.Validate(out); err != nil {
			t.Errorf("%.40q: %v", src, err)
		}
	}
}

// TestFootnotesAreWalked: a directive or an image inside a footnote is
// listed and collected like one anywhere else in the note.
func TestFootnotesAreWalked(t *testing.T) {
	doc := Parse([]byte("See[^a].\n\n[^a]: A note with :badge[hidden] in it.\n\n    ![pic](note-pic.png)\n"))
	items, _ := Listing(doc)
	if len(items) != 1 || items[0].Name != "badge" {
		t.Errorf("listing: %+v", items)
	}
	if srcs := PictureSources(doc); len(srcs) != 1 || srcs[0] != "note-pic.png" {
		t.Errorf("picture sources: %q", srcs)
	}
}
