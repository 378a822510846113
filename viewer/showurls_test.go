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

// TestInvisibleCharactersInTheChrome: a link target in the status bar and
// the note's file name show a bidi override as a visible escape.
func TestInvisibleCharactersInTheChrome(t *testing.T) {
	src := "Read [the docs](https://docs.example/\u202egpj.exe) today.\n"
	m := newTest(t, src, 100, 10, func(o *Options) { o.Note.Name = "notes\u202edm.kim" })
	press(m, "tab")
	s := screen(m)
	if strings.ContainsRune(s, '\u202e') || !strings.Contains(s, "https://docs.example/⟨U+202E⟩gpj.exe") || !strings.Contains(s, "notes⟨U+202E⟩dm.kim") {
		t.Fatalf("screen:\n%s", s)
	}
}
