package viewer

import (
	"sort"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
)

// row is one visible row of the reader: a page line, or the marker of a
// folded section (fold >= 0 is the section's heading index).
type row struct {
	line int32
	fold int32
}

// section is the span of lines a heading folds.
type section struct {
	// line is the heading's first line; body its first hidden line; end
	// one past its last hidden line.
	line, body, end int
	level           int
}

// target is something focus mode can land on: a tabs or details block
// (widget) or a link.
type target struct {
	kind      render.FocusKind
	id        render.BlockID
	line, end int
	label     string
	url       string
	// open is whether a details block was laid out open.
	open bool
	// ranges are where a link is drawn; mark and title are where a
	// block's focus mark goes and its title is.
	ranges      []render.Range
	mark, title render.Range
	// hidden is the text of the block's inactive panels or closed body.
	hidden []render.HiddenPanel
	// panels are a tabs block's panel labels.
	panels []string
}

// page is the laid-out note and what the reader derives from it.
type page struct {
	// src is the document the page shows; doc its parsed tree, kept only
	// for notes up to keepTreeUpTo bytes.
	src []byte
	doc *render.Document
	// scripts counts the note's runnable scripts.
	scripts int
	opt     render.Options
	live    render.LiveState
	// memory is told when a layout starts and ends; nil for none.
	memory MemoryTuner
	// laid is the laid-out page; its lines are held packed in text.
	laid     *render.Page
	text     *ansi.PackedLines
	sections []section
	folded   map[int]bool
	rows     []row
	// targets are the page's focusable blocks and links in page order.
	targets []targetRef
}

// targetRef is one of a page's targets: a link (an index into the
// page's Links) or a tabs or details block (an index into its
// Focusables). A long note has tens of thousands of links, so the
// page holds this much for each and makes a target when it is used.
type targetRef struct {
	link bool
	i    int32
}

func newPage(src []byte, opt render.Options, memory MemoryTuner) *page {
	p := &page{
		src:    src,
		opt:    opt,
		memory: memory,
		folded: map[int]bool{},
		live: render.LiveState{
			Focus:     -1,
			ActiveTab: map[render.BlockID]int{},
			Open:      map[render.BlockID]bool{},
			Folded:    map[render.BlockID]bool{},
		},
	}
	p.layout()
	return p
}

// layout lays the note out again with the current width and live state.
// The viewer keeps the page for as long as the note is open, so it is
// laid out packed (render.Packer), and a frame draws its few lines from
// that. The note is parsed in pieces, each laid out as it comes, so that
// neither the parser's tree of the whole note nor the page's spans are
// ever resident; only a short note's tree is kept, for the next layout.
func (p *page) layout() {
	if p.memory != nil {
		defer p.memory.Layout()()
	}
	opt := p.opt
	opt.Live = &p.live
	keys := p.foldKeys()
	pk := render.NewPacker(opt)
	if p.doc != nil {
		pk.Add(p.doc)
	} else {
		var whole *render.Document
		if len(p.src) <= keepTreeUpTo {
			whole = &render.Document{}
		}
		p.scripts = 0
		// Laying out never fails, so neither does the parse.
		_ = render.ParseChunks(p.src, func(doc *render.Document) error {
			p.scripts += len(doc.Scripts)
			pk.Add(doc)
			if whole != nil {
				// The pieces together are the note's tree.
				whole.Blocks = append(whole.Blocks, doc.Blocks...)
				whole.Scripts = append(whole.Scripts, doc.Scripts...)
				whole.Flattened = whole.Flattened || doc.Flattened
				if doc.Frontmatter != nil {
					whole.Frontmatter = doc.Frontmatter
				}
			}
			return nil
		})
		p.doc = whole
	}
	p.laid = pk.Page()
	p.text = p.laid.Packed
	p.sections = sections(p.laid.Headings, p.text)
	p.refold(keys)
	p.targets = targets(p.laid)
	p.buildRows()
}

// lineCount returns the number of page lines.
func (p *page) lineCount() int { return p.text.Len() }

// line returns page line i in storage the caller may change.
func (p *page) line(i int) ansi.Line { return p.text.Line(i) }

// lineText returns page line i's visible text.
func (p *page) lineText(i int) string { return p.text.Text(i) }

// foldKey names a heading across layouts: a tab switch can add or remove
// headings before it, so its index alone would fold the wrong section.
type foldKey struct {
	level int
	text  string
	nth   int
}

// headingKeys names every heading of the current page.
func (p *page) headingKeys() []foldKey {
	if p.laid == nil {
		return nil
	}
	seen := map[foldKey]int{}
	out := make([]foldKey, len(p.laid.Headings))
	for i, h := range p.laid.Headings {
		k := foldKey{level: h.Level, text: h.Text}
		k.nth = seen[k]
		seen[k]++
		out[i] = k
	}
	return out
}

