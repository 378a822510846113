package render

import (
	"net/url"
	"path"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/sanitize"
)

// This file draws pictures: bundle-local images the caller decoded and
// handed over in Options.Images. Layout never opens a file; a picture is
// plain cell data, drawn with upper half blocks (`▀`) whose foreground is
// the upper pixel and background the lower one. Pictures are drawn only
// at the 256-color and truecolor levels; at any other level, or for a
// source with no picture, the text form is drawn exactly as without
// pictures.

// RGB is an opaque 24-bit color.
type RGB struct{ R, G, B uint8 }

// PictureCell is one terminal cell of a Picture: two pixels, Top over
// Bottom.
type PictureCell struct{ Top, Bottom RGB }

// Picture is an image reduced to terminal cells. It is plain data.
type Picture struct {
	// Cols and Rows are the size in cells.
	Cols, Rows int
	// Cells holds Rows*Cols cells, row by row, for half-block drawing.
	Cells []PictureCell
	// PNG is the image scaled for Cols×Rows cells, for a terminal graphics
	// protocol (Options.ImageProtocol); nil when there is none.
	PNG []byte
}

// valid reports whether p's cells match its size.
func (p *Picture) valid() bool {
	return p != nil && p.Cols > 0 && p.Rows > 0 && len(p.Cells) == p.Cols*p.Rows
}

// pixels returns the lines that show p's PNG through the protocol the
// caller chose, at most width cells across (the terminal scales it), or
// nil when p has none. kitty leaves the cursor where the image starts, so
// the image line is followed by empty lines for the rows it covers;
// iTerm2 moves the cursor past the image itself, so it is one line.
func (l *layouter) pixels(p *Picture, width int) []ansi.Line {
	proto := l.opt.ImageProtocol
	if proto == ansi.NoImageProtocol || p == nil || len(p.PNG) == 0 || p.Cols < 1 || p.Rows < 1 {
		return nil
	}
	cols, rows := p.Cols, p.Rows
	if cols > width {
		cols, rows = width, max(1, rows*width/cols)
	}
	lines := []ansi.Line{{{Image: &ansi.Image{Protocol: proto, PNG: p.PNG, Cols: cols, Rows: rows}}}}
	if proto == ansi.Kitty {
		lines = append(lines, make([]ansi.Line, rows-1)...)
	}
	return lines
}

// picturesOn reports whether the level can draw pictures.
func picturesOn(level ansi.Level) bool {
	return level == ansi.Color256 || level == ansi.TrueColor
}

// picture returns the lines that draw the picture for src within width
// cells, or nil when there is none to draw (no picture for src, a level
// without enough colors, or no room).
func (l *layouter) picture(src string, width int) []ansi.Line {
	if src == "" || width < 1 || !picturesOn(l.opt.Level) {
		return nil
	}
	p := l.opt.Images[src]
	if lines := l.pixels(p, width); lines != nil {
		return lines
	}
	if !p.valid() {
		return nil
	}
	if p.Cols > width {
		p = shrinkPicture(p, width)
	}
	lines := make([]ansi.Line, p.Rows)
	for r := range p.Rows {
		lines[r] = halfBlockRow(p.Cells[r*p.Cols : (r+1)*p.Cols])
	}
	return lines
}

// halfBlockRow draws a row of a picture's cells, a span for each run of
// equal cells.
func halfBlockRow(row []PictureCell) ansi.Line {
	var ln ansi.Line
	for c := 0; c < len(row); {
		n := 1
		for c+n < len(row) && row[c+n] == row[c] {
			n++
		}
		ln = append(ln, ansi.Span{Text: halfBlocks(n), Style: ansi.Style{FG: pictureColor(row[c].Top), BG: pictureColor(row[c].Bottom)}})
		c += n
	}
	return ln
}

// Picture draws the bundle-local image src at the component's width, or
// returns nil when the caller supplied no picture for it (the component
// then draws its text form).
func (c *Context) Picture(src string) []ansi.Line { return c.l.picture(src, c.Width) }

// standaloneImage draws a paragraph that is one image and nothing else
// (the usual way to place an image in markdown) as its picture followed
// by the image's text form. It returns nil for any other paragraph, or
// when the image has no picture to draw; an image inside running text
// always keeps its text form.
func (l *layouter) standaloneImage(p *Paragraph, width int) []ansi.Line {
	img := soleImage(p.Content)
	if img == nil {
		return nil
	}
	pic := l.picture(img.URL, l.imageCols(img, width))
	if pic == nil {
		return nil
	}
	return append(pic, l.paragraph(p.Content, ansi.Style{}, width)...)
}

// Cell size in CSS pixels, for an img's width and height: the usual
// terminal cell is about 8 pixels wide and 16 tall.
const (
	cellPixelsWide = 8
	cellPixelsTall = 16
)

