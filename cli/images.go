package cli

import (
	"bytes"
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
	"github.com/markii/markii/runtime/pack"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/viewer"
)

// Pictures are decoded once, to at most this many cells; layout shrinks
// them to the width it has. The viewer decodes at viewPictureCols so a
// wider window can still show more of a large image.
const (
	maxPictureRows  = 60
	viewPictureCols = 240
)

// imageExtensions are the file names a picture source may end in (any
// letter case); the bytes must also be a PNG, JPEG or GIF.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".gif"}

// loadPictures decodes the pictures of srcs (render.PictureSources):
// only sources that name a local file with an image extension, read from
// the bundle through its path jail, or for a plain note from the note's
// own folder tree through the same jail. Remote sources are never read.
// Each image is checked against the size caps before it is decoded. It
// returns the pictures by source as written, and one diagnostic per
// image that was refused.
func loadPictures(n *note, srcs []string, cols int, th theme.Theme, proto ansi.ImageProtocol) (map[string]*render.Picture, []string) {
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
		if !localImageSource(src) {
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

// localImageSource reports whether src may name a local image file: it
// has an image extension and no URL scheme (so `https://…`, `//host/…`
// and `data:` are never read). The path jail judges everything else.
func localImageSource(src string) bool {
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
func decodeLocalPicture(n *note, src string, cols int, bg bundle.RGB, proto ansi.ImageProtocol) (*render.Picture, error) {
	data, err := readLocalImage(n, src)
	if err != nil || data == nil {
		return nil, err
	}
	if proto != ansi.NoImageProtocol {
		px, err := bundle.DecodePixels(data, cols, maxPictureRows, bg)
		if err != nil {
			return nil, err
		}
		return &render.Picture{Cols: px.Cols, Rows: px.Rows, PNG: px.PNG}, nil
	}
	p, err := bundle.DecodePicture(data, cols, maxPictureRows, bg)
	if err != nil {
		return nil, err
	}
	return toRenderPicture(p), nil
}

// imageChoices are the values of --images: text only, half-block cells,
// or real pixels through the kitty or iTerm2 protocol.
var imageChoices = []string{"off", "blocks", "kitty", "iterm"}

// imageMode is a --images value: whether pictures are drawn, and through
// which protocol.
type imageMode struct {
	on    bool
	proto ansi.ImageProtocol
}

// imageModeOf is the mode an --images value names.
func imageModeOf(v string) imageMode {
	switch v {
	case "blocks":
		return imageMode{on: true}
	case "kitty":
		return imageMode{on: true, proto: ansi.Kitty}
	case "iterm":
		return imageMode{on: true, proto: ansi.ITerm2}
	}
	return imageMode{}
}

// readLocalImage reads the bytes of one local image: from the bundle
// through its path jail, or for a plain note from the note's own folder
// tree through the same jail. A note from stdin has no folder, so it
// gives nil and no error.
func readLocalImage(n *note, src string) ([]byte, error) {
	if n.Bundle != nil {
		return n.Bundle.File(src)
	}
	if n.Path == "" {
		return nil, nil
	}
	return readBesideNote(filepath.Dir(n.Path), src)
}

// localImages reads the images doc names that are local files with an
// image extension, by source as written, for the HTML export to embed;
// remote sources are never read. It returns one diagnostic per image
// that could not be read.
func localImages(n *note, doc *render.Document) (map[string][]byte, []string) {
	images := map[string][]byte{}
	var diags []string
	for _, src := range render.PictureSources(doc) {
		if !localImageSource(src) {
			continue
		}
		data, err := readLocalImage(n, src)
		if err != nil {
			diags = append(diags, fmt.Sprintf("image %s was not embedded: %s", sanitize.Inline(src), sanitize.Line(err.Error())))
			continue
		}
		if data != nil {
			images[src] = data
		}
	}
	return images, diags
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
		return nil, errors.New(osReason(err))
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(clean))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("there is no file %s next to the note", clean)
		}
		return nil, errors.New(osReason(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, errors.New(osReason(err))
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("it is not a regular file")
	}
	if info.Size() > bundle.MaxImageBytes {
		return nil, fmt.Errorf("the image is %d bytes, over the %d MiB limit", info.Size(), bundle.MaxImageBytes>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, bundle.MaxImageBytes+1))
	if err != nil {
		return nil, errors.New(osReason(err))
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

// installedPacks returns the packs installed from the user's config's
// pack folders, by name with their engine, for render.Options.Packs. A
// config that cannot be read gives no packs and a warning; packs that
// fail to load are left out, each with a warning.
func (c *invocation) installedPacks() (map[string]string, []string) {
	folders, err := c.packFolders()
	if err != nil {
		return nil, []string{fmt.Sprintf("installed packs are not known for this note: %s", sanitize.Line(err.Error()))}
	}
	if len(folders) == 0 {
		return nil, nil
	}
	set := pack.Load(folders)
	out := map[string]string{}
	for _, name := range set.Names() {
		if p, ok := set.Get(name); ok {
			out[name] = p.Engine
		}
	}
	return out, packWarnings(set)
}

// packWarnings are set's problems as display-safe lines.
func packWarnings(set *pack.Set) []string {
	var out []string
	for _, p := range set.Problems {
		out = append(out, sanitize.Line(p.String()))
	}
	return out
}

// noteExtras fills what opt needs from outside the document: the
// installed packs, and when images are on and the level has 256 colors or
// more, the pictures doc draws, decoded to at most cols cells across, and
// the protocol that shows them. It returns the diagnostics to show with
// the render's own.
func (c *invocation) noteExtras(opt *render.Options, n *note, doc *render.Document, images imageMode, cols int) []string {
	var diags []string
	if namesPacks(doc) {
		opt.Packs, diags = c.installedPacks()
	}
	if images.on && (opt.Level == ansi.Color256 || opt.Level == ansi.TrueColor) {
		var imageDiags []string
		opt.Images, imageDiags = loadPictures(n, render.PictureSources(doc), cols, opt.Theme, images.proto)
		opt.ImageProtocol = images.proto
		diags = append(diags, imageDiags...)
	}
	return diags
}

// viewPictures gives the viewer's notes their pictures: on by default in
// the full-screen viewer at 256 colors or truecolor (--images off turns
// it off), for the note opened, a reload, and a followed link alike.
type viewPictures struct {
	c     *invocation
	on    bool
	level ansi.Level
	theme theme.Theme
}

// add gives vn the decoder of its pictures (viewer.Note.Pictures), which
// the viewer calls in the background once its first frame is out: finding
// them takes a parse of the whole note, seconds for a long one.
func (v viewPictures) add(vn *viewer.Note, n *note) {
	if !v.on || (v.level != ansi.Color256 && v.level != ansi.TrueColor) {
		return
	}
	src := vn.Source
	vn.Pictures = func() (map[string]*render.Picture, []string) {
		if !bytes.Contains(src, []byte("![")) && !bytes.Contains(src, []byte("figure")) {
			return nil, nil
		}
		return loadPictures(n, pictureSources(src), viewPictureCols, v.theme, ansi.NoImageProtocol)
	}
}

// pictureSources is render.PictureSources of the whole note, parsed a
// piece at a time (render.ParseChunks) so that the tree of a long note is
// never in memory at once.
func pictureSources(src []byte) []string {
	var out []string
	seen := map[string]bool{}
	_ = render.ParseChunks(src, func(doc *render.Document) error {
		for _, s := range render.PictureSources(doc) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return nil
	})
	return out
}

// load is loadViewerNote with the note's pictures.
func (v viewPictures) load(path string) (*viewer.Note, error) {
	n, err := loadNote(filepath.Clean(path), nil)
	if err != nil {
		return nil, fmt.Errorf("%s", sanitize.Line(err.Error()))
	}
	vn := v.c.viewerNote(n)
	// A reload or a followed link is laid out at once, so its pictures
	// are decoded now.
	v.add(vn, n)
	if vn.Pictures != nil {
		var diags []string
		vn.Images, diags = vn.Pictures()
		vn.Pictures = nil
		vn.Diagnostics = append(vn.Diagnostics, diags...)
	}
	return vn, nil
}

// namesPacks reports whether doc could show anything about packs: its
// frontmatter `uses:` a pack, or a directive has a pack component's name
// (`pack_component`). Other notes never read the pack folders.
func namesPacks(doc *render.Document) bool {
	if doc == nil {
		return false
	}
	if doc.Frontmatter != nil && len(doc.Frontmatter.Uses) > 0 {
		return true
	}
	isPack := func(name string) bool {
		_, _, ok := pack.SplitDirective(name)
		return ok
	}
	for n := range render.Nodes(doc.Blocks) {
		switch n := n.(type) {
		case *render.Directive:
			if isPack(n.Name) {
				return true
			}
		case *render.InlineDirective:
			if isPack(n.Name) {
				return true
			}
		}
	}
	return false
}
