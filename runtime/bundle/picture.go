package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // GIF decoder for bundle-local images
	_ "image/jpeg" // JPEG decoder for bundle-local images
	_ "image/png"  // PNG decoder for bundle-local images
)

// Image caps: an image is decoded only after its header shows it within
// these, so a small file cannot ask for a huge canvas.
const (
	MaxImageBytes  = 16 << 20
	MaxImageSide   = 8192
	MaxImagePixels = 16 << 20
)

// Picture is an image reduced to terminal cells for half-block drawing:
// each cell shows two pixels, Top (the glyph) over Bottom (the
// background). It is plain data; the renderer decides how to draw it.
type Picture struct {
	// Cols and Rows are the size in cells.
	Cols, Rows int
	// Cells holds Rows*Cols cells, row by row.
	Cells []Cell
}

// RGB is an opaque color.
type RGB struct{ R, G, B uint8 }

// Cell is one terminal cell of a Picture.
type Cell struct{ Top, Bottom RGB }

// ErrNotImage is returned for a file that is not a PNG, JPEG or GIF.
var ErrNotImage = errors.New("it is not a PNG, JPEG or GIF image")

// Picture decodes a bundle-local PNG, JPEG or GIF named by the document
// and scales it to at most maxCols by maxRows cells (keeping its aspect,
// pixels square, never enlarged). Transparent pixels are blended onto
// background. The header is checked against the caps before the image is
// decoded.
func (b *Bundle) Picture(src string, maxCols, maxRows int, background RGB) (*Picture, error) {
	data, err := b.File(src)
	if err != nil {
		return nil, err
	}
	return DecodePicture(data, maxCols, maxRows, background)
}

// DecodePicture is Picture over image bytes.
func DecodePicture(data []byte, maxCols, maxRows int, background RGB) (*Picture, error) {
	if maxCols < 1 || maxRows < 1 {
		return nil, errors.New("there is no room to draw an image")
	}
	if len(data) > MaxImageBytes {
		return nil, fmt.Errorf("the image is %d bytes, over the %s limit", len(data), mib(MaxImageBytes))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg" && format != "gif") {
		return nil, ErrNotImage
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide || cfg.Width*cfg.Height > MaxImagePixels {
		return nil, fmt.Errorf("the image is %d×%d pixels, over the %d×%d limit", cfg.Width, cfg.Height, MaxImageSide, MaxImageSide)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the image is damaged (%s)", format)
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if w != cfg.Width || h != cfg.Height {
		return nil, errors.New("the image's size does not match its header")
	}
	cols := min(w, maxCols)
	pxRows := max(1, h*cols/w)
	if pxRows > 2*maxRows {
		pxRows = 2 * maxRows
		cols = max(1, min(cols, w*pxRows/h))
	}
	if pxRows%2 == 1 {
		pxRows++
	}
	pixels := scale(img, cols, pxRows, background)
	p := &Picture{Cols: cols, Rows: pxRows / 2, Cells: make([]Cell, cols*pxRows/2)}
	for r := 0; r < p.Rows; r++ {
		for c := 0; c < cols; c++ {
			p.Cells[r*cols+c] = Cell{Top: pixels[(2*r)*cols+c], Bottom: pixels[(2*r+1)*cols+c]}
		}
	}
	return p, nil
}

// scale box-filters img to cols×rows opaque pixels.
func scale(img image.Image, cols, rows int, bg RGB) []RGB {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]RGB, cols*rows)
	for y := 0; y < rows; y++ {
		y0, y1 := b.Min.Y+y*h/rows, b.Min.Y+max((y+1)*h/rows, y*h/rows+1)
		for x := 0; x < cols; x++ {
			x0, x1 := b.Min.X+x*w/cols, b.Min.X+max((x+1)*w/cols, x*w/cols+1)
			var r, g, bl, n uint64
			for py := y0; py < min(y1, b.Max.Y); py++ {
				for px := x0; px < min(x1, b.Max.X); px++ {
					c := color.NRGBA64Model.Convert(img.At(px, py)).(color.NRGBA64)
					a := uint64(c.A)
					r += (uint64(c.R)*a + uint64(bg.R)*257*(0xffff-a)) / 0xffff
					g += (uint64(c.G)*a + uint64(bg.G)*257*(0xffff-a)) / 0xffff
					bl += (uint64(c.B)*a + uint64(bg.B)*257*(0xffff-a)) / 0xffff
					n++
				}
			}
			if n > 0 {
				out[y*cols+x] = RGB{uint8(r / n >> 8), uint8(g / n >> 8), uint8(bl / n >> 8)}
			} else {
				out[y*cols+x] = bg
			}
		}
	}
	return out
}
