package viewer

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// fixedNow keeps relative dates stable in tests.
var fixedNow = func() time.Time { return time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC) }

// longNote is a note with sections, paragraphs and a search target.
func longNote(sections, paras int) string {
	var b strings.Builder
	b.WriteString("# Top\n\nIntro paragraph.\n\n")
	for s := 1; s <= sections; s++ {
		fmt.Fprintf(&b, "## Section %d\n\n", s)
		for p := 1; p <= paras; p++ {
			fmt.Fprintf(&b, "Paragraph %d.%d of the note, long enough to wrap when the terminal is narrow enough to make it.\n\n", s, p)
		}
	}
	b.WriteString("The needle hides at the very end.\n")
	return b.String()
}

// newTest makes a model over src at w×h cells, sized like a terminal.
func newTest(t *testing.T, src string, w, h int, edit func(*Options)) *Model {
	t.Helper()
	opt := Options{
		Note:  &Note{Name: "test.mk.md", Source: []byte(src)},
		Level: ansi.TrueColor,
		Theme: theme.Dark,
		Now:   fixedNow,
		Width: w,
	}
	if edit != nil {
		edit(&opt)
	}
	m := New(opt)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// keyMsg turns a key name as bubbletea spells it into a key press.
func keyMsg(k string) tea.KeyPressMsg {
	names := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace, "space": tea.KeySpace,
	}
	if c, ok := names[k]; ok {
		msg := tea.KeyPressMsg{Code: c}
		if c == tea.KeySpace {
			msg.Text = " "
		}
		return msg
	}
	if k == "shift+tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(c)[0], Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("keyMsg: not one key: " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// press sends keys and runs the commands they return that finish at
// once (not timers or runs), returning the last command's message.
func press(m *Model, ks ...string) tea.Cmd {
	var last tea.Cmd
	for _, k := range ks {
		_, last = m.Update(keyMsg(k))
	}
	return last
}

// typeText sends each rune of s as a key.
func typeText(m *Model, s string) {
	for _, r := range s {
		if r == ' ' {
			m.Update(keyMsg("space"))
			continue
		}
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen is the frame without escape sequences.
func screen(m *Model) string { return xansi.Strip(m.frame()) }

// rows is the frame's lines without escapes.
func rows(m *Model) []string { return strings.Split(screen(m), "\n") }

// firstRow is the top line of the note on screen.
func firstRow(m *Model) string { return strings.TrimSpace(rows(m)[0]) }

// status is the status bar.
func status(m *Model) string {
	r := rows(m)
	return r[len(r)-1]
}

// isQuit reports whether cmd quits the program.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// mustContain fails unless the frame contains every want.
func mustContain(t *testing.T, m *Model, want ...string) {
	t.Helper()
	s := screen(m)
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("frame lacks %q:\n%s", w, s)
		}
	}
}

func mustLack(t *testing.T, m *Model, bad ...string) {
	t.Helper()
	s := screen(m)
	for _, w := range bad {
		if strings.Contains(s, w) {
			t.Fatalf("frame has %q:\n%s", w, s)
		}
	}
}

// xstrip removes escape sequences from a frame.
func xstrip(s string) string { return xansi.Strip(s) }
