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
	if len(l.targetURL) == 0 {
		return
	}
	fs := l.page.Focusables
	parts := make(map[ansi.Target]*Range, 2*len(fs))
	for i := range fs {
		if t := fs[i].MarkTarget; t != 0 {
			parts[t] = &fs[i].Mark
		}
		if t := fs[i].TitleTarget; t != 0 {
			parts[t] = &fs[i].Title
		}
	}
	var links []Focusable
	index := map[ansi.Target]int{}
	for ln, line := range l.page.Lines {
		pos := 0
		for _, s := range line {
			from := pos
			pos += len(s.Text)
			t := s.Target
			if t <= 0 || int(t) > len(l.targetURL) {
				continue
			}
			if r, ok := parts[t]; ok {
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
			i, seen := index[t]
			if !seen {
				i = len(links)
				index[t] = i
				links = append(links, Focusable{Kind: FocusLink, Line: ln, URL: url})
			}
			f := &links[i]
			if n := len(f.Ranges); n > 0 && f.Ranges[n-1].Line == ln && f.Ranges[n-1].To == from {
				f.Ranges[n-1].To = pos
			} else {
				f.Ranges = append(f.Ranges, Range{Line: ln, From: from, To: pos})
			}
			f.EndLine = ln + 1
		}
	}
	for i := range links {
		links[i].ID = BlockID(i)
	}
	l.page.Focusables = append(fs, links...)
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
