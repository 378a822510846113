package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

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
	for i := range m.reader.pg.lineCount() {
		if ln := m.reader.pg.line(i); ln.Width() > 20 {
			t.Fatalf("line wider than the window: %q", ln.Text())
		}
	}
	// The pack's engine is named where the page's diagnostics are.
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
	press(m, "D")
	if !strings.Contains(screen(m), "(engine react)") {
		t.Fatalf("the pack's engine is not named:\n%s", screen(m))
	}
	plain := newTest(t, src, 20, 12, nil)
	if strings.Contains(plain.frame(), "▀") {
		t.Fatal("a note without pictures drew one")
	}
}

// A note's pictures are decoded in the background once the first frame
// has had its head start, and the note is then drawn with them at the
// reader's place, a long note that is still loading included.
func TestPicturesAreDecodedAfterTheFirstFrame(t *testing.T) {
	pic := &render.Picture{Cols: 10, Rows: 2, Cells: make([]render.PictureCell, 20)}
	for i := range pic.Cells {
		pic.Cells[i] = render.PictureCell{Top: render.RGB{G: 200}, Bottom: render.RGB{G: 200}}
	}
	long := "# Long\n\n![cat](cat.png)\n\n" + strings.Repeat("A paragraph of the long note that goes on.\n\n", 4000)
	for name, src := range map[string]string{"short": "# Short\n\n![cat](cat.png)\n\nText.\n", "long": long} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			var at atomic.Int64
			m := newTest(t, src, 40, 12, func(o *Options) {
				o.Note.Pictures = func() (map[string]*render.Picture, []string) {
					at.Store(time.Now().UnixNano())
					calls.Add(1)
					return map[string]*render.Picture{"cat.png": pic}, []string{"image dog.png was not drawn: it is not there"}
				}
			})
			if name == "long" && !m.reader.loading {
				t.Fatal("the long note is not shown from a prefix first")
			}
			if strings.Contains(m.frame(), "▀") || calls.Load() != 0 {
				t.Fatal("the first frame waited for the pictures")
			}
			start := time.Now()
			d := newDriver(m)
			d.exec(m.Init())
			d.until(t, "the picture", func() bool { return strings.Contains(m.frame(), "▀") && !m.reader.loading })
			if waited := time.Unix(0, at.Load()).Sub(start); waited < firstFrameHead {
				t.Errorf("the pictures were decoded %v after Init, before the first frame's head start of %v", waited, firstFrameHead)
			}
			if !strings.Contains(m.frame(), "38;2;0;200;0;48;2;0;200;0m") {
				t.Errorf("the picture is not drawn in its colors:\n%s", screen(m))
			}
			if got := strings.Join(m.reader.note.Diagnostics, "\n"); !strings.Contains(got, "dog.png was not drawn") {
				t.Errorf("the refused image is not among the diagnostics: %q", got)
			}
			d.exec(m.Init())
			d.deliverFor(3 * firstFrameHead)
			if n := calls.Load(); n != 1 {
				t.Errorf("the pictures were decoded %d times, want once", n)
			}
		})
	}
}

// A reader who scrolled before the pictures arrived stays on the same
// text when a picture above grows the page.
func TestPicturesArrivingKeepTheReadersPlace(t *testing.T) {
	pic := &render.Picture{Cols: 10, Rows: 6, Cells: make([]render.PictureCell, 60)}
	var b strings.Builder
	b.WriteString("# Top\n\n![cat](cat.png)\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "## Section %d\n\nSome text of section %d.\n\n", i, i)
	}
	m := newTest(t, b.String(), 40, 12, func(o *Options) {
		o.Note.Pictures = func() (map[string]*render.Picture, []string) {
			return map[string]*render.Picture{"cat.png": pic}, nil
		}
	})
	m.reader.top = m.reader.pg.rowOf(headingLine(t, m, "Section 30"))
	before := strings.SplitN(screen(m), "\n", 2)[0]
	if !strings.Contains(before, "Section 30") {
		t.Fatalf("the reader is not at Section 30: %q", before)
	}
	d := newDriver(m)
	d.exec(m.Init())
	d.until(t, "the pictures", func() bool { return m.reader.note.Images != nil })
	if top := strings.SplitN(screen(m), "\n", 2)[0]; top != before {
		t.Fatalf("the top line was %q before the pictures and %q after", before, top)
	}
}

// headingLine is the page line of the heading whose text is text.
func headingLine(t *testing.T, m *Model, text string) int {
	t.Helper()
	for _, h := range m.reader.pg.laid.Headings {
		if h.Text == text {
			return h.Line
		}
	}
	t.Fatalf("no heading %q", text)
	return 0
}

// A reload draws the pictures of the note as it is now: an image added
// by the edit is drawn, and a decode of the old text that ends after the
// reload is dropped.
func TestReloadDrawsTheNewPictures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.mk.md")
	src := "# Live\n\nNo picture yet.\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pic := &render.Picture{Cols: 10, Rows: 2, Cells: make([]render.PictureCell, 20)}
	for i := range pic.Cells {
		pic.Cells[i] = render.PictureCell{Top: render.RGB{B: 200}, Bottom: render.RGB{B: 200}}
	}
	release := make(chan struct{})
	m := newTest(t, src, 60, 12, func(o *Options) {
		o.Note = &Note{Name: "live.mk.md", Path: path, Source: []byte(src), Watch: []string{path},
			Pictures: func() (map[string]*render.Picture, []string) {
				<-release // the old text's decode ends after the reload
				return nil, []string{"stale decode"}
			}}
		o.Load = func(p string) (*Note, error) {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			n := &Note{Name: "live.mk.md", Path: p, Source: b}
			if strings.Contains(string(b), "![cat]") {
				n.Images = map[string]*render.Picture{"cat.png": pic}
			}
			return n, nil
		}
		o.Watch = true
	})
	d := newDriver(m)
	d.exec(m.Init())
	if err := os.WriteFile(path, []byte(src+"\n![cat](cat.png)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the reload", func() bool { return m.reader.reload == 1 })
	if !strings.Contains(m.frame(), "38;2;0;0;200;48;2;0;0;200m") {
		t.Fatalf("the reloaded note does not draw the added picture:\n%s", screen(m))
	}
	close(release)
	d.deliverFor(3 * firstFrameHead)
	if strings.Contains(strings.Join(m.reader.note.Diagnostics, "\n"), "stale decode") {
		t.Error("the decode of the text before the reload was applied after it")
	}
	if !strings.Contains(m.frame(), "38;2;0;0;200;48;2;0;0;200m") {
		t.Error("the stale decode took the picture away")
	}
}
