package render

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

var (
	red   = RGB{255, 0, 0}
	blue  = RGB{0, 0, 255}
	green = RGB{0, 255, 0}
	white = RGB{255, 255, 255}
)

// twoByTwo is a 2×4-pixel picture: a red-over-blue cell beside a
// green-over-white cell, then two red-over-red cells.
func twoByTwo() *Picture {
	return &Picture{Cols: 2, Rows: 2, Cells: []PictureCell{
		{red, blue}, {green, white},
		{red, red}, {red, red},
	}}
}

const pictureNote = "Text before.\n\n![a cat](cat.png)\n\n:::figure{src=dog.png alt=\"A dog\"}\nA good dog.\n:::\n"

func layoutBytes(src string, opt Options) ([]byte, *Page) {
	page := Layout(Parse([]byte(src)), opt)
	return ansi.Encode(page.Lines, opt.Level), page
}

// Pictures are drawn only at 256 colors and truecolor; at 16 colors and
// without color the output is byte for byte the text form.
func TestPicturesOnlyAtRichLevels(t *testing.T) {
	images := map[string]*Picture{"cat.png": twoByTwo(), "dog.png": twoByTwo()}
	for _, level := range []ansi.Level{ansi.None, ansi.Color16, ansi.Color256, ansi.TrueColor} {
		opt := Options{Width: 40, Level: level, Theme: theme.Dark}
		plain, _ := layoutBytes(pictureNote, opt)
		opt.Images = images
		drawn, page := layoutBytes(pictureNote, opt)
		if err := ansi.Validate(drawn); err != nil {
			t.Fatalf("level %v: %v", level, err)
		}
		rich := level == ansi.Color256 || level == ansi.TrueColor
		if !rich {
			if !bytes.Equal(plain, drawn) {
				t.Fatalf("level %v: images changed the text form:\n%q\n%q", level, plain, drawn)
			}
			continue
		}
		if got := strings.Count(string(drawn), "▀"); got != 8 {
			t.Fatalf("level %v: %d half blocks, want 8 (two 2×2 pictures):\n%s", level, got, drawn)
		}
		text := make([]string, len(page.Lines))
		for i, ln := range page.Lines {
			text[i] = ln.Text()
		}
		want := []string{"Text before.", "", "▀▀", "▀▀", "[a cat] (cat.png)", "", "▀▀", "▀▀", "alt: A dog", "dog.png", "A good dog."}
		if !slices.Equal(text, want) {
			t.Fatalf("level %v: lines\n%q\nwant\n%q", level, text, want)
		}
	}
}

// The exact bytes of a picture at truecolor: fg is the upper pixel, bg the
// lower, and equal neighbouring cells share one span.
func TestPictureTruecolorBytes(t *testing.T) {
	opt := Options{Width: 40, Level: ansi.TrueColor, Theme: theme.Dark, Images: map[string]*Picture{"cat.png": twoByTwo()}}
	got, _ := layoutBytes("![](cat.png)\n", opt)
	want := "\x1b[38;2;255;0;0;48;2;0;0;255m▀\x1b[0m\x1b[38;2;0;255;0;48;2;255;255;255m▀\x1b[0m\n" +
		"\x1b[38;2;255;0;0;48;2;255;0;0m▀▀\x1b[0m\n"
	if !strings.HasPrefix(string(got), want) {
		t.Fatalf("got\n%q\nwant prefix\n%q", got, want)
	}
}

// An image inside running text, an image with no picture, and a refused
// source keep their text form.
func TestPictureOnlyForStandaloneKnownImages(t *testing.T) {
	images := map[string]*Picture{"cat.png": twoByTwo()}
	for _, src := range []string{
		"See ![a cat](cat.png) here.\n",
		"![a cow](cow.png)\n",
		":::figure{src=\"javascript:cat.png\"}\ncap\n:::\n",
		"| a |\n|---|\n| ![c](cat.png) |\n",
	} {
		opt := Options{Width: 40, Level: ansi.TrueColor, Theme: theme.Dark}
		plain, _ := layoutBytes(src, opt)
		opt.Images = images
		drawn, _ := layoutBytes(src, opt)
		if !bytes.Equal(plain, drawn) || bytes.Contains(drawn, []byte("▀")) {
			t.Fatalf("%q: picture drawn or text changed:\n%q", src, drawn)
		}
	}
}

// A picture wider than the layout is shrunk to fit, keeping its aspect; a
// narrower one is never enlarged.
func TestPictureFitsWidth(t *testing.T) {
	wide := &Picture{Cols: 20, Rows: 5, Cells: make([]PictureCell, 100)}
	for i := range wide.Cells {
		wide.Cells[i] = PictureCell{RGB{uint8(i), 0, 0}, RGB{0, uint8(i), 0}}
	}
	for _, width := range []int{5, 10, 20, 80} {
		opt := Options{Width: width, Level: ansi.Color256, Theme: theme.Dark, Images: map[string]*Picture{"w.png": wide}}
		page := Layout(Parse([]byte("![](w.png)\n")), opt)
		cols := min(width, 20)
		rows := (max(2, 10*cols/20) + 1) / 2
		for i := 0; i < rows; i++ {
			if w := page.Lines[i].Width(); w != cols {
				t.Fatalf("width %d: line %d is %d cells, want %d", width, i, w, cols)
			}
		}
		// Then the text form, wrapped at narrow widths.
		const label = "[image: w.png]"
		if got := strings.TrimSpace(page.Lines[rows].Text()); got == "" || !strings.HasPrefix(got, label) && !strings.HasPrefix(label, got) {
			t.Fatalf("width %d: %d picture rows, then %q", width, rows, got)
		}
		if err := ansi.Validate(ansi.Encode(page.Lines, opt.Level)); err != nil {
			t.Fatal(err)
		}
	}
	// Inside a list item the picture fits the item's width.
	opt := Options{Width: 12, Level: ansi.TrueColor, Theme: theme.Dark, Images: map[string]*Picture{"w.png": wide}}
	page := Layout(Parse([]byte("- ![](w.png)\n")), opt)
	for _, ln := range page.Lines {
		if ln.Width() > 12 {
			t.Fatalf("list line %q is wider than 12", ln.Text())
		}
	}
	// A picture whose cells do not match its size is ignored.
	opt.Images = map[string]*Picture{"w.png": {Cols: 3, Rows: 3, Cells: make([]PictureCell, 2)}}
	if out := ansi.Encode(Layout(Parse([]byte("![](w.png)\n")), opt).Lines, opt.Level); bytes.Contains(out, []byte("▀")) {
		t.Fatal("a malformed picture was drawn")
	}
}

