package viewer

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
)

// sidewaysNote has prose, a seven-column table too wide for 40 columns,
// a long code line, and a tabs block.
const sidewaysNote = "# Wide\n\nProse before the table wraps to the screen like any paragraph does.\n\n" +
	"| Name | Kind | Size | Owner | Created | Modified | Status |\n|---|---|---|---|---|---|---|\n" +
	"| alpha.txt | file | 12 KB | ada | 2024-01-02 | 2024-03-04 | ok |\n" +
	"| beta | folder | - | linus | 2023-05-06 | 2024-07-08 | archived |\n\n" +
	"```go\nfunc main() { fmt.Println(\"a line of code far longer than forty columns of screen\") }\n```\n\n" +
	"Prose after.\n\n" +
	"::::tabs\n:::tab{label=\"One\"}\nPanel one.\n:::\n:::tab{label=\"Two\"}\nPanel two.\n:::\n::::\n"

func shiftKey(k string) tea.KeyPressMsg {
	code := tea.KeyLeft
	if k == "right" {
		code = tea.KeyRight
	}
	return tea.KeyPressMsg{Code: code, Mod: tea.ModShift}
}

// TestWideTableScrollsSideways: a table that would break its words is a
// grid wider than the screen whose words stay whole; → and ← scroll it
// (and the code block) half a screen while the prose stays in place, the
// status bar says which columns are shown, and the offset never leaves
// its range.
func TestWideTableScrollsSideways(t *testing.T) {
	m := newTest(t, sidewaysNote, 40, 30, nil)
	rd := m.reader
	mustContain(t, m, "│ Name      │", "│ alpha.txt │", "Prose before the table wraps to the", "Prose after.")
	if !strings.Contains(status(m), "cols 1-40/") {
		t.Fatalf("the status bar has no sideways position: %q", status(m))
	}
	for _, r := range rows(m) {
		if ansi.Width(r) > 40 {
			t.Fatalf("a row is wider than the screen: %q", r)
		}
	}
	widest := rd.pg.widest()
	if widest <= 40 {
		t.Fatalf("the table is %d wide", widest)
	}
	press(m, "right")
	mustContain(t, m, "Prose before the table wraps to the", "Prose after.")
	mustLack(t, m, "│ alpha.txt │")
	if !strings.Contains(status(m), "cols 21-60/") {
		t.Fatalf("→ did not scroll half a screen: %q", status(m))
	}
	// Every word of the table is whole on some screen.
	seen := screen(m)
	for range 10 {
		press(m, "right")
		seen += screen(m)
	}
	for _, w := range []string{"2024-01-02", "2023-05-06", "Modified", "archived", `far longer than forty columns`, `of screen") }`} {
		if !strings.Contains(seen, w) {
			t.Errorf("%q is never shown whole", w)
		}
	}
	if rd.shift() != widest-40 || !strings.Contains(status(m), fmt.Sprintf("-%d/%d", widest, widest)) {
		t.Fatalf("many → went to %d of %d: %q", rd.shift(), widest, status(m))
	}
	// A wider screen brings the offset back into range; at a width that
	// holds the widest block there is nothing to scroll.
	m.Update(tea.WindowSizeMsg{Width: widest - 10, Height: 30})
	if rd.hoff != 10 {
		t.Fatalf("after a resize the offset is %d, want 10", rd.hoff)
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 30})
	if rd.hoff != 0 || strings.Contains(status(m), "cols") {
		t.Fatalf("at 200 columns the offset is %d: %q", rd.hoff, status(m))
	}
	press(m, "right")
	if !strings.Contains(status(m), "nothing here is wider than the screen") {
		t.Fatalf("→ with nothing to scroll: %q", status(m))
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 30})
	// ← comes back; a count sets the step, as in less.
	press(m, "1", "0", "right")
	if rd.shift() != 10 {
		t.Fatalf("10→ went to %d", rd.shift())
	}
	press(m, "right", "left", "left", "left")
	if rd.shift() != 0 {
		t.Fatalf("← did not come back to 0: %d", rd.shift())
	}
	mustContain(t, m, "│ alpha.txt │")
}

// TestSidewaysKeysAndTabs: on a focused tabs block ← and → switch its
// panels and scroll nothing; shift+← and shift+→ scroll there too.
func TestSidewaysKeysAndTabs(t *testing.T) {
	m := newTest(t, sidewaysNote, 40, 30, nil)
	for i := 0; i < 6 && !strings.Contains(status(m), `tabs "One"`); i++ {
		press(m, "tab")
	}
	press(m, "right")
	mustContain(t, m, "Panel two.")
	if m.reader.shift() != 0 {
		t.Fatalf("→ on a tabs block scrolled sideways to %d", m.reader.shift())
	}
	m.Update(shiftKey("right"))
	if m.reader.shift() != 20 {
		t.Fatalf("shift+→ on a tabs block scrolled to %d", m.reader.shift())
	}
	mustContain(t, m, "Panel two.")
	m.Update(shiftKey("left"))
	if m.reader.shift() != 0 {
		t.Fatalf("shift+← scrolled to %d", m.reader.shift())
	}
}

// TestSearchScrollsSidewaysToTheMatch: a match off the screen's side in
// a wide block is brought into view.
func TestSearchScrollsSidewaysToTheMatch(t *testing.T) {
	m := newTest(t, sidewaysNote, 40, 30, nil)
	typeText(m, "/archived")
	press(m, "enter")
	if m.reader.shift() == 0 {
		t.Fatalf("the match is off screen: %q", status(m))
	}
	mustContain(t, m, "archived")
}

// TestSidewaysInATinyPane: a pane smaller than any block scrolls without
// going out of range.
func TestSidewaysInATinyPane(t *testing.T) {
	m := newTest(t, sidewaysNote, 12, 4, nil)
	for range 200 {
		press(m, "right")
	}
	if s := m.reader.shift(); s != m.reader.pg.widest()-12 || m.reader.hoff != s {
		t.Fatalf("offset %d (%d) of widest %d", s, m.reader.hoff, m.reader.pg.widest())
	}
	press(m, "G")
	for _, r := range rows(m) {
		if ansi.Width(r) > 12 {
			t.Fatalf("a row is wider than the pane: %q", r)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 3, Height: 2})
	if m.reader.hoff > m.reader.maxShift() {
		t.Fatalf("offset %d beyond %d after shrinking", m.reader.hoff, m.reader.maxShift())
	}
	_ = screen(m)
}

// TestSidewaysPositionGivesWayToTheFocus: the status bar's sideways
// position is dropped before the focused link's target loses anything.
func TestSidewaysPositionGivesWayToTheFocus(t *testing.T) {
	src := "See [the guide](https://ex.com/g) first.\n\n" + sidewaysNote
	m := newTest(t, src, 60, 30, nil)
	if !strings.Contains(status(m), "cols 1-60/") {
		t.Fatalf("no sideways position: %q", status(m))
	}
	press(m, "tab")
	bar := status(m)
	if !strings.Contains(bar, "link → https://ex.com/g") || strings.Contains(bar, "cols") {
		t.Fatalf("the focused link's target is cut for the sideways position: %q", bar)
	}
}
