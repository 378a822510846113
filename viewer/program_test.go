package viewer

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// shown wraps a model run by a program and keeps the text of the last
// frame the program drew, so a test can wait for what is on screen (the
// renderer writes only what changed between frames).
type shown struct {
	*Model
	last *atomic.Pointer[string]
}

func newShown(m *Model) shown { return shown{Model: m, last: new(atomic.Pointer[string])} }

func (s shown) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := s.Model.Update(msg)
	return s, cmd
}

func (s shown) View() tea.View {
	v := s.Model.View()
	text := xstrip(v.Content)
	s.last.Store(&text)
	return v
}

// startProgram runs m as a bubbletea program at w×h cells.
func startProgram(t *testing.T, m *Model, w, h int) (*teatest.TestModel, shown) {
	t.Helper()
	s := newShown(m)
	return teatest.NewTestModel(t, s, teatest.WithInitialTermSize(w, h)), s
}

// waitFrame waits until the program has drawn a frame holding every want.
func waitFrame(t *testing.T, s shown, want ...string) {
	t.Helper()
	if err := waitFrameWithin(s, time.Second*5, want...); err != nil {
		t.Fatal(err)
	}
}

func waitFrameWithin(s shown, d time.Duration, want ...string) error {
	deadline := time.Now().Add(d)
	for {
		frame := ""
		if p := s.last.Load(); p != nil {
			frame = *p
		}
		ok := true
		for _, w := range want {
			if !strings.Contains(frame, w) {
				ok = false
			}
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no frame showed %q within %v; the last:\n%s", want, d, frame)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestProgramReadsTabsFoldsAndSearches drives the viewer as a running
// bubbletea program: keys in, drawn frames out.
func TestProgramReadsTabsFoldsAndSearches(t *testing.T) {
	src := widgetNote + longNote(4, 2)
	m := New(Options{Note: &Note{Name: "prog.mk.md", Source: []byte(src)}, Level: ansi.TrueColor, Theme: theme.Dark, Width: 80, Now: fixedNow})
	tm, sh := startProgram(t, m, 80, 16)
	waitFrame(t, sh, "prog.mk.md", "Widgets", "[First]")

	tm.Send(keyMsg("tab"))
	waitFrame(t, sh, "enter to open")
	tm.Send(keyMsg("enter"))
	waitFrame(t, sh, "The hidden body of the details.")
	tm.Send(keyMsg("tab"))
	tm.Send(keyMsg("right"))
	waitFrame(t, sh, "[Second]", "Body of the second tab.")

	tm.Send(keyMsg("esc"))
	tm.Send(keyMsg("/"))
	for _, r := range "needle" {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	waitFrame(t, sh, "1/1 matches", "hides at the very end")
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("esc"))

	tm.Send(keyMsg("g"))
	tm.Send(keyMsg("]"))
	tm.Send(keyMsg("z"))
	waitFrame(t, sh, "lines folded")
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 16})
	tm.Send(keyMsg("h"))
	waitFrame(t, sh, "Keys", "table of contents")
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	fm := tm.FinalModel(t).(shown).Model
	if fm.width != 50 || fm.reader.pg.opt.Width != 50 {
		t.Fatalf("the resize did not lay the note out at 50 columns (width %d)", fm.reader.pg.opt.Width)
	}
	if len(fm.reader.pg.folded) != 1 {
		t.Fatalf("folds after the run: %v", fm.reader.pg.folded)
	}
	if got := strings.TrimSpace(xstrip(fm.frame())); !strings.Contains(got, "lines folded") {
		t.Fatalf("final frame lost the fold:\n%s", got)
	}
}
