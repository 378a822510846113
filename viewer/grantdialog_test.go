package viewer

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestGrantDialogSaysWhatAYesMeans draws the real per-host question in the
// dialog: each of its lines appears on its own, warning included, and no
// line feed is folded into a space.
func TestGrantDialogSaysWhatAYesMeans(t *testing.T) {
	r := &scriptedRunner{question: grants.HostQuestion("127.0.0.1")}
	m := newTest(t, scriptNote, 100, 24, func(o *Options) { o.Runner = r })
	d := newDriver(m)
	d.key("r")
	d.untilDialog(t)
	mustContain(t, m, "This note's scripts can send data to 127.0.0.1.",
		"Warning: 127.0.0.1 is an address on your own machine,",
		"remembered for this exact code", "every path and port on 127.0.0.1", "unattended runs", "Allow?", "y allow")
	s := screen(m)
	if strings.Contains(s, "127.0.0.1. Warning") {
		t.Fatalf("the question's lines were joined:\n%s", s)
	}
	d.key("n")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
}

// ungrantableRunner reports one script whose address could never be
// granted, as the run service types it.
type ungrantableRunner struct{}

func (ungrantableRunner) Run(ctx context.Context, trigger script.Trigger, ask Asker, report func(Progress)) error {
	report(Progress{Kind: ProgressPlan, Scripts: []string{"stars"}})
	o := script.Outcome{Name: "stars", Kind: value.CapabilityDenied, Capability: script.CapNet, Host: "api.example.com",
		Reason: script.DenialUngrantable, Detail: "network access to api.example.com was not granted"}
	report(Progress{Kind: ProgressDone, Script: "stars", Outcome: o})
	return nil
}

// TestDiagnosticsSayWhenNothingCanBeGranted: the diagnostics pane tells
// the reader a grant cannot help, instead of "needs permission".
func TestDiagnosticsSayWhenNothingCanBeGranted(t *testing.T) {
	m := newTest(t, scriptNote, 140, 16, func(o *Options) { o.Runner = ungrantableRunner{} })
	d := newDriver(m)
	d.key("r")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
	d.key("D")
	mustContain(t, m, "Diagnostics", "stars: cannot be granted: this script builds its address at run time")
	mustLack(t, m, "needs permission")
}

// TestGrantDialogHearsOnlyAnswersToItself: keys that reach the viewer in
// the same burst as the question, or before a frame has shown the dialog,
// never answer it, whatever they are; a key after the dialog was drawn
// and seen does.
func TestGrantDialogHearsOnlyAnswersToItself(t *testing.T) {
	for _, answer := range []string{"y", "n"} {
		r := &scriptedRunner{question: grants.HostQuestion("api.example.com")}
		m := newTest(t, scriptNote, 100, 24, func(o *Options) { o.Runner = r })
		d := newDriver(m)
		d.key("r")
		d.until(t, "the question", func() bool { return m.run.asking != nil })
		// Typed ahead, in the burst that brought the question: before
		// any frame showed it.
		d.key("y")
		d.key("enter")
		d.send(tea.PasteMsg{Content: "y\ry\r"})
		if m.run.asking == nil {
			t.Fatalf("keys that came before the dialog was drawn answered it (%v)", r.answers)
		}
		// Time passes without a frame: the dialog is still not armed.
		d.deliverFor(3 * dialogArmDelay)
		d.key("y")
		if m.run.asking == nil || m.run.asking.armed {
			t.Fatal("a dialog no frame has shown took an answer")
		}
		// Drawn now; a key that arrives in the same instant still does not
		// count.
		mustContain(t, m, "Allow?", "keys typed before this question was shown were ignored")
		d.key("y")
		if m.run.asking == nil {
			t.Fatal("a key in the same instant as the first frame answered the dialog")
		}
		d.until(t, "the dialog to take answers", func() bool { return m.run.asking.armed })
		d.key(answer)
		d.until(t, "the run to end", func() bool { return !m.run.active() })
		if len(r.answers) != 1 || r.answers[0] != (answer == "y") {
			t.Fatalf("the answer after the dialog was drawn, %q, reached the runner as %v", answer, r.answers)
		}
	}
}

