package viewer

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/markii/markii/render"
)

// slug is a heading's anchor as GitHub makes it: lowercase, every
// character but letters, digits, `-` and `_` dropped, each space a `-`.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// headingSlugs are the anchors of hs in order; a repeated slug gets -1,
// -2 and so on, as on GitHub.
func headingSlugs(hs []render.HeadingRef) []string {
	out := make([]string, len(hs))
	used := map[string]bool{}
	count := map[string]int{}
	for i, h := range hs {
		base := slug(h.Text)
		s := base
		for used[s] {
			count[base]++
			s = base + "-" + strconv.Itoa(count[base])
		}
		used[s] = true
		out[i] = s
	}
	return out
}

// anchorHeading finds the heading a fragment (without `#`) names: its
// slug, or text that slugs to it; -1 when none does.
func anchorHeading(hs []render.HeadingRef, frag string) int {
	if dec, err := url.PathUnescape(frag); err == nil {
		frag = dec
	}
	slugs := headingSlugs(hs)
	for _, want := range []string{strings.ToLower(frag), slug(frag)} {
		for i, s := range slugs {
			if s == want {
				return i
			}
		}
	}
	return -1
}

// splitFragment cuts a link into the part before `#` and the fragment.
func splitFragment(u string) (string, string) {
	before, frag, _ := strings.Cut(u, "#")
	return before, frag
}

// goAnchor scrolls the heading frag names to the top, unfolding it. While
// a long note is still loading a heading not laid out yet is gone to once
// the whole note is there.
func (rd *reader) goAnchor(frag string) {
	i := anchorHeading(rd.pg.laid.Headings, frag)
	if i < 0 {
		if rd.loading {
			rd.pending.put(pendingAction{kind: pendingJump, jump: jump{anchor: frag}})
			rd.message = "going to #" + frag + " once the note has loaded"
			return
		}
		rd.message = "no heading #" + frag + " in " + rd.note.Name
		return
	}
	rd.pending.drop(pendingJump)
	ln := rd.pg.laid.Headings[i].Line
	rd.pg.unfoldLine(ln)
	rd.scrollTo(rd.pg.rowOf(ln))
}

// followAnchor follows a link to a heading of the open note; Backspace
// returns to where the reader was.
func (rd *reader) followAnchor(frag string) {
	rd.history = append(rd.history, place{note: rd.note, sameNote: true, line: rd.topLine(), focus: rd.focus})
	rd.message = ""
	rd.goAnchor(frag)
}
