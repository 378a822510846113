package viewer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
)

// TestLessKeys checks that each key a less user's fingers know does what
// it does in less.
func TestLessKeys(t *testing.T) {
	const h = 11 // rows of note in a 12-row terminal
	type want struct {
		top  int // -1: the end
		line int // the page line at the top, counted from 1 (0: not checked)
	}
	cases := []struct {
		keys []string
		want want
	}{
		{[]string{"j"}, want{top: 1}},
		{[]string{"down"}, want{top: 1}},
		{[]string{"ctrl+e"}, want{top: 1}},
		{[]string{"ctrl+n"}, want{top: 1}},
		{[]string{"enter"}, want{top: 1}},
		{[]string{"5", "j"}, want{top: 5}},
		{[]string{"5", "j", "3", "k"}, want{top: 2}},
		{[]string{"4", "enter"}, want{top: 4}},
		{[]string{"j", "j", "k"}, want{top: 1}},
		{[]string{"j", "j", "ctrl+y"}, want{top: 1}},
		{[]string{"j", "j", "ctrl+p"}, want{top: 1}},
		{[]string{"j", "j", "y"}, want{top: 1}},
		{[]string{"space"}, want{top: h}},
		{[]string{"f"}, want{top: h}},
		{[]string{"ctrl+f"}, want{top: h}},
		{[]string{"pgdown"}, want{top: h}},
		{[]string{"f", "f", "b"}, want{top: h}},
		{[]string{"f", "f", "ctrl+b"}, want{top: h}},
		{[]string{"f", "f", "pgup"}, want{top: h}},
		{[]string{"f", "f", "w"}, want{top: h}},
		{[]string{"d"}, want{top: h / 2}},
		{[]string{"ctrl+d"}, want{top: h / 2}},
		{[]string{"d", "d", "u"}, want{top: h / 2}},
		{[]string{"d", "d", "ctrl+u"}, want{top: h / 2}},
		// A count before d or u is their distance from then on.
		{[]string{"3", "d"}, want{top: 3}},
		{[]string{"3", "d", "d", "d"}, want{top: 9}},
		{[]string{"3", "d", "d", "u"}, want{top: 3}},
		{[]string{"G"}, want{top: -1}},
		{[]string{">"}, want{top: -1}},
		{[]string{"end"}, want{top: -1}},
		{[]string{"G", "g"}, want{top: 0}},
		{[]string{"G", "<"}, want{top: 0}},
		{[]string{"G", "home"}, want{top: 0}},
		{[]string{"1", "2", "0", "g"}, want{line: 120}},
		{[]string{"1", "2", "0", "G"}, want{line: 120}},
		{[]string{"G", "p"}, want{top: 0}},
		{[]string{"G", "%"}, want{top: 0}},
	}
	for _, c := range cases {
		m := newTest(t, longNote(20, 3), 80, 12, nil)
		press(m, c.keys...)
		switch {
		case c.want.line > 0:
			if got := m.reader.topLine() + 1; got != c.want.line {
				t.Errorf("%v: top line %d, want %d", c.keys, got, c.want.line)
			}
		case c.want.top < 0:
			if m.reader.top != m.reader.maxTop() {
				t.Errorf("%v: top row %d, want the end (%d)", c.keys, m.reader.top, m.reader.maxTop())
			}
		case m.reader.top != c.want.top:
			t.Errorf("%v: top row %d, want %d", c.keys, m.reader.top, c.want.top)
		}
	}
	// N% and Np go N percent in, as the status bar counts it.
	for _, k := range []string{"%", "p"} {
		m := newTest(t, longNote(20, 3), 80, 12, nil)
		press(m, "5", "0", k)
		if st := status(m); !strings.Contains(st, " 50%") {
			t.Errorf("50%s: status %q", k, st)
		}
	}
}

func TestCountShowsWhileTyped(t *testing.T) {
	m := newTest(t, longNote(20, 3), 80, 12, nil)
	press(m, "1", "2")
	if st := status(m); !strings.Contains(st, "12 ") {
		t.Fatalf("typed count not shown: %q", st)
	}
	press(m, "esc")
	if m.reader.counted || m.reader.top != 0 {
		t.Fatalf("esc kept the count (counted %v) or moved (top %d)", m.reader.counted, m.reader.top)
	}
	press(m, "j")
	if m.reader.top != 1 {
		t.Fatalf("j after a cancelled count moved to %d", m.reader.top)
	}
}