// imageCols returns how many cells across img's picture may take within
// width: all of it, unless the img asked for a width (pixels, or a share
// of the page) or a height, which its picture keeps the aspect of.
func (l *layouter) imageCols(img *Image, width int) int {
	cols := width
	switch w := img.Width; {
	case w.Percent:
		cols = min(cols, max(1, width*w.N/100))
	case w.N > 0:
		cols = min(cols, max(1, (w.N+cellPixelsWide-1)/cellPixelsWide))
	}
	if h := img.Height; h.N > 0 && !h.Percent {
		rows := max(1, (h.N+cellPixelsTall-1)/cellPixelsTall)
		if p := l.opt.Images[img.URL]; p != nil && p.Rows > rows {
			cols = min(cols, max(1, p.Cols*rows/p.Rows))
		}
	}
	return cols
}

// imageNameWidth bounds the file name an image without alt text is
// labelled with, in cells.
const imageNameWidth = 40

// imageLabel is an image's text form: its alt text in brackets, or for an
// image without alt text a stand-in naming the file its address points at,
// `[image: shot.png]` (`[image]` when the address names no file).
func imageLabel(n *Image) string {
	if strings.TrimSpace(n.Alt) != "" {
		return "[" + n.Alt + "]"
	}
	if name := imageFileName(n.URL); name != "" {
		return "[image: " + name + "]"
	}
	return "[image]"
}

// imageFileName returns the last segment of src's path, decoded,
// sanitized and at most imageNameWidth cells, or "" when there is none.
func imageFileName(src string) string {
	u, err := url.Parse(src)
	if err != nil || u.Path == "" {
		return ""
	}
	name := path.Base(u.Path)
	if name == "." || name == "/" {
		return ""
	}
	name = strings.TrimSpace(sanitize.Visible(name))
	return truncate(name, imageNameWidth)
}

// soleImage returns the image a paragraph (or a link's text) consists of,
// or nil.
func soleImage(content []Inline) *Image {
	var img *Image
	for _, n := range content {
		switch n := n.(type) {
		case *Image:
			if img != nil {
				return nil
			}
			img = n
		case *Text:
			if !isBlankText(n.Text) {
				return nil
			}
		case *SoftBreak:
		default:
			return nil
		}
	}
	return img
}

func isBlankText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			return false
		}
	}
	return true
}

// PictureSources returns the image sources, as written, that layout may
// draw as pictures: every `figure` directive's src and every image that
// stands alone in a paragraph, each once, in document order. The caller
// decodes these (and only these) for Options.Images.
func PictureSources(doc *Document) []string {
	if doc == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(src string) {
		if src != "" && !seen[src] {
			seen[src] = true
			out = append(out, src)
		}
	}
	for n := range Nodes(doc.Blocks) {
		switch n := n.(type) {
		case *Paragraph:
			if img := soleImage(n.Content); img != nil {
				add(img.URL)
			}
		case *Directive:
			if n.Name == "figure" {
				if src, ok := n.Attrs.Get("src"); ok {
					add(src)
				}
			}
		}
	}
	return out
}

// halfBlockRun is sliced for runs of equal cells.
const halfBlockRun = "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀"

// halfBlocks returns n upper half blocks.
func halfBlocks(n int) string {
	const size = len("▀")
	if n*size <= len(halfBlockRun) {
		return halfBlockRun[:n*size]
	}
	b := make([]byte, 0, n*size)
	for range n {
		b = append(b, halfBlockRun[:size]...)
	}
	return string(b)
}

// pictureColor is an ansi color for a pixel.
func pictureColor(c RGB) ansi.Color {
	return ansi.Color{R: c.R, G: c.G, B: c.B, Set: true}
}

// shrinkPicture box-filters p down to cols cells across, keeping its
// aspect (two pixels per cell row).
func shrinkPicture(p *Picture, cols int) *Picture {
	w, h := p.Cols, p.Rows*2
	px := func(x, y int) RGB {
		c := p.Cells[(y/2)*p.Cols+x]
		if y%2 == 0 {
			return c.Top
		}
		return c.Bottom
	}
	pxRows := max(2, h*cols/w)
	if pxRows%2 == 1 {
		pxRows++
	}
	out := &Picture{Cols: cols, Rows: pxRows / 2, Cells: make([]PictureCell, cols*pxRows/2)}
	sample := func(x, y int) RGB {
		y0, y1 := y*h/pxRows, max((y+1)*h/pxRows, y*h/pxRows+1)
		x0, x1 := x*w/cols, max((x+1)*w/cols, x*w/cols+1)
		var r, g, b, n int
		for py := y0; py < min(y1, h); py++ {
			for qx := x0; qx < min(x1, w); qx++ {
				c := px(qx, py)
				r, g, b, n = r+int(c.R), g+int(c.G), b+int(c.B), n+1
			}
		}
		if n == 0 {
			return px(min(x0, w-1), min(y0, h-1))
		}
		return RGB{uint8(r / n), uint8(g / n), uint8(b / n)}
	}
	for y := range out.Rows {
		for x := range cols {
			out.Cells[y*cols+x] = PictureCell{Top: sample(x, 2*y), Bottom: sample(x, 2*y+1)}
		}
	}
	return out
}
