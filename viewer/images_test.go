package viewer

import (
	"strings"
	"testing"

	"github.com/markii/markii/render"
)

// The viewer draws a note's pictures, shrunk to the window, and passes
// the installed packs to layout.
func TestViewerDrawsPicturesAndKnowsPacks(t *testing.T) {
	pic := &render.Picture{Cols: 30, Rows: 2, Cells: make([]render.PictureCell, 60)}
	for i := range pic.Cells {
		pic.Cells[i] = render.PictureCell{Top: render.RGB{R: 200}, Bottom: render.RGB{R: 200}}
	}
	src := "![cat](cat.png)\n\n::dash_chart\n"
	m := newTest(t, src, 20, 12, func(o *Options) {
		o.Note.Images = map[string]*render.Picture{"cat.png": pic}
		o.Packs = map[string]string{"dash": "react"}
	})
	view := m.frame()
	if !strings.Contains(view, "38;2;200;0;0;48;2;200;0;0m") || strings.Count(view, "▀") == 0 {
		t.Fatalf("no picture in the view:\n%s", view)
	}
	for i := range m.pg.lineCount() {
		if ln := m.pg.line(i); ln.Width() > 20 {
			t.Fatalf("line wider than the window: %q", ln.Text())
		}
	}
	if !strings.Contains(view, "(engine") {
		t.Fatalf("the pack's engine is not named:\n%s", view)
	}
	plain := newTest(t, src, 20, 12, nil)
	if strings.Contains(plain.frame(), "▀") {
		t.Fatal("a note without pictures drew one")
	}
}