func TestPositionKeys(t *testing.T) {
	for _, k := range []string{"=", "ctrl+g"} {
		m := newTest(t, longNote(20, 3), 80, 12, nil)
		press(m, "j", "j", k)
		n := m.reader.pg.lineCount()
		want := "lines 3-13 of " + strconv.Itoa(n)
		st := status(m)
		if !strings.Contains(st, want) {
			t.Errorf("%s: status %q lacks %q", k, st, want)
		}
		// The percent is the one the status bar shows, said once.
		pct := " " + strconv.Itoa(m.reader.percent()) + "%"
		if strings.Count(st, pct) != 2 {
			t.Errorf("%s: status %q does not show %q twice (message and bar)", k, st, pct)
		}
		if strings.Count(st, m.reader.note.Name) != 1 {
			t.Errorf("%s: status %q names the note more than once", k, st)
		}
		// The message goes with the next key, as in less.
		press(m, "j")
		if st := status(m); strings.Contains(st, "lines ") {
			t.Errorf("%s then j: the position stayed: %q", k, st)
		}
	}
}

// A count before g or G is a line of the whole note even while the note
// is still loading.
func TestLineJumpWhileLoadingLandsWhenTheNoteArrives(t *testing.T) {
	src := longNote(3000, 2)
	for _, k := range []string{"g", "G"} {
		m := newTest(t, src, 80, 20, nil)
		if !m.reader.loading {
			t.Fatalf("a %d-byte note was laid out at once", len(src))
		}
		loaded := m.reader.pg.lineCount()
		line := loaded + 500
		press(m, append(strings.Split(strconv.Itoa(line), ""), k)...)
		m.Update(m.reader.layoutFull()())
		if m.reader.loading {
			t.Fatal("the whole page did not arrive")
		}
		if got := m.reader.topLine() + 1; got != line {
			t.Errorf("%d%s while loading (%d lines there): top line %d, want %d", line, k, loaded, got, line)
		}
	}
}

func TestHelpAndDiagnosticsKeys(t *testing.T) {
	m := newTest(t, longNote(2, 2), 100, 40, nil)
	press(m, "h")
	if m.paneKind != helpPane {
		t.Fatal("h did not open the help")
	}
	press(m, "h")
	if m.pane != nil {
		t.Fatal("h did not close the help")
	}
	press(m, "d")
	if m.pane != nil {
		t.Fatal("d opened a pane; it is half a page down")
	}
	press(m, "D")
	if m.paneKind != diagPane {
		t.Fatal("D did not open the diagnostics")
	}
	press(m, "D")
	if m.pane != nil {
		t.Fatal("D did not close the diagnostics")
	}
}

func TestSearchKeysSayWhatHappened(t *testing.T) {
	m := newTest(t, longNote(10, 3), 80, 12, nil)
	press(m, "n")
	if st := status(m); !strings.Contains(st, "no search yet") {
		t.Fatalf("n with no search: status %q", st)
	}
	press(m, "/")
	typeText(m, "Paragraph 4.")
	press(m, "enter")
	if len(m.reader.search.matches) != 3 || m.reader.search.current != 0 {
		t.Fatalf("matches %d, current %d", len(m.reader.search.matches), m.reader.search.current)
	}
	// An empty search repeats the last one: to the next match.
	press(m, "/", "enter")
	if m.reader.search.query != "Paragraph 4." || m.reader.search.current != 1 {
		t.Fatalf("empty / did not repeat the search: query %q, current %d", m.reader.search.query, m.reader.search.current)
	}
	// n and N go on after esc has cleared the marks, from the screen,
	// as in less.
	press(m, "esc", "g")
	if m.reader.search.query != "" {
		t.Fatalf("esc kept the search marks (query %q)", m.reader.search.query)
	}
	press(m, "n")
	if m.reader.search.query != "Paragraph 4." || m.reader.search.current != 0 || !strings.Contains(screen(m), "Paragraph 4.1") {
		t.Fatalf("n after esc: query %q, current %d\n%s", m.reader.search.query, m.reader.search.current, screen(m))
	}
	press(m, "esc", "G", "N")
	if m.reader.search.query != "Paragraph 4." || m.reader.search.current != 2 {
		t.Fatalf("N after esc at the end: query %q, current %d", m.reader.search.query, m.reader.search.current)
	}
	// Also an empty search.
	press(m, "esc", "g", "/", "enter")
	if m.reader.search.query != "Paragraph 4." || len(m.reader.search.matches) != 3 {
		t.Fatalf("empty / after esc: query %q, %d matches", m.reader.search.query, len(m.reader.search.matches))
	}
	if !strings.Contains(screen(m), "Paragraph 4.1") {
		t.Fatalf("the repeated search did not show its match:\n%s", screen(m))
	}
	press(m, "/")
	typeText(m, "nowhere-at-all")
	press(m, "enter", "n")
	if st := status(m); !strings.Contains(st, "no matches for nowhere-at-all") {
		t.Fatalf("n with no matches: status %q", st)
	}
}

