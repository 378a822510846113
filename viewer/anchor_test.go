package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/render"
)

func TestHeadingSlugsAreGitHubs(t *testing.T) {
	hs := []render.HeadingRef{{Text: "Getting Started"}, {Text: "What's new in 2.0?"}, {Text: "Getting Started"},
		{Text: "Ünïcode & C++ — notes"}, {Text: "snake_case-and-dash"}, {Text: "Getting Started"}, {Text: "getting-started-1"}}
	want := []string{"getting-started", "whats-new-in-20", "getting-started-1", "ünïcode--c--notes", "snake_case-and-dash", "getting-started-2", "getting-started-1-1"}
	got := headingSlugs(hs)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("slugs %q, want %q", got, want)
	}
	for frag, i := range map[string]int{"getting-started": 0, "getting-started-2": 5, "Getting%20Started": 0, "WHATS-NEW-IN-20": 1, "nowhere": -1} {
		if got := anchorHeading(hs, frag); got != i {
			t.Errorf("#%s names heading %d, want %d", frag, got, i)
		}
	}
}

const anchorNote = "# Guide\n\nJump to [the setup](#setup-and-install) or [the end](#last-words) or [nowhere](#no-such-heading).\n\n" +
	"## Intro\n\n" + "Filler paragraph of the guide that takes some room.\n\n" + "## Setup and install\n\nSetup body text.\n\n" +
	"## More\n\nMore filler.\n\nMore filler.\n\nMore filler.\n\nMore filler.\n\n## Last words\n\nThe end of the guide.\n"

func TestInNoteAnchorJumpsAndBackspaceReturns(t *testing.T) {
	m := newTest(t, anchorNote, 80, 8, nil)
	focusLink(t, m, "#setup-and-install")
	if !strings.Contains(status(m), "enter goes to #setup-and-install") {
		t.Fatalf("status %q", status(m))
	}
	top := m.reader.top
	press(m, "enter")
	if got := firstRow(m); got != "Setup and install" {
		t.Fatalf("the anchor went to %q", got)
	}
	if !strings.Contains(status(m), "backspace returns") {
		t.Fatalf("status %q", status(m))
	}
	press(m, "backspace")
	if m.reader.top != top || !strings.Contains(screen(m), "Jump to") {
		t.Fatalf("backspace returned to row %d, want %d:\n%s", m.reader.top, top, screen(m))
	}
	// A folded section is unfolded on the way.
	press(m, "esc", "g")
	m.reader.foldAll()
	press(m, "g")
	m.reader.follow("#last-words")
	mustContain(t, m, "Last words")
	if ln := m.reader.pg.laid.Headings[anchorHeading(m.reader.pg.laid.Headings, "last-words")].Line; m.reader.pg.lineOf(m.reader.pg.rowOf(ln)) != ln {
		t.Fatalf("the heading at line %d is still folded away", ln)
	}
	m.reader.follow("#no-such-heading")
	if m.reader.message != "no heading #no-such-heading in test.mk.md" {
		t.Fatalf("message %q", m.reader.message)
	}
}

func TestNoteLinkWithAFragmentOpensAtTheSection(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.mk.md")
	if err := os.WriteFile(other, []byte(strings.ReplaceAll(anchorNote, "# Guide", "# Other guide")), 0o644); err != nil {
		t.Fatal(err)
	}
	start := filepath.Join(dir, "start.mk.md")
	src := longNote(2, 2) + "\nRead [its setup](other.mk.md#setup-and-install).\n"
	if err := os.WriteFile(start, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked []string
	m := linkModel(t, start, &asked, nil)
	press(m, "G")
	focusLink(t, m, "other.mk.md#setup-and-install")
	top := m.reader.top
	press(m, "enter")
	if m.reader.note.Name != "other.mk.md" || len(asked) != 1 || asked[0] != other {
		t.Fatalf("opened %q (asked %v)", m.reader.note.Name, asked)
	}
	if got := firstRow(m); got != "Setup and install" {
		t.Fatalf("the other note opened at %q", got)
	}
	press(m, "backspace")
	if m.reader.note.Name != "start.mk.md" || m.reader.top != top {
		t.Fatalf("backspace returned to %q at row %d, want start.mk.md at %d", m.reader.note.Name, m.reader.top, top)
	}
}

func TestAnchorWhileLoadingLandsWhenTheHeadingArrives(t *testing.T) {
	src := "# Long\n\nGo to [the last section](#section-2990).\n\n" + longNote(3000, 2)
	m := newTest(t, src, 80, 20, nil)
	if !m.reader.loading {
		t.Fatal("the note was laid out at once")
	}
	m.reader.follow("#section-2990")
	if !strings.Contains(m.reader.message, "going to #section-2990 once the note has loaded") {
		t.Fatalf("message %q", m.reader.message)
	}
	m.Update(m.reader.layoutFull()())
	if got := firstRow(m); got != "Section 2990" {
		t.Fatalf("after the load the top row is %q", got)
	}
}
