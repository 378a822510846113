package render

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// packedLike checks that page, laid out by a Packer, is the page Layout
// lays out: the same lines (as Compact keeps them), headings, focusables,
// links, diagnostics and level.
func packedLike(t *testing.T, name string, want, got *Page) {
	t.Helper()
	if got.Lines != nil || got.Packed == nil {
		t.Fatalf("%s: a packed page has Lines %d, Packed %v", name, len(got.Lines), got.Packed != nil)
	}
	lines := ansi.Compact(want.Lines)
	if got.Packed.Len() != len(lines) {
		t.Fatalf("%s: %d lines packed, Layout lays out %d", name, got.Packed.Len(), len(lines))
	}
	for i, l := range lines {
		if len(l) == 0 {
			l = nil
		}
		if g := got.Packed.Line(i); !reflect.DeepEqual(g, l) {
			t.Fatalf("%s: line %d\n got %+v\nwant %+v", name, i, g, l)
		}
	}
	if !reflect.DeepEqual(got.Headings, want.Headings) {
		t.Fatalf("%s: headings\n got %+v\nwant %+v", name, got.Headings, want.Headings)
	}
	if !reflect.DeepEqual(got.Focusables, want.Focusables) {
		t.Fatalf("%s: %d focusables, Layout finds %d\n got %+v\nwant %+v", name, len(got.Focusables), len(want.Focusables), got.Focusables, want.Focusables)
	}
	if got.Links.Len() != want.Links.Len() {
		t.Fatalf("%s: %d links, Layout finds %d", name, got.Links.Len(), want.Links.Len())
	}
	for i := range want.Links.Len() {
		if got.Links.URL(i) != want.Links.URL(i) || !reflect.DeepEqual(got.Links.Ranges(i), want.Links.Ranges(i)) {
			t.Fatalf("%s: link %d goes to %q over %+v, Layout finds %q over %+v", name, i,
				got.Links.URL(i), got.Links.Ranges(i), want.Links.URL(i), want.Links.Ranges(i))
		}
	}
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		t.Fatalf("%s: diagnostics %q, want %q", name, got.Diagnostics, want.Diagnostics)
	}
}

func packedWhole(src []byte, opt Options) *Page {
	p := NewPacker(opt)
	p.Add(Parse(src))
	return p.Page()
}

func packedChunked(t *testing.T, src []byte, opt Options, min int) (*Page, int) {
	t.Helper()
	p := NewPacker(opt)
	chunks := 0
	if err := parseChunks(src, min, func(doc *Document) error {
		chunks++
		p.Add(doc)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return p.Page(), chunks
}

func TestPackerLaysOutWhatLayoutDoes(t *testing.T) {
	paths, err := filepath.Glob("../fixtures/*.mk.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	live := &LiveState{Focus: 1, ActiveTab: map[BlockID]int{0: 1}, Open: map[BlockID]bool{0: true}, Folded: map[BlockID]bool{2: true}}
	opts := []Options{
		{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark},
		{Width: 41, Level: ansi.None, Theme: theme.Light, Live: live},
		{Width: 120, Level: ansi.Color16, Theme: theme.Dark, Live: &LiveState{Focus: -1}},
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range opts {
			name := filepath.Base(p)
			want := Layout(Parse(src), opt)
			packedLike(t, name, want, packedWhole(src, opt))
			got, _ := packedChunked(t, src, opt, 1)
			packedLike(t, name+" in pieces", Layout(Parse(src), opt), got)
		}
	}
}

func TestPackerLaysOutALongNoteInPiecesAsLayoutDoes(t *testing.T) {
	src := realisticNote(300 << 10)
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark, Live: &LiveState{Focus: 3, Open: map[BlockID]bool{1: true}}}
	got, chunks := packedChunked(t, src, opt, 4<<10)
	if chunks < 10 {
		t.Fatalf("a 300 KB note was cut into %d chunks, want many", chunks)
	}
	want := Layout(Parse(src), opt)
	if want.Links.Len() < 100 || len(want.Headings) < 10 {
		t.Fatalf("the note has %d links and %d headings; the test needs many", want.Links.Len(), len(want.Headings))
	}
	packedLike(t, "long note", want, got)
}
