package viewer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
)

func TestFirstFrameShowsNoteAndStatus(t *testing.T) {
	m := newTest(t, longNote(5, 3), 60, 12, nil)
	if got := firstRow(m); got != "Top" {
		t.Fatalf("top row = %q, want the first heading", got)
	}
	st := status(m)
	for _, w := range []string{"test.mk.md", "line 1/", " 0%"} {
		if !strings.Contains(st, w) {
			t.Fatalf("status bar %q lacks %q", st, w)
		}
	}
	if n := len(rows(m)); n != 12 {
		t.Fatalf("frame has %d rows, want the terminal's 12", n)
	}
}

func TestScrollKeys(t *testing.T) {
	src := longNote(20, 3)
	cases := []struct {
		name string
		keys []string
		top  func(m *Model) int
	}{
		{"j", []string{"j"}, func(*Model) int { return 1 }},
		{"down", []string{"down", "down"}, func(*Model) int { return 2 }},
		{"k", []string{"j", "j", "j", "k"}, func(*Model) int { return 2 }},
		{"up", []string{"j", "j", "up"}, func(*Model) int { return 1 }},
		{"space", []string{"space"}, func(m *Model) int { return m.bodyHeight() }},
		{"f", []string{"f"}, func(m *Model) int { return m.bodyHeight() }},
		{"pgdown", []string{"pgdown", "pgdown"}, func(m *Model) int { return 2 * m.bodyHeight() }},
		{"b", []string{"pgdown", "pgdown", "b"}, func(m *Model) int { return m.bodyHeight() }},
		{"pgup", []string{"pgdown", "pgup"}, func(*Model) int { return 0 }},
		{"ctrl+d", []string{"ctrl+d"}, func(m *Model) int { return m.bodyHeight() / 2 }},
		{"ctrl+u", []string{"ctrl+d", "ctrl+d", "ctrl+u"}, func(m *Model) int { return m.bodyHeight() / 2 }},
		{"G", []string{"G"}, func(m *Model) int { return m.reader.maxTop() }},
		{"end", []string{"end"}, func(m *Model) int { return m.reader.maxTop() }},
		{"g", []string{"G", "g"}, func(*Model) int { return 0 }},
		{"home", []string{"end", "home"}, func(*Model) int { return 0 }},
		{"k at top stays", []string{"k"}, func(*Model) int { return 0 }},
		{"j at end stays", []string{"G", "j"}, func(m *Model) int { return m.reader.maxTop() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTest(t, src, 60, 12, nil)
			want := m.reader.pg.lineText(c.top(m))
			press(m, c.keys...)
			if m.reader.top != c.top(m) {
				t.Fatalf("top = %d, want %d", m.reader.top, c.top(m))
			}
			if got := rows(m)[0]; strings.TrimRight(got, " ") != strings.TrimRight(want, " ") {
				t.Fatalf("first row %q, want %q", got, want)
			}
		})
	}
}

func TestMouseWheelScrolls(t *testing.T) {
	m := newTest(t, longNote(10, 3), 60, 12, nil)
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.reader.top != 6 {
		t.Fatalf("two wheel notches down: top = %d, want 6", m.reader.top)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.reader.top != 3 {
		t.Fatalf("one notch up: top = %d, want 3", m.reader.top)
	}
	if !strings.Contains(status(m), "line 4/") {
		t.Fatalf("status %q does not show line 4", status(m))
	}
}

func TestStatusShowsPercentAtEnd(t *testing.T) {
	m := newTest(t, longNote(10, 3), 60, 12, nil)
	press(m, "G")
	if st := status(m); !strings.Contains(st, "100%") || !strings.Contains(st, "(end)") {
		t.Fatalf("status at the end = %q", st)
	}
}

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "Q", "ctrl+c"} {
		m := newTest(t, longNote(2, 2), 60, 12, nil)
		if !isQuit(press(m, k)) {
			t.Fatalf("%s does not quit", k)
		}
	}
	// Esc leaves search, focus and panes, and then does nothing: it never
	// quits, as in less.
	m := newTest(t, longNote(2, 2), 60, 12, nil)
	press(m, "/")
	typeText(m, "para")
	press(m, "enter")
	if isQuit(press(m, "esc")) {
		t.Fatal("esc with a search active quit instead of clearing the search")
	}
	if m.reader.search.query != "" {
		t.Fatalf("esc left the query %q", m.reader.search.query)
	}
	for i := 0; i < 3; i++ {
		if isQuit(press(m, "esc")) {
			t.Fatal("esc quit the viewer")
		}
	}
	mustContain(t, m, "Top", "test.mk.md")
}

