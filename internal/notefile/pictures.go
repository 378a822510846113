package notefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
)

// MaxPictureRows caps a decoded picture's height in cells; layout shrinks
// pictures to the width it has.
const MaxPictureRows = 60

// imageExtensions are the file names a picture source may end in (any
// letter case); the bytes must also be a PNG, JPEG or GIF.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".gif"}

// ImageModes are the names of the image modes: text only, half-block
// cells, or real pixels through the kitty or iTerm2 protocol.
var ImageModes = []string{"off", "blocks", "kitty", "iterm"}

// ImageMode is whether pictures are drawn, and through which protocol
// (ansi.NoImageProtocol for half-block cells).
type ImageMode struct {
	On    bool
	Proto ansi.ImageProtocol
}

// ParseImageMode is the mode one of ImageModes names; it reports false
// (and the mode "off") for any other name.
func ParseImageMode(v string) (ImageMode, bool) {
	switch v {
	case "off":
		return ImageMode{}, true
	case "blocks":
		return ImageMode{On: true}, true
	case "kitty":
		return ImageMode{On: true, Proto: ansi.Kitty}, true
	case "iterm":
		return ImageMode{On: true, Proto: ansi.ITerm2}, true
	}
	return ImageMode{}, false
}

// AddPictures sets opt.Images and opt.ImageProtocol when mode is on and
// opt.Level has 256 colors or more: the pictures doc draws, decoded to at
// most cols cells across (LoadPictures). It returns one diagnostic per
// image that was refused.
func AddPictures(opt *render.Options, n *Note, doc *render.Document, mode ImageMode, cols int) []string {
	if !mode.On || (opt.Level != ansi.Color256 && opt.Level != ansi.TrueColor) {
		return nil
	}
	var diags []string
	opt.Images, diags = LoadPictures(n, render.PictureSources(doc), cols, opt.Theme, mode.Proto)
	opt.ImageProtocol = mode.Proto
	return diags
}

// LoadPictures decodes the pictures of srcs (render.PictureSources):
// only sources that name a local file with an image extension, read from
// the bundle through its path jail, or for a plain note from the note's
// own folder tree through the same jail. Remote sources are never read.
// Each image is checked against the size caps before it is decoded. It
// returns the pictures by source as written, and one diagnostic per
// image that was refused.
func LoadPictures(n *Note, srcs []string, cols int, th theme.Theme, proto ansi.ImageProtocol) (map[string]*render.Picture, []string) {
	if len(srcs) == 0 {
		return nil, nil
	}
	bg := bundle.RGB{}
	if !th.IsDark() {
		bg = bundle.RGB{R: 255, G: 255, B: 255}
	}
	pics := map[string]*render.Picture{}
	var diags []string
	for _, src := range srcs {
		if !LocalImageSource(src) {
			continue
		}
		p, err := decodeLocalPicture(n, src, cols, bg, proto)
		if err != nil {
			diags = append(diags, fmt.Sprintf("image %s was not drawn: %s", sanitize.Inline(src), sanitize.Line(err.Error())))
			continue
		}
		if p != nil {
			pics[src] = p
		}
	}
	return pics, diags
}

// LocalImageSource reports whether src may name a local image file: it
// has an image extension and no URL scheme (so `https://…`, `//host/…`
// and `data:` are never read). The path jail judges everything else.
func LocalImageSource(src string) bool {
	if strings.Contains(src, ":") || strings.HasPrefix(src, "//") {
		return false
	}
	lower := strings.ToLower(src)
	for _, ext := range imageExtensions {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// decodeLocalPicture reads and decodes one local image: as half-block
// cells, or as a PNG for the graphics protocol proto. A note from stdin
// has no folder, so it gives nil and no error.
func decodeLocalPicture(n *Note, src string, cols int, bg bundle.RGB, proto ansi.ImageProtocol) (*render.Picture, error) {
	data, err := ReadLocalImage(n, src)
	if err != nil || data == nil {
		return nil, err
	}
	if proto != ansi.NoImageProtocol {
		px, err := bundle.DecodePixels(data, cols, MaxPictureRows, bg)
		if err != nil {
			return nil, err
		}
		return &render.Picture{Cols: px.Cols, Rows: px.Rows, PNG: px.PNG}, nil
	}
	p, err := bundle.DecodePicture(data, cols, MaxPictureRows, bg)
	if err != nil {
		return nil, err
	}
	return toRenderPicture(p), nil
}

// ReadLocalImage reads the bytes of one local image: from the bundle
// through its path jail, or for a plain note from the note's own folder
// tree through the same jail. A note from stdin has no folder, so it
// gives nil and no error.
func ReadLocalImage(n *Note, src string) ([]byte, error) {
	if n.Bundle != nil {
		return n.Bundle.File(src)
	}
	if n.Path == "" {
		return nil, nil
	}
	return readBesideNote(filepath.Dir(n.Path), src)
}

// readBesideNote reads the file src names inside dir, the folder of a
// plain note: the path passes the bundle jail (no absolute paths, no
// "..", no backslashes), it is opened through an os.Root so no symlink
// leads out of dir, it must be a regular file, and its size is checked
// before it is read.
func readBesideNote(dir, src string) ([]byte, error) {
	clean, err := bundle.CleanPath(src)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, errors.New(OSReason(err))
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(clean))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("there is no file %s next to the note", clean)
		}
		return nil, errors.New(OSReason(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, errors.New(OSReason(err))
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("it is not a regular file")
	}
	if info.Size() > bundle.MaxImageBytes {
		return nil, fmt.Errorf("the image is %d bytes, over the %d MiB limit", info.Size(), bundle.MaxImageBytes>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, bundle.MaxImageBytes+1))
	if err != nil {
		return nil, errors.New(OSReason(err))
	}
	if len(data) > bundle.MaxImageBytes {
		return nil, fmt.Errorf("the image grew over the %d MiB limit while being read", bundle.MaxImageBytes>>20)
	}
	return data, nil
}

// toRenderPicture copies a decoded picture into the renderer's plain form.
func toRenderPicture(p *bundle.Picture) *render.Picture {
	out := &render.Picture{Cols: p.Cols, Rows: p.Rows, Cells: make([]render.PictureCell, len(p.Cells))}
	for i, c := range p.Cells {
		out.Cells[i] = render.PictureCell{
			Top:    render.RGB{R: c.Top.R, G: c.Top.G, B: c.Top.B},
			Bottom: render.RGB{R: c.Bottom.R, G: c.Bottom.G, B: c.Bottom.B},
		}
	}
	return out
}