// TestEscThenAKeyTypedFastIsBothKeys sends Esc and a key as one alt
// key, as a terminal delivers them when they arrive together: the viewer
// binds no alt keys, so it is Esc and then the key.
func TestEscThenAKeyTypedFastIsBothKeys(t *testing.T) {
	m := newTest(t, longNote(10, 3), 80, 12, nil)
	press(m, "/")
	typeText(m, "Paragraph 4.")
	press(m, "enter")
	if len(m.reader.search.matches) == 0 {
		t.Fatal("the search found nothing")
	}
	// Esc clears the search, then j scrolls a line.
	top := m.reader.top
	m.Update(tea.KeyPressMsg{Code: 'j', Mod: tea.ModAlt})
	if len(m.reader.search.matches) != 0 || m.reader.top != top+1 {
		t.Fatalf("esc+j: %d matches left, top %d (was %d)", len(m.reader.search.matches), m.reader.top, top)
	}
	// In the prompt, Esc closes it and the key is a reader key.
	press(m, "/")
	typeText(m, "Para")
	m.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModAlt})
	if m.reader.search.editing || m.pane == nil {
		t.Fatalf("esc+t in the prompt: editing %v, pane %v", m.reader.search.editing, m.pane != nil)
	}
	// Esc closes the pane, then q quits.
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Mod: tea.ModAlt})
	if m.pane != nil || !isQuit(cmd) {
		t.Fatalf("esc+q over the contents: pane open %v, quit %v", m.pane != nil, isQuit(cmd))
	}
}

func TestPasteIsKeysOrQuery(t *testing.T) {
	m := newTest(t, longNote(10, 3), 80, 12, nil)
	m.Update(tea.PasteMsg{Content: "jjj"})
	if m.reader.top != 3 {
		t.Fatalf("pasted jjj moved to row %d", m.reader.top)
	}
	press(m, "/")
	m.Update(tea.PasteMsg{Content: "Paragraph 7.2\n"})
	if string(m.reader.search.input) != "Paragraph 7.2 " || !m.reader.search.editing {
		t.Fatalf("paste into the prompt: input %q, editing %v", string(m.reader.search.input), m.reader.search.editing)
	}
	press(m, "backspace", "enter")
	if m.reader.search.query != "Paragraph 7.2" || len(m.reader.search.matches) != 1 {
		t.Fatalf("pasted query %q found %d", m.reader.search.query, len(m.reader.search.matches))
	}
	// g, /, a query and Enter pasted at once.
	m = newTest(t, longNote(10, 3), 80, 12, nil)
	m.Update(tea.PasteMsg{Content: "G"})
	m.Update(tea.PasteMsg{Content: "g/needle\r"})
	if m.reader.search.editing || m.reader.search.query != "needle" || len(m.reader.search.matches) != 1 {
		t.Fatalf("g/needle⏎ pasted: editing %v, query %q, %d matches", m.reader.search.editing, m.reader.search.query, len(m.reader.search.matches))
	}
}