func TestHelpListsEveryKey(t *testing.T) {
	m := newTest(t, longNote(2, 2), 100, 40, nil)
	press(m, "h")
	if m.pane == nil || m.paneKind != helpPane {
		t.Fatal("h did not open the help")
	}
	for _, r := range helpRows(false) {
		mustContain(t, m, r[0], r[1])
	}
	for _, k := range []string{"j ↓ ctrl+e", "k ↑ y ctrl+y", "space f ctrl+f", "b w ctrl+b PgUp", "d ctrl+d", "u ctrl+u", "g < Home", "G > End", "N% Np", "/", "n", "N", "t", "[", "]", "tab", "shift+tab", "← →", "shift+← →", "enter", "z", "Z", "r", "D", "o", "backspace", "e v", "= ctrl+g", "h F1", "q Q ctrl+c", "0-9", "?", "m<letter>", "'<letter> ''", ":n :p", "ctrl+l"} {
		mustContain(t, m, k)
	}
	// The wheel scrolls only when the mouse was asked for.
	mustLack(t, m, "mouse wheel")
	press(m, "esc")
	if m.pane != nil {
		t.Fatal("esc did not close the help")
	}
	mustContain(t, m, "Top")
}

func TestResizeLaysOutAgainKeepingPlace(t *testing.T) {
	m := newTest(t, longNote(8, 4), 100, 14, nil)
	// Put section 5's heading at the top.
	for i := 0; i < 5; i++ {
		press(m, "]")
	}
	if got := firstRow(m); got != "Section 5" {
		t.Fatalf("after five ] the top row is %q", got)
	}
	wide := m.reader.pg.lineCount()
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 14})
	if m.reader.pg.lineCount() <= wide {
		t.Fatalf("narrower terminal did not rewrap: %d lines at 40 vs %d at 100", m.reader.pg.lineCount(), wide)
	}
	if got := firstRow(m); got != "Section 5" {
		t.Fatalf("after resize the top row is %q, want Section 5", got)
	}
	for _, r := range rows(m) {
		if w := len([]rune(r)); w > 40 {
			t.Fatalf("row wider than the terminal (%d): %q", w, r)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	if got := firstRow(m); got != "Section 5" {
		t.Fatalf("after widening the top row is %q", got)
	}
	if m.bodyHeight() != 19 {
		t.Fatalf("body height %d after the terminal grew to 20 rows", m.bodyHeight())
	}
}

func TestHeadingJumps(t *testing.T) {
	m := newTest(t, longNote(4, 2), 100, 10, nil)
	press(m, "]")
	if got := firstRow(m); got != "Section 1" {
		t.Fatalf("] went to %q", got)
	}
	press(m, "]", "]")
	if got := firstRow(m); got != "Section 3" {
		t.Fatalf("]]] went to %q", got)
	}
	press(m, "[")
	if got := firstRow(m); got != "Section 2" {
		t.Fatalf("[ went to %q", got)
	}
}

func TestTableOfContents(t *testing.T) {
	m := newTest(t, longNote(6, 2), 100, 12, nil)
	press(m, "t")
	mustContain(t, m, "Contents", "Top", "  Section 1", "  Section 6")
	press(m, "j", "j", "j", "enter")
	if m.pane != nil {
		t.Fatal("enter did not close the contents")
	}
	if got := firstRow(m); got != "Section 3" {
		t.Fatalf("contents jumped to %q, want Section 3", got)
	}
	press(m, "t")
	if !strings.Contains(screen(m), "›   Section 3") {
		t.Fatalf("contents does not start at the current section:\n%s", screen(m))
	}
	press(m, "esc")
	if m.pane != nil {
		t.Fatal("esc did not close the contents")
	}
}

// widestLine is the widest laid-out line of m's page, in cells.
func widestLine(m *Model) int {
	w := 0
	for i := range m.reader.pg.lineCount() {
		w = max(w, ansi.Width(m.reader.pg.lineText(i)))
	}
	return w
}

func TestResizeLaysThePageOutAtTheCap(t *testing.T) {
	src := "# Wide\n\n" + strings.Repeat("A paragraph long enough to fill any terminal line at all. ", 20) + "\n"
	m := newTest(t, src, 100, 20, func(o *Options) { o.MaxWidth = 120 })
	if got := widestLine(m); got > 100 || got < 90 {
		t.Fatalf("at 100 columns the page is %d wide", got)
	}
	m.Update(tea.WindowSizeMsg{Width: 250, Height: 20})
	if m.reader.pageWidth != 120 || m.reader.pg.opt.Width != 120 {
		t.Fatalf("at 250 columns the page is laid out at %d (options %d), want the cap 120", m.reader.pageWidth, m.reader.pg.opt.Width)
	}
	if got := widestLine(m); got > 120 || got < 110 {
		t.Fatalf("at 250 columns the widest page line is %d cells, want about 120", got)
	}
	// The chrome takes the whole terminal.
	if got := ansi.Width(status(m)); got != 250 {
		t.Fatalf("the status bar is %d cells wide, want the terminal's 250", got)
	}
	m.Update(tea.WindowSizeMsg{Width: 70, Height: 20})
	if m.reader.pageWidth != 70 || widestLine(m) > 70 {
		t.Fatalf("at 70 columns the page is laid out at %d (widest line %d)", m.reader.pageWidth, widestLine(m))
	}
}

func TestCapFromSettingsHoldsAtEveryResize(t *testing.T) {
	src := strings.Repeat("Words that wrap at the cap and never past it. ", 30) + "\n"
	m := newTest(t, src, 60, 20, func(o *Options) { o.MaxWidth = 60 })
	for _, w := range []int{200, 90, 61, 300} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 20})
		if m.reader.pageWidth != 60 || widestLine(m) > 60 || widestLine(m) < 50 {
			t.Fatalf("at %d columns with a cap of 60 the page is laid out at %d (widest line %d)", w, m.reader.pageWidth, widestLine(m))
		}
	}
}

func TestWidthFlagHoldsAtEveryResize(t *testing.T) {
	src := strings.Repeat("Words that wrap at the given width and never past it. ", 30) + "\n"
	m := New(Options{Note: &Note{Name: "n", Source: []byte(src)}, Width: 30, FixedWidth: true, MaxWidth: 120, Now: fixedNow})
	for _, w := range []int{100, 250, 90, 20} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 20})
		if m.reader.pageWidth != 30 || widestLine(m) > 30 || widestLine(m) < 25 {
			t.Fatalf("at %d columns --width 30 laid the page out at %d (widest line %d)", w, m.reader.pageWidth, widestLine(m))
		}
		if m.width != w {
			t.Fatalf("the chrome's width is %d, want the terminal's %d", m.width, w)
		}
	}
	// Beyond the cap too: --width is never capped.
	m = New(Options{Note: &Note{Name: "n", Source: []byte(src)}, Width: 200, FixedWidth: true, MaxWidth: 120, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 250, Height: 20})
	if m.reader.pageWidth != 200 || widestLine(m) <= 120 {
		t.Fatalf("--width 200 laid the page out at %d (widest line %d)", m.reader.pageWidth, widestLine(m))
	}
}
