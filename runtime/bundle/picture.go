package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // GIF decoder for bundle-local images
	_ "image/jpeg" // JPEG decoder for bundle-local images
	"image/png"    // PNG decoder for bundle-local images, encoder for graphics protocols
	"slices"
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
	img, err := decodeImage(data)
	if err != nil {
		return nil, err
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
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

// decodeImage decodes a PNG, JPEG or GIF after checking its header
// against the caps.
func decodeImage(data []byte) (image.Image, error) {
	cfg, format, err := checkImageHeader(data)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the image is damaged (%s)", format)
	}
	if img.Bounds().Dx() != cfg.Width || img.Bounds().Dy() != cfg.Height {
		return nil, errors.New("the image's size does not match its header")
	}
	return img, nil
}

// imageFormats are the formats decodeImage reads.
var imageFormats = []string{"png", "jpeg", "gif"}

// checkImageHeader reads an image's header and checks its bytes, format
// and size against the caps before anything is decoded.
func checkImageHeader(data []byte) (image.Config, string, error) {
	if len(data) > MaxImageBytes {
		return image.Config{}, "", fmt.Errorf("the image is %d bytes, over the %s limit", len(data), mib(MaxImageBytes))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || !slices.Contains(imageFormats, format) {
		return image.Config{}, "", ErrNotImage
	}
	if !withinImageCaps(cfg.Width, cfg.Height) {
		return image.Config{}, "", fmt.Errorf("the image is %d×%d pixels, over the %d×%d limit", cfg.Width, cfg.Height, MaxImageSide, MaxImageSide)
	}
	return cfg, format, nil
}

// withinImageCaps reports whether a w×h image has both sides from 1 to
// MaxImageSide and at most MaxImagePixels pixels.
func withinImageCaps(w, h int) bool {
	return w >= 1 && h >= 1 && w <= MaxImageSide && h <= MaxImageSide && w*h <= MaxImagePixels
}

// Cell size in pixels assumed when an image is scaled for a terminal
// graphics protocol; the terminal scales the PNG to the cells it is given.
const (
	CellWidth  = 10
	CellHeight = 20
)

// Pixels is an image scaled for a terminal graphics protocol.
type Pixels struct {
	// PNG is the scaled, opaque image.
	PNG []byte
	// Cols and Rows are the cells it covers.
	Cols, Rows int
}

// DecodePixels decodes a PNG, JPEG or GIF like DecodePicture and scales it
// to at most maxCols×maxRows cells of CellWidth×CellHeight pixels (keeping
// its aspect, never enlarged), blended onto background and encoded as PNG.
func DecodePixels(data []byte, maxCols, maxRows int, background RGB) (*Pixels, error) {
	if maxCols < 1 || maxRows < 1 {
		return nil, errors.New("there is no room to draw an image")
	}
	img, err := decodeImage(data)
	if err != nil {
		return nil, err
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	pw := min(w, maxCols*CellWidth)
	ph := max(1, h*pw/w)
	if ph > maxRows*CellHeight {
		ph = maxRows * CellHeight
		pw = max(1, min(pw, w*ph/h))
	}
	px := scale(img, pw, ph, background)
	out := image.NewRGBA(image.Rect(0, 0, pw, ph))
	for i, c := range px {
		out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = c.R, c.G, c.B, 0xff
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, err
	}
	return &Pixels{PNG: buf.Bytes(), Cols: (pw + CellWidth - 1) / CellWidth, Rows: (ph + CellHeight - 1) / CellHeight}, nil
}

// scale box-filters img to cols×rows opaque pixels. The common image
// types the decoders return are read from their pixel slices; any other
// type through img.At. Both give the same pixels.
func scale(img image.Image, cols, rows int, bg RGB) []RGB {
	var sum rowSum
	switch m := img.(type) {
	case *image.RGBA:
		sum = sumRGBA(m)
	case *image.NRGBA:
		sum = sumNRGBA(m)
	case *image.Gray:
		sum = sumGray(m)
	case *image.YCbCr:
		sum = sumYCbCr(m)
	case *image.Paletted:
		sum = sumPaletted(m, bg)
	default:
		sum = sumAt(img)
	}
	return boxFilter(img.Bounds(), cols, rows, bg, sum)
}

// rowSum adds the pixels x0 to x1 of row py to acc.
type rowSum func(acc *pixelSum, x0, x1, py int)

func sumRGBA(m *image.RGBA) rowSum {
	return func(acc *pixelSum, x0, x1, py int) {
		pix := m.Pix[m.PixOffset(x0, py):m.PixOffset(x1, py)]
		for i := 0; i+3 < len(pix); i += 4 {
			acc.addPremultiplied(uint32(pix[i])*0x101, uint32(pix[i+1])*0x101, uint32(pix[i+2])*0x101, uint32(pix[i+3])*0x101)
		}
	}
}

func sumNRGBA(m *image.NRGBA) rowSum {
	return func(acc *pixelSum, x0, x1, py int) {
		pix := m.Pix[m.PixOffset(x0, py):m.PixOffset(x1, py)]
		for i := 0; i+3 < len(pix); i += 4 {
			// color.NRGBA.RGBA, inlined: premultiply at 16 bits.
			a := uint32(pix[i+3])
			acc.addPremultiplied(uint32(pix[i])*0x101*a/0xff, uint32(pix[i+1])*0x101*a/0xff, uint32(pix[i+2])*0x101*a/0xff, a*0x101)
		}
	}
}

func sumGray(m *image.Gray) rowSum {
	return func(acc *pixelSum, x0, x1, py int) {
		for _, y := range m.Pix[m.PixOffset(x0, py):m.PixOffset(x1, py)] {
			v := uint64(y) * 0x101
			acc.addOpaque(v, v, v)
		}
	}
}

func sumYCbCr(m *image.YCbCr) rowSum {
	return func(acc *pixelSum, x0, x1, py int) {
		yi := m.YOffset(x0, py)
		for px := x0; px < x1; px++ {
			ci := m.COffset(px, py)
			r, g, b, _ := color.YCbCr{Y: m.Y[yi], Cb: m.Cb[ci], Cr: m.Cr[ci]}.RGBA()
			acc.addOpaque(uint64(r), uint64(g), uint64(b))
			yi++
		}
	}
}

// sumPaletted blends each palette entry onto bg once; an index past the
// palette is read through At.
func sumPaletted(m *image.Paletted, bg RGB) rowSum {
	blended := make([][3]uint64, len(m.Palette))
	for i, c := range m.Palette {
		var one pixelSum
		one.bg = bg
		one.addColor(c)
		blended[i] = [3]uint64{one.r, one.g, one.b}
	}
	return func(acc *pixelSum, x0, x1, py int) {
		for i, idx := range m.Pix[m.PixOffset(x0, py):m.PixOffset(x1, py)] {
			if int(idx) >= len(blended) {
				acc.addColor(m.At(x0+i, py))
				continue
			}
			c := &blended[idx]
			acc.r, acc.g, acc.b, acc.n = acc.r+c[0], acc.g+c[1], acc.b+c[2], acc.n+1
		}
	}
}

func sumAt(img image.Image) rowSum {
	return func(acc *pixelSum, x0, x1, py int) {
		for px := x0; px < x1; px++ {
			acc.addColor(img.At(px, py))
		}
	}
}

// scaleAt is scale reading every pixel through img.At: the reference the
// fast paths are tested against.
func scaleAt(img image.Image, cols, rows int, bg RGB) []RGB {
	return boxFilter(img.Bounds(), cols, rows, bg, func(acc *pixelSum, x0, x1, py int) {
		for px := x0; px < x1; px++ {
			acc.addColor(img.At(px, py))
		}
	})
}

// boxFilter averages, for each of cols×rows output pixels, the source
// pixels of its box within b; sum adds the pixels [x0, x1) of row py.
func boxFilter(b image.Rectangle, cols, rows int, bg RGB, sum rowSum) []RGB {
	w, h := b.Dx(), b.Dy()
	out := make([]RGB, cols*rows)
	for y := 0; y < rows; y++ {
		y0, y1 := b.Min.Y+y*h/rows, b.Min.Y+max((y+1)*h/rows, y*h/rows+1)
		for x := 0; x < cols; x++ {
			x0, x1 := b.Min.X+x*w/cols, b.Min.X+max((x+1)*w/cols, x*w/cols+1)
			acc := pixelSum{bg: bg}
			for py := y0; py < min(y1, b.Max.Y); py++ {
				sum(&acc, x0, min(x1, b.Max.X), py)
			}
			if acc.n > 0 {
				out[y*cols+x] = RGB{uint8(acc.r / acc.n >> 8), uint8(acc.g / acc.n >> 8), uint8(acc.b / acc.n >> 8)}
			} else {
				out[y*cols+x] = bg
			}
		}
	}
	return out
}

// pixelSum adds up 16-bit channels of pixels blended onto bg.
type pixelSum struct {
	r, g, b, n uint64
	bg         RGB
}

// addColor adds any color.
func (s *pixelSum) addColor(c color.Color) {
	r, g, b, a := c.RGBA()
	s.addPremultiplied(r, g, b, a)
}

// addPremultiplied adds a pixel given as color.Color.RGBA returns it:
// converted to non-premultiplied 16-bit channels exactly as
// color.NRGBA64Model does, then blended onto the background.
func (s *pixelSum) addPremultiplied(r, g, b, a uint32) {
	switch a {
	case 0xffff:
		s.addOpaque(uint64(r), uint64(g), uint64(b))
		return
	case 0:
		r, g, b = 0, 0, 0
	default:
		r, g, b = r*0xffff/a, g*0xffff/a, b*0xffff/a
	}
	a64 := uint64(a)
	s.r += (uint64(r)*a64 + uint64(s.bg.R)*257*(0xffff-a64)) / 0xffff
	s.g += (uint64(g)*a64 + uint64(s.bg.G)*257*(0xffff-a64)) / 0xffff
	s.b += (uint64(b)*a64 + uint64(s.bg.B)*257*(0xffff-a64)) / 0xffff
	s.n++
}

// addOpaque adds an opaque pixel's 16-bit channels.
func (s *pixelSum) addOpaque(r, g, b uint64) {
	s.r, s.g, s.b, s.n = s.r+r, s.g+g, s.b+b, s.n+1
}