func TestPictureSources(t *testing.T) {
	src := "![a](a.png)\n\nText ![b](b.png) inline.\n\n> ![c](c.gif)\n\n- ![d](d.jpg)\n\n" +
		":::figure{src=e.png}\n![f](f.png)\n:::\n\n![a](a.png)\n\n![r](https://example.com/r.png)\n"
	got := PictureSources(Parse([]byte(src)))
	want := []string{"a.png", "c.gif", "d.jpg", "e.png", "f.png", "https://example.com/r.png"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
	if PictureSources(nil) != nil {
		t.Fatal("nil document has sources")
	}
}

// An installed pack's components still draw as the fallback box, but the
// box names the pack's engine and why, and the pack is not reported as
// missing.
func TestInstalledPackLabelAndDiagnostic(t *testing.T) {
	src := "---\nuses: [ana, viz]\n---\n\n::ana_timeline\n\n::viz_chart\n\nSee :ana_badge[x].\n"
	opt := Options{Width: 200, Theme: theme.Dark, Packs: map[string]string{"ana": "react\x1b[31m"}}
	page := Layout(Parse([]byte(src)), opt)
	var text []string
	for _, ln := range page.Lines {
		text = append(text, ln.Text())
	}
	all := strings.Join(text, "\n")
	if strings.Contains(all, "component") || strings.Contains(all, "\x1b") || !strings.Contains(all, "See x.") {
		t.Fatalf("the page holds a diagnostic or lost the text:\n%s", all)
	}
	wantDiag := []string{"this note uses pack viz, which is not installed; its components show as unknown-component boxes",
		"component `ana_timeline` from pack ana (engine react[31m) cannot be drawn in a terminal",
		"unknown component `viz_chart` from pack viz",
		"component `ana_badge` from pack ana (engine react[31m) cannot be drawn in a terminal"}
	if !slices.Equal(page.Diagnostics, wantDiag) {
		t.Fatalf("diagnostics %q", page.Diagnostics)
	}
	opt.Packs["viz"] = "vue"
	if page := Layout(Parse([]byte(src)), opt); strings.Contains(strings.Join(page.Diagnostics, "\n"), "not installed") {
		t.Fatalf("all packs installed, diagnostics %q", page.Diagnostics)
	}
	// Without Packs the old wording stays.
	if page := Layout(Parse([]byte(src)), Options{Width: 80, Theme: theme.Dark}); !strings.Contains(strings.Join(page.Diagnostics, "\n"), "unknown component `ana_timeline` from pack ana") {
		t.Fatalf("no packs: %q", page.Diagnostics)
	}
}

// TestImgWidthAndHeight: an HTML img's width and height bound its
// picture (8 and 16 pixels a cell; a percentage of the page), never past
// the page, and bad values are ignored.
func TestImgWidthAndHeight(t *testing.T) {
	wide := &Picture{Cols: 40, Rows: 10, Cells: make([]PictureCell, 400)}
	for i := range wide.Cells {
		wide.Cells[i] = PictureCell{RGB{uint8(i), 0, 0}, RGB{0, uint8(i), 0}}
	}
	for _, c := range []struct {
		attrs    string
		cols     int
		pageCols int
	}{
		{`width="80"`, 10, 60},
		{`width="80px"`, 10, 60},
		{`width="50%"`, 30, 60},
		{`height="80"`, 20, 60},            // 5 rows of a 4:1 picture
		{`width="400" height="32"`, 8, 60}, // the height binds
		{`width="100000"`, 40, 60},         // the picture's own size
		{`width="9000"`, 30, 30},           // never past the page
		{`width="-5" height="x"`, 40, 60},
		{`width="0"`, 40, 60},
	} {
		opt := Options{Width: c.pageCols, Level: ansi.TrueColor, Theme: theme.Dark, Images: map[string]*Picture{"w.png": wide}}
		page := Layout(Parse([]byte(`<p><img src="w.png" alt="w" `+c.attrs+`></p>`+"\n")), opt)
		if w := page.Lines[0].Width(); w != c.cols {
			t.Errorf("%s at width %d: the picture is %d cells across, want %d", c.attrs, c.pageCols, w, c.cols)
		}
		if !strings.Contains(page.Lines[0].Text(), "▀") {
			t.Errorf("%s: no picture drawn: %q", c.attrs, page.Lines[0].Text())
		}
	}
}
