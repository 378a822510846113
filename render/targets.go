package render

import (
	"sort"

	"github.com/markii/markii/ansi"
)

// placeTargets reads, from the finished page, where every target was
// drawn: each link becomes one of the page's Links with a range per line
// it covers, and each live block's gutter and title get their ranges. It
// runs once the lines are final, so container prefixes, box borders and
// wrapping are already in place, and only spans layout tagged are ever a
// target: text that merely reads like a link is not one.
func (l *layouter) placeTargets() {
	l.placeTargetsOn(l.page.Lines, 0)
	l.finishTargets()
}

// targetPlaces is what placeTargetsOn keeps between the runs of lines of
// a page that is placed a run at a time.
type targetPlaces struct {
	// known is how many of the page's focusables have the targets of
	// their gutter and title in place.
	known int
	// place says, for each target in targetURL, what it is on the page:
	// link i is i+1, the gutter of focusable f is -2f-1 and its title
	// -2f-2, and 0 is a link not seen yet or nothing.
	place []int32
	// found are the ranges of the links found on the run of lines being
	// placed, in the order they were found.
	found []linkRange
}

// linkRange is a range of the link with index link, drawn by the
// spans with target targetBase+t+1.
type linkRange struct {
	link, t int32
	r       Range
}

// placeTargetsOn places the targets drawn on lines, which are the page's
// final lines from first on; every focusable of those lines must already
// be on the page. Runs of lines are placed in page order, and a link's
// spans are all in one run.
func (l *layouter) placeTargetsOn(lines []ansi.Line, first int) {
	if len(l.targetURL) == 0 {
		return
	}
	l.knowFocusables()
	next := int32(l.page.Links.Len())
	for k, line := range lines {
		pos := 0
		for _, s := range line {
			from := pos
			pos += len(s.Text)
			if t := int(s.Target - l.targetBase); t > 0 && t <= len(l.targetURL) {
				l.placeSpan(t, Range{Line: first + k, From: from, To: pos}, &next)
			}
		}
	}
	l.addFoundLinks()
}

// knowFocusables marks, in the places of the targets handed out, those
// that are a focusable's mark or title, for the focusables added since
// the last call.
func (l *layouter) knowFocusables() {
	tp := &l.places
	for len(tp.place) < len(l.targetURL) {
		tp.place = append(tp.place, 0)
	}
	fs := l.page.Focusables
	for i := tp.known; i < len(fs); i++ {
		if t := fs[i].MarkTarget - l.targetBase; t > 0 && int(t) <= len(tp.place) {
			tp.place[t-1] = int32(-2*i - 1)
		}
		if t := fs[i].TitleTarget - l.targetBase; t > 0 && int(t) <= len(tp.place) {
			tp.place[t-1] = int32(-2*i - 2)
		}
	}
	tp.known = len(fs)
}

// placeSpan places r, a span of target t (counted from 1): it extends a
// focusable's mark or title, or becomes a range of a link, numbered from
// next in the order links are first drawn.
func (l *layouter) placeSpan(t int, r Range, next *int32) {
	tp := &l.places
	if p := tp.place[t-1]; p < 0 {
		extendRange(l.focusRange(p), r)
		return
	}
	if l.targetURL[t-1] == "" {
		return
	}
	i := tp.place[t-1] - 1
	if i < 0 {
		i = *next
		*next++
		tp.place[t-1] = i + 1
	}
	if n := len(tp.found); n > 0 {
		if last := &tp.found[n-1]; last.link == i && last.r.Line == r.Line && last.r.To == r.From {
			last.r.To = r.To
			return
		}
	}
	tp.found = append(tp.found, linkRange{link: i, t: int32(t - 1), r: r})
}

// focusRange returns the range a negative place p stands for: a
// focusable's mark or its title.
func (l *layouter) focusRange(p int32) *Range {
	f := &l.page.Focusables[(-p-1)/2]
	if (-p-1)%2 == 1 {
		return &f.Title
	}
	return &f.Mark
}

// extendRange sets an empty r to s, or extends r by s when s follows it
// on its line.
func extendRange(r *Range, s Range) {
	switch {
	case r.Empty():
		*r = s
	case r.Line == s.Line && r.To == s.From:
		r.To = s.To
	}
}

// addFoundLinks gives the ranges found to the links in link order, each
// link's in page order.
func (l *layouter) addFoundLinks() {
	tp := &l.places
	links := &l.page.Links
	sort.SliceStable(tp.found, func(a, b int) bool { return tp.found[a].link < tp.found[b].link })
	for j := 0; j < len(tp.found); {
		k := j + 1
		for k < len(tp.found) && tp.found[k].link == tp.found[j].link {
			k++
		}
		links.add(l.targetURL[tp.found[j].t])
		for _, f := range tp.found[j:k] {
			links.ranges = append(links.ranges, f.r)
		}
		j = k
	}
	tp.found = tp.found[:0]
}

// forgetTargets forgets every target handed out so far, once all the
// lines that carry them are placed, so that what is kept for targets
// (their links, which may be cut from the note's source) stays the size
// of the block being laid out. Later targets keep counting on from them.
func (l *layouter) forgetTargets() {
	l.targetBase += ansi.Target(len(l.targetURL))
	clear(l.targetURL)
	l.targetURL = l.targetURL[:0]
	l.places.place = l.places.place[:0]
}

// finishTargets sorts the page's focusables in page order; the links are
// already.
func (l *layouter) finishTargets() {
	l.page.Links.done()
	if l.places.known == 0 {
		return
	}
	l.places = targetPlaces{}
	sort.SliceStable(l.page.Focusables, func(i, j int) bool {
		a, b := &l.page.Focusables[i], &l.page.Focusables[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Mark.From < b.Mark.From
	})
}
