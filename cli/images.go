package cli

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/pack"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/viewer"
)

// The viewer decodes pictures at viewPictureCols so a wider window can
// still show more of a large image.
const viewPictureCols = 240

// imageChoices are the values of --images (notefile.ImageModes).
var imageChoices = notefile.ImageModes

// imageMode is an --images value: whether pictures are drawn, and through
// which protocol.
type imageMode = notefile.ImageMode

// imageModeOf is the mode an --images value names (the flag has already
// checked it is one of imageChoices).
func imageModeOf(v string) imageMode {
	m, _ := notefile.ParseImageMode(v)
	return m
}

// localImages reads the images doc names that are local files with an
// image extension, by source as written, for the HTML export to embed;
// remote sources are never read. It returns one diagnostic per image
// that could not be read.
func localImages(n *note, doc *render.Document) (map[string][]byte, []string) {
	images := map[string][]byte{}
	var diags []string
	for _, src := range render.PictureSources(doc) {
		if !notefile.LocalImageSource(src) {
			continue
		}
		data, err := notefile.ReadLocalImage(n, src)
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
	diags = append(diags, notefile.AddPictures(opt, n, doc, images, cols)...)
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
		return notefile.LoadPictures(n, pictureSources(src), viewPictureCols, v.theme, ansi.NoImageProtocol)
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
