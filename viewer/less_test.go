package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// needleNote has 60 one-line paragraphs; "needle" is on 10, 30 and 50
// and "Needle" on 40.
func needleNote() string {
	var b strings.Builder
	b.WriteString("# Haystack\n\n")
	for i := 1; i <= 60; i++ {
		word := "straw"
		switch i {
		case 10, 30, 50:
			word = "needle"
		case 40:
			word = "Needle"
		}
		fmt.Fprintf(&b, "Para %d holds %s.\n\n", i, word)
	}
	return b.String()
}

// currentLine is the text of the page line the current match is on.
func currentLine(m *Model) string {
	s := m.reader.search
	if len(s.matches) == 0 {
		return ""
	}
	return m.reader.pg.lineText(s.matches[s.current].line)
}

func TestQuestionMarkSearchesBackward(t *testing.T) {
	m := newTest(t, needleNote(), 80, 12, nil)
	press(m, "?")
	typeText(m, "needle")
	if got := status(m); !strings.HasPrefix(got, "?needle") {
		t.Fatalf("the prompt is %q, want ?needle", got)
	}
	press(m, "enter")
	// From the top, backward wraps to the last match.
	if got := currentLine(m); !strings.Contains(got, "Para 50") || !strings.Contains(status(m), "4/4 matches") {
		t.Fatalf("?needle from the top landed on %q (%s)", got, status(m))
	}
	press(m, "n")
	if got := currentLine(m); !strings.Contains(got, "Para 40") {
		t.Fatalf("n after ? went to %q, want the match before (Para 40)", got)
	}
	press(m, "N")
	if got := currentLine(m); !strings.Contains(got, "Para 50") {
		t.Fatalf("N after ? went to %q, want the match after (Para 50)", got)
	}
	// / searches forward again, and n follows it.
	press(m, "esc", "g", "/")
	typeText(m, "needle")
	press(m, "enter", "n")
	if got := currentLine(m); !strings.Contains(got, "Para 30") {
		t.Fatalf("n after / went to %q, want Para 30", got)
	}
}

func TestSearchTakesARegularExpressionWithSmartCase(t *testing.T) {
	m := newTest(t, needleNote(), 80, 12, nil)
	for _, c := range []struct {
		query string
		n     int
	}{
		{"needle", 4},       // lowercase: either case
		{"Needle", 1},       // a capital: the case counts
		{"ne{2}dle", 4},     // an expression
		{"Para [1-3]0 ", 3}, // a class, case counted
		{`para \d+ holds n`, 4},
		{"(?-i)needle", 3}, // the expression's own flags win
		{"^para 60", 1},    // anchored at the line's start
	} {
		press(m, "esc", "/")
		typeText(m, c.query)
		press(m, "enter")
		if got := len(m.reader.search.matches); got != c.n {
			t.Errorf("/%s found %d, want %d", c.query, got, c.n)
		}
	}
	press(m, "esc", "/")
	typeText(m, "needle(")
	if got := status(m); !strings.Contains(got, "invalid pattern: missing closing )") {
		t.Fatalf("an invalid expression while typing: status %q", got)
	}
	press(m, "enter")
	if got := status(m); !strings.Contains(got, "invalid pattern: missing closing ): `needle(`") {
		t.Fatalf("an invalid expression after enter: status %q", got)
	}
	if len(m.reader.search.matches) != 0 {
		t.Fatal("an invalid expression found matches")
	}
}

func TestMarksAndTheLastJump(t *testing.T) {
	m := newTest(t, needleNote(), 80, 12, nil)
	press(m, "1", "5", "g")
	marked := m.reader.topLine()
	press(m, "m", "a")
	press(m, "G")
	if m.reader.topLine() == marked {
		t.Fatal("G did not move")
	}
	end := m.reader.topLine()
	press(m, "'", "a")
	if got := m.reader.topLine(); got != marked {
		t.Fatalf("'a went to line %d, want the marked %d", got, marked)
	}
	// '' returns to where the last jump ('a) started, and back again.
	press(m, "'", "'")
	if got := m.reader.topLine(); got != end {
		t.Fatalf("'' went to line %d, want %d where 'a started", got, end)
	}
	press(m, "'", "'")
	if got := m.reader.topLine(); got != marked {
		t.Fatalf("a second '' went to line %d, want %d", got, marked)
	}
	press(m, "'", "b")
	if got := status(m); !strings.Contains(got, "no mark b") {
		t.Fatalf("an unset mark: status %q", got)
	}
	// A search is a jump too.
	press(m, "g", "/")
	typeText(m, "Needle")
	press(m, "enter")
	found := m.reader.topLine()
	press(m, "'", "'")
	if got := m.reader.topLine(); got != 0 || found == 0 {
		t.Fatalf("'' after a search went to line %d, want the top it started from", got)
	}
}