// TestEditOpensTheEditorAndReloads runs a real editor command through
// the running program: the viewer suspends, the command rewrites the
// file, and the viewer shows the new text.
func TestEditOpensTheEditorAndReloads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "edit.mk.md")
	if err := os.WriteFile(path, []byte("# Before\n\nOld text.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"e", "v"} {
		if err := os.WriteFile(path, []byte("# Before\n\nOld text.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(path)
		m := New(Options{
			Note:   &Note{Name: "edit.mk.md", Path: path, Source: src},
			Level:  0,
			Width:  80,
			Now:    fixedNow,
			Load:   fileLoader(new([]string)),
			Editor: []string{"sh", "-c", `printf '# After %s\n\nNew text.\n' "$0" > "$1"`, k},
		})
		tm, sh := startProgram(t, m, 80, 12)
		waitFrame(t, sh, "Old text.")
		tm.Send(keyMsg(k))
		waitFrame(t, sh, "After "+k, "New text.", "reloaded")
		tm.Send(keyMsg("q"))
		tm.WaitFinished(t)
	}
	// Without a file there is nothing to edit, and the viewer says so.
	m := newTest(t, "# Piped\n", 80, 12, func(o *Options) { o.Editor = []string{"false"} })
	if cmd := press(m, "e"); cmd != nil {
		t.Fatal("e on a note without a file started something")
	}
	if st := status(m); !strings.Contains(st, "nothing to edit") {
		t.Fatalf("status %q", st)
	}
}

// TestJumpsWhileLoadingLandWhenTheNoteArrives presses G, N% and searches
// while a long note is still being laid out: each ends where it would
// have on the whole note.
func TestJumpsWhileLoadingLandWhenTheNoteArrives(t *testing.T) {
	src := longNote(3000, 2)
	load := func(keys ...string) *Model {
		m := newTest(t, src, 80, 20, nil)
		if !m.reader.loading {
			t.Fatalf("a %d-byte note was laid out at once", len(src))
		}
		press(m, keys...)
		full := m.reader.layoutFull()
		m.Update(full())
		if m.reader.loading {
			t.Fatal("the whole page did not arrive")
		}
		return m
	}
	m := load("G")
	if m.reader.top != m.reader.maxTop() || !strings.Contains(status(m), "100%") {
		t.Fatalf("G while loading: top %d of %d, status %q", m.reader.top, m.reader.maxTop(), status(m))
	}
	m = load("5", "0", "%")
	if st := status(m); !strings.Contains(st, " 50%") {
		t.Fatalf("50%% while loading: status %q", st)
	}
	// A key after the jump is the reader's own place again.
	m = load("G", "g")
	if m.reader.top != 0 {
		t.Fatalf("G g while loading: top %d", m.reader.top)
	}
	m = newTest(t, src, 80, 20, nil)
	press(m, "/")
	typeText(m, "needle")
	press(m, "enter")
	if len(m.reader.search.matches) != 0 {
		t.Fatal("the needle was found before the end of the note arrived")
	}
	m.Update(m.reader.layoutFull()())
	if len(m.reader.search.matches) != 1 || !strings.Contains(screen(m), "The needle hides at the very end.") {
		t.Fatalf("the search did not go to its match when it arrived (%d matches):\n%s", len(m.reader.search.matches), screen(m))
	}

	// A contents jump made while loading keeps its heading at the top
	// once the whole note is there.
	m = newTest(t, src, 80, 20, nil)
	press(m, "t")
	mustContain(t, m, "Contents (more as the note loads)")
	shown := len(m.pane.items)
	press(m, "j", "j", "j", "j", "j", "enter")
	want := firstRow(m)
	if !strings.HasPrefix(want, "Section ") {
		t.Fatalf("the contents jump went to %q", want)
	}
	m.Update(m.reader.layoutFull()())
	if got := firstRow(m); got != want {
		t.Fatalf("after the load the top row is %q, want %q", got, want)
	}
	// Contents open while the note arrives list the whole note.
	m = newTest(t, src, 80, 20, nil)
	press(m, "t", "j")
	m.Update(m.reader.layoutFull()())
	if m.pane == nil || len(m.pane.items) <= shown || m.pane.cursor != 1 {
		t.Fatalf("the open contents did not grow with the note (%v items, cursor %d)", m.pane, m.pane.cursor)
	}
	press(m, "G")
	mustContain(t, m, "Section 3000")
	mustLack(t, m, "more as the note loads")
}

// TestDiagnosticsPaneShowsEachEntryInFull wraps a long diagnostic instead
// of cutting it, and scrolls through it.
func TestDiagnosticsPaneShowsEachEntryInFull(t *testing.T) {
	words := make([]string, 60)
	for i := range words {
		words[i] = "word" + strconv.Itoa(i)
	}
	long := strings.Join(words, " ")
	m := newTest(t, longNote(2, 2), 50, 8, func(o *Options) { o.Note.Diagnostics = []string{long, "short one"} })
	press(m, "D")
	seen := ""
	for i := 0; i < 30; i++ {
		seen += screen(m)
		press(m, "j")
	}
	for _, w := range append(words, "short one") {
		if !strings.Contains(seen, w+" ") && !strings.Contains(seen, w+"\n") {
			t.Fatalf("the pane never showed %q:\n%s", w, seen)
		}
	}
	if strings.Contains(seen, "…") {
		t.Fatalf("an entry was cut:\n%s", seen)
	}
	// A narrower terminal wraps the entries again, to its width.
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 8})
	if m.paneKind != diagPane {
		t.Fatal("a resize closed the diagnostics")
	}
	seen = ""
	for i := 0; i < 60; i++ {
		for _, row := range strings.Split(screen(m), "\n") {
			if w := ansi.Width(row); w > 30 {
				t.Fatalf("a row %d cells wide in a 30-cell terminal: %q", w, row)
			}
		}
		seen += screen(m)
		press(m, "j")
	}
	for _, w := range append(words, "short one") {
		if !strings.Contains(seen, w+" ") && !strings.Contains(seen, w+"\n") {
			t.Fatalf("after the resize the pane never showed %q:\n%s", w, seen)
		}
	}
}

// TestFocusedLinkShowsItsTarget puts a focused web link's address in the
// status bar at once, and a long one in full above it.
func TestFocusedLinkShowsItsTarget(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("segment/", 12) + "end"
	m := newTest(t, "# T\n\nSee [a](https://a.example/x) and [b]("+long+").\n", 60, 12, nil)
	press(m, "tab")
	if st := status(m); !strings.Contains(st, "link → https://a.example/x") {
		t.Fatalf("status %q", st)
	}
	press(m, "tab")
	if s := strings.ReplaceAll(screen(m), "\n", ""); !strings.Contains(s, "→ "+long) {
		t.Fatalf("the long address is not shown in full:\n%s", screen(m))
	}
}
