package viewer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

const widgetNote = `# Widgets

Intro.

:::details{title="How it works"}
The hidden body of the details.
:::

::::tabs
:::tab{label="First"}
Body of the first tab.
:::
:::tab{label="Second"}
Body of the second tab.
:::
::::

## After

Text after the widgets.
`

func TestDetailsToggleWithEnter(t *testing.T) {
	m := newTest(t, widgetNote, 80, 20, nil)
	mustContain(t, m, "▸ How it works")
	mustLack(t, m, "hidden body")
	press(m, "tab")
	mustContain(t, m, "› ▸ How it works", "enter to open", `details "How it works"`)
	press(m, "enter")
	mustContain(t, m, "▾ How it works", "The hidden body of the details.", "enter to close")
	press(m, "enter")
	mustLack(t, m, "hidden body")
}

func TestTabsSwitchWithArrows(t *testing.T) {
	m := newTest(t, widgetNote, 80, 20, nil)
	mustContain(t, m, "[First]", "Body of the first tab.")
	mustLack(t, m, "Body of the second tab.")
	press(m, "tab", "tab")
	mustContain(t, m, `tabs "First"`)
	press(m, "right")
	mustContain(t, m, "[Second]", "Body of the second tab.", `tabs "Second"`)
	mustLack(t, m, "Body of the first tab.")
	press(m, "right")
	mustContain(t, m, "[First]")
	press(m, "left")
	mustContain(t, m, "[Second]")
}

func TestFocusModeMovesWithArrowsAndWraps(t *testing.T) {
	m := newTest(t, widgetNote, 80, 20, nil)
	press(m, "tab")
	if m.reader.focus != 0 {
		t.Fatalf("tab focused %d", m.reader.focus)
	}
	press(m, "down")
	if m.reader.focus != 1 {
		t.Fatalf("down in focus mode focused %d, want 1", m.reader.focus)
	}
	press(m, "down")
	if m.reader.focus != 0 {
		t.Fatalf("down wraps: focus %d", m.reader.focus)
	}
	press(m, "up")
	if m.reader.focus != 1 {
		t.Fatalf("up wraps back: focus %d", m.reader.focus)
	}
	press(m, "shift+tab")
	if m.reader.focus != 0 {
		t.Fatalf("shift+tab: focus %d", m.reader.focus)
	}
	press(m, "esc")
	if m.reader.focus != -1 {
		t.Fatal("esc did not leave focus mode")
	}
	mustLack(t, m, "› ")
}

func TestTogglingKeepsPlaceBelow(t *testing.T) {
	src := widgetNote + longNote(6, 3)
	m := newTest(t, src, 80, 8, nil)
	press(m, "tab") // focus the details, then scroll well below it
	press(m, "esc")
	press(m, "tab")
	for i := 0; i < 3; i++ {
		press(m, "]")
	}
	want := firstRow(m)
	before := m.reader.topLine()
	press(m, "enter")
	if got := firstRow(m); got != want {
		t.Fatalf("opening the details above moved the reader: top %q, want %q", got, want)
	}
	if m.reader.topLine() <= before {
		t.Fatalf("the top line index did not move down with the opened body (%d -> %d)", before, m.reader.topLine())
	}
	press(m, "enter")
	if got := firstRow(m); got != want {
		t.Fatalf("closing moved the reader: top %q, want %q", got, want)
	}
}

func TestFoldSectionKeepsPlace(t *testing.T) {
	m := newTest(t, longNote(4, 3), 100, 10, nil)
	press(m, "]", "]") // Section 2 at the top
	press(m, "j")      // inside section 2's body
	press(m, "z")
	if got := firstRow(m); got != "Section 2" {
		t.Fatalf("after z the top row is %q, want the folded section's heading", got)
	}
	mustContain(t, m, "lines folded")
	mustLack(t, m, "Paragraph 2.1")
	mustContain(t, m, "Section 3")
	press(m, "z")
	if got := firstRow(m); got != "Section 2" {
		t.Fatalf("after unfolding the top row is %q", got)
	}
	mustContain(t, m, "Paragraph 2.1")
	mustLack(t, m, "lines folded")
}

