package viewer

import (
	"strings"
	"testing"
)

// TestShowURLsInTheViewer prints a link's address after its text on the
// page, and the focused link's address is in the status bar at once.
func TestShowURLsInTheViewer(t *testing.T) {
	src := "# Links\n\nRead [the docs](https://docs.example/guide) today.\n"
	m := newTest(t, src, 80, 10, nil)
	mustLack(t, m, "(https://docs.example/guide)")
	m = newTest(t, src, 80, 10, func(o *Options) { o.ShowURLs = true })
	mustContain(t, m, "the docs (https://docs.example/guide) today.")
	press(m, "tab")
	if st := status(m); !strings.Contains(st, "link → https://docs.example/guide") {
		t.Fatalf("status %q", st)
	}
}
