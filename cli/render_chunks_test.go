package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderLongNoteInChunksMatchesWholeParse renders a note long enough
// to be parsed a piece at a time, and the same note with a pack-looking
// directive appended (which forces the whole-document path): apart from
// that directive's line, the outputs must be byte-identical.
func TestRenderLongNoteInChunksMatchesWholeParse(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../fixtures/*.mk.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var b strings.Builder
	for b.Len() < 300<<10 {
		for _, p := range []string{"headings", "lists", "tables", "code-blocks", "quotes", "comp-card", "scripts", "links-images", "paragraphs"} {
			src, err := os.ReadFile(filepath.Join("../fixtures", p+".mk.md"))
			if err != nil {
				t.Fatal(err)
			}
			b.Write(src)
			b.WriteString("\n\n")
		}
	}
	note := b.String()
	if mayNamePackComponent([]byte(note)) {
		t.Fatal("the test note looks like it names a pack component; it would not be chunked")
	}
	chunked, _, code := renderCLI(t, note, "--width", "72", "--color", "truecolor", "--quiet")
	if code != ExitOK {
		t.Fatalf("chunked render exited %d", code)
	}
	// An unknown component keeps its label in the page, so the label is
	// what marks the appended line in the output.
	whole, _, code := renderCLI(t, note+"\n:not_a_pack[appended-line-label]\n", "--width", "72", "--color", "truecolor", "--quiet")
	if code != ExitOK {
		t.Fatalf("whole render exited %d", code)
	}
	// Drop the extra directive's fallback line and the blank line before it.
	if i := strings.LastIndex(whole, "\n\n"); i >= 0 && strings.Contains(whole[i:], "appended-line-label") {
		whole = whole[:i+1]
	}
	if chunked != whole {
		t.Fatal("the chunked render of a long note differs from the whole-document render")
	}
}

func TestMayNamePackComponent(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		"":                          false,
		"plain text: with colons":   false,
		":badge[x] and ::stat{a=b}": false,
		":::card\n:::\n":            false,
		"see :ana_timeline[x]":      true,
		":::ana_chart\n:::\n":       true,
		"time 12:30_utc":            true,
	} {
		if got := mayNamePackComponent([]byte(src)); got != want {
			t.Errorf("mayNamePackComponent(%q) = %v, want %v", src, got, want)
		}
	}
}