// foldKeys names the folded headings.
func (p *page) foldKeys() map[foldKey]bool {
	if len(p.folded) == 0 {
		return nil
	}
	keys := p.headingKeys()
	out := map[foldKey]bool{}
	for i := range p.folded {
		if i < len(keys) {
			out[keys[i]] = true
		}
	}
	return out
}

// refold folds the headings named in keys on the new page.
func (p *page) refold(keys map[foldKey]bool) {
	clear(p.folded)
	if len(keys) == 0 {
		return
	}
	for i, k := range p.headingKeys() {
		if keys[k] {
			p.folded[i] = true
		}
	}
}

// sections finds the lines each heading folds: from the line after the
// heading's own lines (as layout reports them) to the next heading of
// the same or a higher level, without the blank lines before it.
func sections(hs []render.HeadingRef, lines *ansi.PackedLines) []section {
	out := make([]section, len(hs))
	n := lines.Len()
	for i, h := range hs {
		end := n
		for j := i + 1; j < len(hs); j++ {
			if hs[j].Level <= h.Level && hs[j].Line > h.Line {
				end = hs[j].Line
				break
			}
		}
		body := min(max(h.EndLine, h.Line+1), end)
		for end > body && lines.Empty(end-1) {
			end--
		}
		out[i] = section{line: h.Line, body: body, end: end, level: h.Level}
	}
	return out
}

// buildRows lists the visible rows with folded sections collapsed to a
// marker row.
func (p *page) buildRows() {
	n := p.lineCount()
	rows := p.rows[:0]
	if cap(rows) < n {
		rows = make([]row, 0, n)
	}
	hi := 0
	for ln := 0; ln < n; {
		for hi < len(p.sections) && p.sections[hi].line < ln {
			hi++
		}
		if hi < len(p.sections) && p.sections[hi].line == ln && p.folded[hi] && p.sections[hi].body < p.sections[hi].end {
			s := p.sections[hi]
			for k := ln; k < s.body; k++ {
				rows = append(rows, row{line: int32(k), fold: -1})
			}
			rows = append(rows, row{line: int32(s.body), fold: int32(hi)})
			ln = s.end
			continue
		}
		rows = append(rows, row{line: int32(ln), fold: -1})
		ln++
	}
	p.rows = rows
}

// rowOf returns the row that shows page line ln (the fold marker when ln
// is folded away).
func (p *page) rowOf(ln int) int {
	i := sort.Search(len(p.rows), func(i int) bool { return int(p.rows[i].line) > ln })
	return max(i-1, 0)
}

// lineOf returns the page line a row shows (a marker's first hidden line).
func (p *page) lineOf(r int) int {
	if len(p.rows) == 0 {
		return 0
	}
	r = max(0, min(r, len(p.rows)-1))
	return int(p.rows[r].line)
}

// sectionAt returns the index of the innermost section whose heading is
// at or above line ln and whose body reaches ln, or the nearest heading
// above; -1 when there is none.
func (p *page) sectionAt(ln int) int {
	best := -1
	for i, s := range p.sections {
		if s.line > ln {
			break
		}
		if ln < max(s.end, s.body) || best < 0 || p.sections[best].end <= ln {
			best = i
		}
	}
	return best
}

// unfoldLine unfolds every section that hides line ln.
func (p *page) unfoldLine(ln int) bool {
	changed := false
	for i, s := range p.sections {
		if p.folded[i] && ln >= s.body && ln < s.end {
			delete(p.folded, i)
			changed = true
		}
	}
	if changed {
		p.buildRows()
	}
	return changed
}

// targets lists the focusable blocks and links in page order (by line,
// then by where on it they start), as layout found them on the page.
func targets(pg *render.Page) []targetRef {
	fs, ls := pg.Focusables, &pg.Links
	out := make([]targetRef, 0, len(fs)+ls.Len())
	block, link := 0, 0
	for block < len(fs) || link < ls.Len() {
		if link < ls.Len() && (block == len(fs) || before(ls.Ranges(link)[0], fs[block])) {
			out = append(out, targetRef{link: true, i: int32(link)})
			link++
			continue
		}
		out = append(out, targetRef{i: int32(block)})
		block++
	}
	return out
}

// before reports whether a link that starts at r comes before block f.
func before(r render.Range, f render.Focusable) bool {
	if r.Line != f.Line {
		return r.Line < f.Line
	}
	return r.From < f.Mark.From
}

// target returns target i.
func (p *page) target(i int) target {
	ref := p.targets[i]
	if ref.link {
		ls := &p.laid.Links
		return target{kind: render.FocusLink, id: render.BlockID(ref.i), line: ls.Line(int(ref.i)), end: ls.EndLine(int(ref.i)),
			url: ls.URL(int(ref.i)), ranges: ls.Ranges(int(ref.i))}
	}
	f := &p.laid.Focusables[ref.i]
	return target{kind: f.Kind, id: f.ID, line: f.Line, end: f.EndLine, label: f.Label, open: f.Open,
		mark: f.Mark, title: f.Title, panels: f.Panels, hidden: f.Hidden}
}
