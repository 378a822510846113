package viewer

import (
	"strings"
	"testing"
)

// A long note that defines its footnotes and links at the end still
// opens from a prefix, and the references on the first screen resolve
// and are numbered as in the whole note: a note with footnotes used to wait for its whole parse
// (1.5 s of CPU for 10 MB) before its first frame.
func TestLongNoteWithDefinitionsAtTheEndOpensFromAPrefix(t *testing.T) {
	src := strings.Replace(longNote(3000, 2), "Intro paragraph.", "Intro with a claim.[^src] And a second.[^two] See [the site][home].", 1) +
		"\n[^two]: The second source.\n\n[^src]: The first source.\n\n[home]: https://home.example/\n"
	m := newTest(t, src, 80, 20, nil)
	if !m.reader.loading {
		t.Fatalf("a %d-byte note with footnotes was laid out whole before its first frame", len(src))
	}
	if len(m.reader.pg.src) > len(src)/10 {
		t.Fatalf("the first frame came from %d bytes of %d", len(m.reader.pg.src), len(src))
	}
	mustContain(t, m, "Intro with a claim.[1] And a second.[2] See the site.")
	mustLack(t, m, "[home]")
	m.Update(m.reader.layoutFull()())
	if m.reader.loading {
		t.Fatal("the whole page did not arrive")
	}
	mustContain(t, m, "Intro with a claim.[1] And a second.[2]")
	press(m, "G")
	mustContain(t, m, "The first source.", "The second source.")
}
