package render

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/procmem"
	"github.com/markii/markii/theme"
)

// TestLinksAreHeldCompactly: a page with a link every few words keeps
// each link in a few words of shared tables (its address, where its
// ranges start, one range per line), not in a record of its own, and a
// link that wraps is still one link with a range per line.
func TestLinksAreHeldCompactly(t *testing.T) {
	const n = 20000
	note := func(links bool) []byte {
		var b strings.Builder
		for i := range n {
			if links {
				fmt.Fprintf(&b, "Some words [link %d](https://example.com/%d) and more words here.", i, i)
			} else {
				fmt.Fprintf(&b, "Some words link %d and more words here.", i)
			}
			if i%10 == 9 {
				b.WriteString("\n\n")
			} else {
				b.WriteString(" ")
			}
		}
		return []byte(b.String())
	}
	opt := Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark}
	layout := func(src []byte) (*Page, int) {
		base := procmem.LiveHeap()
		p := NewPacker(opt)
		if err := ParseChunks(src, func(doc *Document) error { p.Add(doc); return nil }); err != nil {
			t.Fatal(err)
		}
		page := p.Page()
		return page, int(procmem.LiveHeap() - base)
	}
	plain, without := layout(note(false))
	page, held := layout(note(true))
	runtime.KeepAlive(plain)
	if plain.Links.Len() != 0 || plain.Packed.Len() != page.Packed.Len() {
		t.Fatalf("the note without links has %d links and %d lines, the one with them %d lines", plain.Links.Len(), plain.Packed.Len(), page.Packed.Len())
	}
	if page.Links.Len() != n {
		t.Fatalf("%d links on the page, want %d", page.Links.Len(), n)
	}
	ranges := 0
	for i := range n {
		rs := page.Links.Ranges(i)
		ranges += len(rs)
		if want := fmt.Sprintf("https://example.com/%d", i); page.Links.URL(i) != want {
			t.Fatalf("link %d goes to %q, want %q", i, page.Links.URL(i), want)
		}
		var text []string
		for _, r := range rs {
			text = append(text, page.Packed.Text(r.Line)[r.From:r.To])
		}
		if got := strings.Join(text, " "); got != fmt.Sprintf("link %d", i) {
			t.Fatalf("link %d is drawn as %q over %+v", i, got, rs)
		}
	}
	if ranges == n {
		t.Fatalf("no link wraps; the test needs some that do")
	}
	perLink := float64(held-without) / n
	t.Logf("%d links (%d ranges) take %.0f bytes each: the page holds %d KB, %d KB without them", n, ranges, perLink, held>>10, without>>10)
	// Each link costs its address (about 20 bytes, held twice: in the
	// links and, as a hyperlink, in the lines' style table), one range a
	// line (24 bytes) and a few words. A record a link took 250 bytes
	// more.
	if perLink > 160 {
		t.Errorf("a link takes %.0f bytes of the page, want at most 160", perLink)
	}
	runtime.KeepAlive(page)
}
