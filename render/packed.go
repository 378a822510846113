package render

import (
	"strings"

	"github.com/markii/markii/ansi"
)

// Packer lays out a note, whole or in pieces (see ParseChunks), into a
// page that holds its lines packed (Page.Packed) rather than as spans:
// each top-level block's lines are packed as soon as they are final, so
// neither the whole page's spans nor, when the note comes in pieces, its
// whole parse tree are ever resident at once. A long page is laid out in
// about the memory it is then kept in. The lines are those Layout lays
// out for the document the pieces make up, and so are the headings and
// focusables.
type Packer struct {
	l       *layouter
	packed  *ansi.PackedLines
	started bool
	noticed bool
}

// NewPacker returns a Packer that lays out at opt.
func NewPacker(opt Options) *Packer {
	if opt.Width < 1 {
		opt.Width = 1
	}
	l := newLayouter(opt)
	return &Packer{l: l, packed: new(ansi.PackedLines)}
}

// Add lays out the next piece of the note; the first piece carries the
// frontmatter. It keeps nothing of doc.
func (p *Packer) Add(doc *Document) {
	l := p.l
	if !p.noticed {
		p.noticed = true
		l.packNotice(doc)
	}
	for _, b := range doc.Blocks {
		// Every line made so far is packed, so the span storage is
		// drawn from again.
		l.mem.reset()
		m := l.mark()
		lines := l.block(b, l.opt.Width)
		if len(lines) == 0 {
			continue
		}
		if p.started {
			p.packed.Append(nil)
		}
		p.started = true
		first := p.packed.Len()
		l.shift(m, first)
		l.placeTargetsOn(lines, first)
		l.forgetTargets()
		p.packed.Append(lines...)
		p.keepNoSource(m)
	}
}

// keepNoSource copies the text of the headings and focusables recorded
// since m, which may be cut from the note's source, so that the page
// does not keep the source alive (Links copy their addresses).
func (p *Packer) keepNoSource(m marks) {
	pg := p.l.page
	for i := m.h; i < len(pg.Headings); i++ {
		pg.Headings[i].Text = strings.Clone(pg.Headings[i].Text)
	}
	for i := m.f; i < len(pg.Focusables); i++ {
		f := &pg.Focusables[i]
		f.Label = strings.Clone(f.Label)
		for j := range f.Panels {
			f.Panels[j] = strings.Clone(f.Panels[j])
		}
		for _, h := range f.Hidden {
			for j := range h.Lines {
				h.Lines[j] = strings.Clone(h.Lines[j])
			}
		}
	}
}

// Page finishes the layout and returns the page; the Packer is done.
func (p *Packer) Page() *Page {
	p.l.finishTargets()
	p.packed.Clip()
	p.l.page.Packed = p.packed
	return p.l.page
}
