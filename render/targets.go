package render

import (
	"sort"

	"github.com/markii/markii/ansi"
)

// placeTargets reads, from the finished page, where every target was
// drawn: each link becomes a Focusable with a range per line it covers,
// and each live block's gutter and title get their ranges. It runs once
// the lines are final, so container prefixes, box borders and wrapping
// are already in place, and only spans layout tagged are ever a target:
// text that merely reads like a link is not one.
func (l *layouter) placeTargets() {
	l.placeTargetsOn(l.page.Lines, 0)
	l.finishTargets()
}

// targetPlaces is what placeTargetsOn has found so far on a page that is
// placed a run of lines at a time.
type targetPlaces struct {
	// parts maps the target of a block's gutter or title to the block
	// (its index in the page's focusables) and which of the two it is.
	parts map[ansi.Target]partOf
	// known is how many of the page's focusables parts covers.
	known int
	links []Focusable
	// index maps a link's target to its index in links.
	index map[ansi.Target]int
}

type partOf struct {
	focusable int
	title     bool
}

// placeTargetsOn places the targets drawn on lines, which are the page's
// final lines from first on; every focusable of those lines must already
// be on the page. Runs of lines are placed in page order.
func (l *layouter) placeTargetsOn(lines []ansi.Line, first int) {
	if len(l.targetURL) == 0 {
		return
	}
	tp := &l.places
	fs := l.page.Focusables
	if tp.parts == nil {
		tp.parts = make(map[ansi.Target]partOf, 2*len(fs))
		tp.index = map[ansi.Target]int{}
	}
	for i := tp.known; i < len(fs); i++ {
		if t := fs[i].MarkTarget; t != 0 {
			tp.parts[t] = partOf{focusable: i}
		}
		if t := fs[i].TitleTarget; t != 0 {
			tp.parts[t] = partOf{focusable: i, title: true}
		}
	}
	tp.known = len(fs)
	for k, line := range lines {
		ln := first + k
		pos := 0
		for _, s := range line {
			from := pos
			pos += len(s.Text)
			t := s.Target
			if t <= 0 || int(t) > len(l.targetURL) {
				continue
			}
			if p, ok := tp.parts[t]; ok {
				r := &fs[p.focusable].Mark
				if p.title {
					r = &fs[p.focusable].Title
				}
				switch {
				case r.Empty():
					*r = Range{Line: ln, From: from, To: pos}
				case r.Line == ln && r.To == from:
					r.To = pos
				}
				continue
			}
			url := l.targetURL[t-1]
			if url == "" {
				continue
			}
			i, seen := tp.index[t]
			if !seen {
				i = len(tp.links)
				tp.index[t] = i
				tp.links = append(tp.links, Focusable{Kind: FocusLink, Line: ln, URL: url})
			}
			f := &tp.links[i]
			if n := len(f.Ranges); n > 0 && f.Ranges[n-1].Line == ln && f.Ranges[n-1].To == from {
				f.Ranges[n-1].To = pos
			} else {
				f.Ranges = append(f.Ranges, Range{Line: ln, From: from, To: pos})
			}
			f.EndLine = ln + 1
		}
	}
}

// finishTargets adds the links found to the page's focusables and sorts
// them all in page order.
func (l *layouter) finishTargets() {
	links := l.places.links
	if len(links) == 0 && l.places.known == 0 {
		return
	}
	for i := range links {
		links[i].ID = BlockID(i)
	}
	l.page.Focusables = append(l.page.Focusables, links...)
	l.places = targetPlaces{}
	sort.SliceStable(l.page.Focusables, func(i, j int) bool {
		a, b := &l.page.Focusables[i], &l.page.Focusables[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.column() < b.column()
	})
}

// column is where on its first line a focusable starts.
func (f *Focusable) column() int {
	if len(f.Ranges) > 0 {
		return f.Ranges[0].From
	}
	return f.Mark.From
}
