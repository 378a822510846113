package viewer

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// waitFrame waits until the program has drawn every want.
func waitFrame(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

// TestProgramReadsTabsFoldsAndSearches drives the viewer as a running
// bubbletea program: keys in, drawn frames out.
func TestProgramReadsTabsFoldsAndSearches(t *testing.T) {
	src := widgetNote + longNote(4, 2)
	m := New(Options{Note: &Note{Name: "prog.mk.md", Source: []byte(src)}, Level: ansi.TrueColor, Theme: theme.Dark, Width: 80, Now: fixedNow})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 16))
	waitFrame(t, tm, "prog.mk.md", "Widgets", "[First]")

	tm.Send(keyMsg("tab"))
	waitFrame(t, tm, "enter to open")
	tm.Send(keyMsg("enter"))
	waitFrame(t, tm, "The hidden body of the details.")
	tm.Send(keyMsg("tab"))
	tm.Send(keyMsg("right"))
	waitFrame(t, tm, "[Second]", "Body of the second tab.")

	tm.Send(keyMsg("esc"))
	tm.Send(keyMsg("/"))
	for _, r := range "needle" {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	waitFrame(t, tm, "1/1 matches", "hides at the very end")
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("esc"))

	tm.Send(keyMsg("g"))
	tm.Send(keyMsg("]"))
	tm.Send(keyMsg("z"))
	waitFrame(t, tm, "lines folded")
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 16})
	tm.Send(keyMsg("?"))
	waitFrame(t, tm, "Keys", "table of contents")
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	fm := tm.FinalModel(t).(*Model)
	if fm.width != 50 || fm.pg.opt.Width != 50 {
		t.Fatalf("the resize did not lay the note out at 50 columns (width %d)", fm.pg.opt.Width)
	}
	if len(fm.pg.folded) != 1 {
		t.Fatalf("folds after the run: %v", fm.pg.folded)
	}
	if got := strings.TrimSpace(xstrip(fm.View())); !strings.Contains(got, "lines folded") {
		t.Fatalf("final frame lost the fold:\n%s", got)
	}
}