// TestGrantDialogIsDrawnOverAnOpenPane: a question that arrives while the
// help is open is shown, so it can be answered.
func TestGrantDialogIsDrawnOverAnOpenPane(t *testing.T) {
	r := &scriptedRunner{question: grants.HostQuestion("api.example.com")}
	m := newTest(t, scriptNote, 100, 30, func(o *Options) { o.Runner = r })
	d := newDriver(m)
	d.key("r")
	d.key("h")
	d.untilDialog(t)
	mustContain(t, m, "Keys", "api.example.com", "y allow")
	d.key("y")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
	if len(r.answers) != 1 || !r.answers[0] {
		t.Fatalf("answers %v", r.answers)
	}
}

// TestGrantDialogFitsOrRefusesYes draws the one question of a note that
// names a host and builds addresses at run time at three sizes. Where it
// fits, every row of the box is whole words (each row's words are the
// question's words in order, none split), the host shows in full and the
// legend keeps its spacing, after the signature line; at 20×5 the dialog says the terminal is too
// small and a yes is refused until a resize lets the whole question show.
// While it waits, the status bar says so instead of "running 0/0".
func TestGrantDialogFitsOrRefusesYes(t *testing.T) {
	q := grants.Question([]string{"api.open-meteo.example"}, true, false)
	// The dialog opens with the note's signature status (this note is
	// unsigned), then the question.
	words := []string{"Unsigned."}
	for _, l := range grants.QuestionLines(q) {
		words = append(words, strings.Fields(l)...)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}, {20, 5}} {
		r := &scriptedRunner{question: q, askFirst: true}
		m := newTest(t, scriptNote, size[0], size[1], func(o *Options) { o.Runner = r })
		d := newDriver(m)
		d.key("r")
		d.until(t, "the question", func() bool { return m.run.asking != nil })
		s := screen(m)
		if size[0] >= 80 {
			if !strings.Contains(status(m), "waiting for your answer: 1 question") {
				t.Fatalf("%v: status %q", size, status(m))
			}
			var got []string
			for _, row := range strings.Split(s, "\n") {
				i, j := strings.Index(row, "│ "), strings.LastIndex(row, " │")
				if i < 0 || j <= i {
					continue
				}
				inner := strings.TrimSpace(row[i+len("│ ") : j])
				if inner == "y allow    n or esc deny" {
					continue
				}
				got = append(got, strings.Fields(inner)...)
			}
			if strings.Join(got, " ") != strings.Join(words, " ") {
				t.Fatalf("%v: the dialog's words are not the question's, whole and in order:\n%s", size, s)
			}
			mustContain(t, m, "api.open-meteo.example", "y allow    n or esc deny")
			d.untilDialog(t)
			d.key("y")
			d.until(t, "the run to end", func() bool { return !m.run.active() })
			if len(r.answers) != 1 || !r.answers[0] {
				t.Fatalf("%v: answers %v", size, r.answers)
			}
			continue
		}
		mustContain(t, m, "Too small for the", "enlarge")
		mustLack(t, m, "Allow")
		d.deliverFor(5 * dialogArmDelay)
		screen(m)
		d.key("y")
		if m.run.asking == nil || len(r.answers) != 0 {
			t.Fatalf("%v: a yes was taken for a question not on screen (answers %v)", size, r.answers)
		}
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		mustContain(t, m, "api.open-meteo.example", "Allow?")
		d.untilDialog(t)
		d.key("y")
		d.until(t, "the run to end", func() bool { return !m.run.active() })
		if len(r.answers) != 1 || !r.answers[0] {
			t.Fatalf("after the resize: answers %v", r.answers)
		}
		// A refusal is always safe: n answers a question too large to show.
		r = &scriptedRunner{question: q, askFirst: true}
		m = newTest(t, scriptNote, size[0], size[1], func(o *Options) { o.Runner = r })
		d = newDriver(m)
		d.key("r")
		d.until(t, "the question", func() bool { return m.run.asking != nil })
		screen(m)
		d.key("n")
		d.until(t, "the run to end", func() bool { return !m.run.active() })
		if len(r.answers) != 1 || r.answers[0] {
			t.Fatalf("n on a small terminal: answers %v", r.answers)
		}
	}
}

// TestRunProgressCountsBeforeThePlan: while grants are being decided the
// run has no plan yet; the status bar counts the page's scripts, not 0/0.
func TestRunProgressCountsBeforeThePlan(t *testing.T) {
	r := &scriptedRunner{hang: true}
	m := newTest(t, scriptNote, 100, 24, func(o *Options) { o.Runner = r })
	m.run.gen++
	m.run.cancel = func() {}
	m.run.done = map[string]Progress{}
	if s := m.runStatus(); !strings.HasSuffix(s, "running 0/2") {
		t.Fatalf("status before the plan: %q", s)
	}
}