func TestCtrlLRepaints(t *testing.T) {
	m := newTest(t, needleNote(), 80, 12, nil)
	cmd := press(m, "ctrl+l")
	if cmd == nil {
		t.Fatal("ctrl+l returned no command")
	}
	if got := fmt.Sprintf("%T", cmd()); got != fmt.Sprintf("%T", tea.ClearScreen()) {
		t.Fatalf("ctrl+l sent %s, not a repaint", got)
	}
}

func TestMouseIsTheTerminalsUnlessAskedFor(t *testing.T) {
	m := newTest(t, needleNote(), 80, 12, nil)
	if v := m.View(); v.MouseMode != tea.MouseModeNone {
		t.Fatalf("the viewer takes the mouse by default (mode %v)", v.MouseMode)
	}
	m = newTest(t, needleNote(), 80, 12, func(o *Options) { o.Mouse = true })
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("Mouse did not turn the wheel on (mode %v)", v.MouseMode)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.reader.top != 3 {
		t.Fatalf("the wheel scrolled to %d, want 3", m.reader.top)
	}
	press(m, "h", "G")
	mustContain(t, m, "mouse wheel")
}

func TestNextAndPreviousFile(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"a.mk.md", "b.mk.md", "c.mk.md"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("# "+strings.ToUpper(name[:1])+" note\n\nThe body of "+name+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	open := func(p string) (*Note, Runner, error) {
		b, err := os.ReadFile(p)
		return &Note{Name: filepath.Base(p), Path: p, Source: b}, nil, err
	}
	first, _, _ := open(files[0])
	m := newTest(t, "", 80, 12, func(o *Options) { o.Note, o.Files, o.Open = first, files, open })
	if got := status(m); !strings.Contains(got, "a.mk.md (file 1 of 3)") {
		t.Fatalf("status %q does not say which file of how many", got)
	}
	press(m, ":", "p")
	if got := status(m); !strings.Contains(got, "no previous file") {
		t.Fatalf(":p on the first file: status %q", got)
	}
	press(m, ":", "n")
	mustContain(t, m, "The body of b.mk.md.", "b.mk.md (file 2 of 3)")
	press(m, ":", "n")
	mustContain(t, m, "The body of c.mk.md.", "c.mk.md (file 3 of 3)")
	press(m, ":", "n")
	mustContain(t, m, "no next file", "The body of c.mk.md.")
	press(m, ":", "p", ":", "p")
	mustContain(t, m, "The body of a.mk.md.", "a.mk.md (file 1 of 3)")
	// A mark in another file says where it is.
	press(m, "m", "x", ":", "n", "'", "x")
	mustContain(t, m, "mark x is in a.mk.md")
}

// TestStatusBarCutsTheNamesMiddleFirst: a long file name loses its middle
// before the focused link's target or a message loses anything.
func TestStatusBarCutsTheNamesMiddleFirst(t *testing.T) {
	long := "a-very-long-file-name-that-goes-on-and-on-and-on-for-ever.mk.md"
	m := newTest(t, "# Links\n\nSee [the docs](https://example.com/docs/getting-started) now.\n", 80, 12, func(o *Options) { o.Note.Name = long })
	press(m, "tab")
	bar := status(m)
	if !strings.Contains(bar, "link → https://example.com/docs/getting-started") {
		t.Fatalf("the focused link's target is cut: %q", bar)
	}
	if !strings.Contains(bar, " a-very-…r.mk.md ·") || len([]rune(bar)) != 80 {
		t.Fatalf("the name did not lose its middle: %q", bar)
	}
	press(m, "esc", "'", "q")
	if bar := status(m); !strings.Contains(bar, "no mark q (mq marks a place)") {
		t.Fatalf("the message is cut: %q", bar)
	}
	// A short name is whole.
	m = newTest(t, "# Links\n", 80, 12, nil)
	if bar := status(m); !strings.HasPrefix(bar, " test.mk.md") {
		t.Fatalf("a short name was cut: %q", bar)
	}
}

// TestGraphemeModeDrawsClustersAsTheyAre: until the terminal declares
// grapheme mode a ZWJ sequence is drawn cell-safe; once it does, as it is.
func TestGraphemeModeDrawsClustersAsTheyAre(t *testing.T) {
	m := newTest(t, "Code by 👩‍💻 here.\n", 80, 12, nil)
	if got := screen(m); !strings.Contains(got, "Code by 👩 here.") || strings.Contains(got, "👩‍💻") {
		t.Fatalf("without grapheme mode the sequence is not drawn as its first emoji:\n%s", got)
	}
	m.Update(tea.ModeReportMsg{Mode: xansi.ModeUnicodeCore, Value: xansi.ModePermanentlyReset})
	if got := screen(m); strings.Contains(got, "👩‍💻") {
		t.Fatalf("a terminal without the mode got the whole sequence:\n%s", got)
	}
	m.Update(tea.ModeReportMsg{Mode: xansi.ModeUnicodeCore, Value: xansi.ModeReset})
	if got := screen(m); !strings.Contains(got, "Code by 👩‍💻 here.") {
		t.Fatalf("with grapheme mode the sequence is not drawn whole:\n%s", got)
	}
}
