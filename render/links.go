package render

import (
	"strings"
)

// Links are the links drawn on a page, in the order they appear on it.
// Link i goes to URL(i) and is drawn over Ranges(i): one range per line
// it covers, its text and any address or host printed after it, so a
// link that wraps is one link. Layout finds them from the targets on the
// page's spans, never from the text. A long note has a link every few
// words, so they are held in a few shared tables rather than a record
// each.
type Links struct {
	urls []string
	// first[i] is where link i's ranges start in ranges; the next link's
	// start ends them.
	first  []int32
	ranges []Range
	// buf holds the addresses' text, which a long note's source would
	// otherwise be kept alive for; a new buffer is started when one is
	// full, so the text handed out never moves.
	buf strings.Builder
}

// linkBuffer is how much address text one shared buffer holds.
const linkBuffer = 16 << 10

// Len returns the number of links.
func (ls *Links) Len() int { return len(ls.urls) }

// URL returns link i's destination.
func (ls *Links) URL(i int) string { return ls.urls[i] }

// Ranges returns where link i is drawn, in page order. The caller must
// not change them.
func (ls *Links) Ranges(i int) []Range {
	end := len(ls.ranges)
	if i+1 < len(ls.first) {
		end = int(ls.first[i+1])
	}
	return ls.ranges[ls.first[i]:end:end]
}

// Line returns the first line link i is drawn on.
func (ls *Links) Line(i int) int { return ls.ranges[ls.first[i]].Line }

// EndLine returns one past the last line link i is drawn on.
func (ls *Links) EndLine(i int) int {
	r := ls.Ranges(i)
	return r[len(r)-1].Line + 1
}

// add appends a link to url; its ranges are appended to ls.ranges next,
// in page order.
func (ls *Links) add(url string) {
	if ls.buf.Cap()-ls.buf.Len() < len(url) {
		ls.buf = strings.Builder{}
		ls.buf.Grow(max(len(url), linkBuffer))
	}
	start := ls.buf.Len()
	ls.buf.WriteString(url)
	ls.urls = append(ls.urls, ls.buf.String()[start:])
	ls.first = append(ls.first, int32(len(ls.ranges)))
}

// done lets go of the buffer links are added to; no link is added after
// it.
func (ls *Links) done() { ls.buf = strings.Builder{} }