func TestFoldFromInsideBringsHeadingToTop(t *testing.T) {
	m := newTest(t, longNote(4, 3), 100, 20, nil)
	press(m, "]", "]")
	press(m, "k", "k") // the last lines of section 1 at the top
	press(m, "z")
	r := rows(m)
	// A level 2 heading keeps its rule over the fold's line.
	if strings.TrimSpace(r[0]) != "Section 1" || !strings.Contains(r[2], "lines folded") {
		t.Fatalf("folding section 1 from inside it:\n%s", screen(m))
	}
	if strings.TrimSpace(r[4]) != "Section 2" {
		t.Fatalf("Section 2 is not right after the folded section:\n%s", screen(m))
	}
}

func TestFoldAll(t *testing.T) {
	// The note's one H1 is its title: Z folds the sections under it, so
	// the note reads as its outline and the reader keeps their place.
	m := newTest(t, longNote(4, 3), 100, 30, nil)
	press(m, "Z")
	mustContain(t, m, "Top", "Intro paragraph.", "Section 1", "Section 2", "Section 3", "Section 4")
	mustLack(t, m, "Paragraph")
	press(m, "Z")
	mustContain(t, m, "Paragraph 3.1")
	if got := firstRow(m); got != "Top" {
		t.Fatalf("after unfolding all the top row is %q", got)
	}
	m = newTest(t, longNote(8, 3), 100, 6, nil)
	press(m, "]", "]", "]") // Section 3
	press(m, "Z")
	if got := firstRow(m); got != "Section 3" {
		t.Fatalf("after Z the top row is %q, want the section the reader was in", got)
	}
	// A note of one heading and nothing else still folds.
	m = newTest(t, "# Only\n\nBody one.\n\nBody two.\n", 100, 10, nil)
	press(m, "Z")
	mustLack(t, m, "Body one.")
}

func TestFoldAllSubsections(t *testing.T) {
	// Without a level-1 heading over everything, Z leaves every section
	// heading in view.
	src := strings.Replace(longNote(3, 2), "# Top\n\nIntro paragraph.\n\n", "", 1)
	m := newTest(t, src, 100, 30, nil)
	press(m, "Z")
	mustContain(t, m, "Section 1", "Section 2", "Section 3")
	mustLack(t, m, "Paragraph 2.1")
}

func TestDetailsOpenAttributeAndLongTitle(t *testing.T) {
	src := ":::details{open title=\"A title long enough to wrap onto a second line at this width\"}\nShown at first.\n:::\n"
	m := newTest(t, src, 30, 12, nil)
	mustContain(t, m, "Shown at first.")
	press(m, "tab")
	if tg, _ := m.reader.focused(); !m.reader.isOpen(tg) {
		t.Fatal("a details block with open reads as closed")
	}
	press(m, "enter")
	mustLack(t, m, "Shown at first.")
	press(m, "enter")
	mustContain(t, m, "Shown at first.")
}

func TestFocusMoveDoesNotLayOutAgain(t *testing.T) {
	m := newTest(t, widgetNote, 80, 20, nil)
	before := m.reader.pg.laid
	press(m, "tab", "tab", "shift+tab")
	if m.reader.pg.laid != before {
		t.Fatal("moving the focus laid the page out again")
	}
	mustContain(t, m, "› ▸ How it works")
}

func TestFoldFollowsItsHeadingAcrossTabSwitch(t *testing.T) {
	src := "::::tabs\n:::tab{label=\"A\"}\n## In A\n\nA body.\n:::\n:::tab{label=\"B\"}\nB body.\n:::\n::::\n\n## Later\n\nLater body.\n\n## Last\n\nLast body.\n"
	m := newTest(t, src, 80, 6, nil)
	press(m, "]", "]")
	if got := firstRow(m); got != "Later" {
		t.Fatalf("top row %q", got)
	}
	press(m, "z")
	mustLack(t, m, "Later body.")
	press(m, "g", "tab", "right") // panel B: the heading in panel A goes away
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	mustContain(t, m, "B body.", "Later", "lines folded", "Last body.")
	mustLack(t, m, "Later body.")
}
