package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWikiLinkOpensAndBackspaceReturns: a wikilink names a note beside
// this one by name, in any case and without its extension; enter opens
// it, backspace returns; an unresolved one is no link at all.
func TestWikiLinkOpensAndBackspaceReturns(t *testing.T) {
	_, start := linkTree(t)
	src := longNote(3, 2) + "\nSee [[ROADMAP|the roadmap]], [[Plan#Plan as text]] and [[Missing note]].\n"
	if err := os.WriteFile(start, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked []string
	m := linkModel(t, start, &asked, nil)
	press(m, "G")
	mustContain(t, m, "the roadmap", "Plan › Plan as text", "Missing note")
	for range m.reader.pg.targets {
		press(m, "tab")
		if tg, ok := m.reader.focused(); ok && strings.Contains(tg.url, "issing") {
			t.Fatalf("an unresolved wikilink is a link to %q", tg.url)
		}
	}
	focusLink(t, m, "plan.mk.md#plan-as-text")
	focusLink(t, m, "roadmap.mk.md")
	press(m, "enter")
	mustContain(t, m, "The roadmap note.")
	if len(asked) != 1 || asked[0] != filepath.Join(filepath.Dir(start), "roadmap.mk.md") {
		t.Fatalf("loader asked for %v", asked)
	}
	press(m, "backspace")
	if m.reader.note.Path != start {
		t.Fatalf("backspace returned to %s", m.reader.note.Path)
	}
}

// TestWikiResolverSearchesTheLibrary: with a library, a wikilink finds a
// note anywhere in its folder tree, a path before the name narrowing it.
func TestWikiResolverSearchesTheLibrary(t *testing.T) {
	dir, _ := libraryTree(t)
	lib, err := ScanLibrary(dir, DefaultLibraryLimits)
	if err != nil {
		t.Fatal(err)
	}
	resolve := wikiResolver(lib, filepath.Join(dir, "sub", "deeper", "gamma.mk.md"))
	for target, want := range map[string]string{
		"Beta":       "../beta.mk.md",
		"beta.mk.md": "../beta.mk.md",
		"sub/README": "../README.md",
		"plain":      "../../plain.md",
		"Docs":       "../../docs.markdown",
		"nothing":    "",
	} {
		if got := resolve(target, ""); got != want {
			t.Errorf("%s resolves to %q, want %q", target, got, want)
		}
	}
	if got := resolve("Beta", "Beta plans"); got != "../beta.mk.md#beta-plans" {
		t.Errorf("heading: %q", got)
	}
}
