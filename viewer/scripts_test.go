package viewer

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// scriptedRunner is a Runner whose scripts are Go functions: the viewer's
// side of the runner boundary (the product's runner, which starts the
// isolate, is tested with the command line).
type scriptedRunner struct {
	runs     atomic.Int32
	mu       sync.Mutex
	triggers []script.Trigger
	answers  []bool
	// question, when set, is asked once per run before the scripts;
	// askFirst asks it before the plan is reported, as the run service
	// does (grants are decided before the plan exists).
	question string
	askFirst bool
	// hang makes every run wait for its context to end.
	hang      bool
	cancelled atomic.Int32
	// value is what the script "stars" returns.
	value string
	fail  bool
}

func (r *scriptedRunner) Run(ctx context.Context, trigger script.Trigger, ask Asker, report func(Progress)) error {
	// The trigger is recorded before the run is counted, so a test that
	// sees the count can read the trigger.
	r.mu.Lock()
	r.triggers = append(r.triggers, trigger)
	r.mu.Unlock()
	r.runs.Add(1)
	if !r.askFirst {
		report(Progress{Kind: ProgressPlan, Scripts: []string{"stars", "forks"}})
	}
	if r.question != "" {
		ok, err := ask(ctx, r.question)
		if err != nil {
			return err
		}
		r.mu.Lock()
		r.answers = append(r.answers, ok)
		r.mu.Unlock()
	}
	if r.askFirst {
		report(Progress{Kind: ProgressPlan, Scripts: []string{"stars", "forks"}})
	}
	if r.hang {
		<-ctx.Done()
		r.cancelled.Add(1)
		return ctx.Err()
	}
	v := r.value
	if v == "" {
		v = "42"
	}
	report(Progress{Kind: ProgressDone, Script: "stars", Outcome: script.Outcome{Name: "stars", Kind: value.Ok, Value: json.RawMessage(v)}})
	if r.fail {
		report(Progress{Kind: ProgressDone, Script: "forks", Outcome: script.Outcome{Name: "forks", Kind: value.CapabilityDenied, Capability: script.CapNet, Host: "api.example.com", Detail: "net access to api.example.com was not granted"}})
	} else {
		report(Progress{Kind: ProgressDone, Script: "forks", Outcome: script.Outcome{Name: "forks", Kind: value.Ok, Value: json.RawMessage("7")}})
	}
	report(Progress{Kind: ProgressNotice, Notice: "declared host docs.example.com is not used by the code"})
	return nil
}

const scriptNote = "# Stats\n\nStars: :value[stars] and forks: :value[forks].\n\n```lua {name=stars}\nreturn 42\n```\n\n```lua {name=forks}\nreturn 7\n```\n"

// driver runs a model's commands the way a program does, delivering
// their messages on the test goroutine.
type driver struct {
	m    *Model
	msgs chan tea.Msg
}

func newDriver(m *Model) *driver { return &driver{m: m, msgs: make(chan tea.Msg, 64)} }

func (d *driver) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			d.msgs <- msg
		}
	}()
}

func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.exec(cmd)
}

func (d *driver) key(k string) { d.send(keyMsg(k)) }

// deliver hands one command's message to the model as a program would.
func (d *driver) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			d.exec(c)
		}
	case tea.QuitMsg:
	default:
		d.send(msg)
	}
}

// deliverFor delivers messages for a while.
func (d *driver) deliverFor(dur time.Duration) {
	end := time.After(dur)
	for {
		select {
		case msg := <-d.msgs:
			d.deliver(msg)
		case <-end:
			return
		}
	}
}

// until delivers messages until cond holds.
func (d *driver) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.deliver(msg)
		case <-deadline:
			t.Fatalf("timed out waiting for %s; frame:\n%s", what, screen(d.m))
		}
	}
}

// untilDialog waits for the grant dialog, draws a frame and waits until
// the dialog takes answers.
func (d *driver) untilDialog(t *testing.T) {
	t.Helper()
	d.until(t, "the dialog", func() bool { return d.m.run.asking != nil })
	_ = d.m.frame()
	d.until(t, "the dialog to take answers", func() bool { return d.m.run.asking == nil || d.m.run.asking.armed })
}

func TestRunUpdatesValuesInPlace(t *testing.T) {
	r := &scriptedRunner{}
	m := newTest(t, scriptNote, 80, 12, func(o *Options) {
		o.Runner = r
		o.Note.Values = value.Values{"stars": {Value: json.RawMessage("1"), Status: value.Fresh}}
	})
	// A value from an earlier session is drawn once, the status bar says
	// so once, and no value carries a mark of its own.
	mustContain(t, m, "r runs scripts", "Stars: 1 and", "values from earlier")
	mustLack(t, m, "stale")
	d := newDriver(m)
	d.key("r")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
	mustContain(t, m, "42", "7", "ran 2")
	mustLack(t, m, "stale", "values from earlier")
	if r.triggers[0] != script.Manual {
		t.Fatalf("r ran at trigger %q", r.triggers[0])
	}
}

func TestFailuresShowQuietMarkersAndDiagnostics(t *testing.T) {
	r := &scriptedRunner{fail: true}
	m := newTest(t, scriptNote, 100, 16, func(o *Options) { o.Runner = r })
	d := newDriver(m)
	d.key("r")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
	mustContain(t, m, "1 failed (D shows why)")
	d.key("D")
	mustContain(t, m, "Diagnostics", "stars: ok", "forks: needs permission (net: api.example.com): ", "declared host docs.example.com is not used")
	d.key("esc")
	if m.pane != nil {
		t.Fatal("esc did not close the diagnostics")
	}
}

// TestFailedRefreshKeepsTheValueStale: a failed run keeps the value the
// page showed, marked stale, as the store and render --run keep it; it
// never replaces it with the error.
func TestFailedRefreshKeepsTheValueStale(t *testing.T) {
	r := &scriptedRunner{}
	m := newTest(t, scriptNote, 100, 16, func(o *Options) {
		o.Runner = r
		o.Note.Values = value.Values{"forks": {Value: json.RawMessage("5"), Status: value.Fresh}}
	})
	d := newDriver(m)
	d.key("r")
	d.until(t, "the first run to end", func() bool { return r.runs.Load() == 1 && !m.run.active() })
	mustContain(t, m, "forks: 7.")
	r.fail = true
	d.key("r")
	d.until(t, "the failed run to end", func() bool { return r.runs.Load() == 2 && !m.run.active() })
	mustContain(t, m, "forks: 7 (stale).", "1 failed (D shows why)")
	mustLack(t, m, "{forks}")
	if e := m.reader.values["forks"]; e.Status != value.Stale || string(e.Value) != "7" || e.FailureKind != value.CapabilityDenied {
		t.Fatalf("forks after a failed refresh: %+v", e)
	}
}

func TestGrantDialogAsksInViewer(t *testing.T) {
	for _, answer := range []string{"y", "n"} {
		r := &scriptedRunner{question: "This note's scripts can send data to api.example.com. Allow?"}
		m := newTest(t, scriptNote, 90, 16, func(o *Options) { o.Runner = r })
		d := newDriver(m)
		d.key("r")
		d.untilDialog(t)
		mustContain(t, m, "This note's scripts can send data to", "api.example.com. Allow?", "y allow", "n or esc deny")
		d.key("j") // other keys do not answer
		if m.run.asking == nil {
			t.Fatal("j answered the dialog")
		}
		d.key(answer)
		d.until(t, "the run to end", func() bool { return !m.run.active() })
		if len(r.answers) != 1 || r.answers[0] != (answer == "y") {
			t.Fatalf("answer %s reached the runner as %v", answer, r.answers)
		}
		mustLack(t, m, "Allow?")
	}
}

func TestHungRunKeepsViewerResponsiveAndEscCancels(t *testing.T) {
	r := &scriptedRunner{hang: true}
	m := newTest(t, longNote(10, 3)+scriptNote, 80, 12, func(o *Options) { o.Runner = r })
	tm, sh := startProgram(t, m, 80, 12)
	t.Cleanup(func() { _ = tm.Quit() })
	tm.Send(keyMsg("r"))
	waitFrame(t, sh, "running 0/2")
	// Every key is answered within 100 ms while the worker hangs. A key
	// over the budget is tried once more (back and forth), so one
	// scheduler stall on a busy machine does not fail the test while a
	// frozen viewer still does.
	answer := func(k, want string) time.Duration {
		start := time.Now()
		tm.Send(keyMsg(k))
		if err := waitFrameWithin(sh, time.Second, want); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	steps := []struct{ key, want, undo, undone string }{
		{"j", "line 2/", "k", "line 1/"},
		{"j", "line 3/", "k", "line 2/"},
		{"G", "100%", "g", " 0%"},
		{"g", " 0%", "G", "100%"},
		{"]", "Section 1", "g", "Top"},
	}
	for _, st := range steps {
		if d := answer(st.key, st.want); d > 100*time.Millisecond {
			answer(st.undo, st.undone)
			if d2 := answer(st.key, st.want); d2 > 100*time.Millisecond {
				t.Fatalf("key %q answered after %v and again after %v during a hung run", st.key, d, d2)
			}
		}
	}
	tm.Send(keyMsg("esc"))
	waitFrame(t, sh, "run cancelled")
	deadline := time.Now().Add(2 * time.Second)
	for r.cancelled.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if r.cancelled.Load() != 1 {
		t.Fatal("esc did not end the runner's context")
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
}

func TestRunOnOpenUsesAutoTierOnce(t *testing.T) {
	r := &scriptedRunner{question: "never shown"}
	m := newTest(t, scriptNote, 80, 12, func(o *Options) {
		o.Runner = r
		o.RunOnOpen = true
	})
	d := newDriver(m)
	d.exec(m.Init())
	d.until(t, "the auto run", func() bool { return r.runs.Load() == 1 && !m.run.active() })
	if r.triggers[0] != script.Auto {
		t.Fatalf("run on open used trigger %q", r.triggers[0])
	}
	if len(r.answers) != 1 || r.answers[0] {
		t.Fatalf("an auto run's question was answered %v; it must be refused without a dialog", r.answers)
	}
	if m.run.asking != nil {
		t.Fatal("an auto run showed a dialog")
	}
}

func TestRefreshNeverOverlapsAndStopsOnClose(t *testing.T) {
	r := &scriptedRunner{}
	m := newTest(t, scriptNote, 80, 12, func(o *Options) {
		o.Runner = r
		o.RefreshInterval = time.Second // raised to the 5 s minimum
	})
	if m.opt.RefreshInterval != MinRefresh {
		t.Fatalf("refresh interval %v, want it raised to %v", m.opt.RefreshInterval, MinRefresh)
	}
	d := newDriver(m)
	d.send(refreshMsg{})
	if !m.run.active() {
		t.Fatal("the refresh did not start a run")
	}
	d.send(refreshMsg{}) // a tick during a run is skipped
	d.until(t, "the scheduled run", func() bool { return !m.run.active() })
	if n := r.runs.Load(); n != 1 {
		t.Fatalf("%d runs from two ticks during one run", n)
	}
	if r.triggers[0] != script.Scheduled {
		t.Fatalf("refresh used trigger %q", r.triggers[0])
	}
	if !isQuit(press(m, "q")) {
		t.Fatal("q did not quit")
	}
	d.send(refreshMsg{})
	if m.run.active() || r.runs.Load() != 1 {
		t.Fatal("a refresh ran after the viewer closed")
	}
}

func TestScriptsDisabledTurnsEveryTriggerOff(t *testing.T) {
	r := &scriptedRunner{}
	m := newTest(t, scriptNote, 80, 12, func(o *Options) {
		o.Runner = r
		o.ScriptsDisabled = true
		o.RunOnOpen = true
		o.RefreshInterval = MinRefresh
	})
	d := newDriver(m)
	d.exec(m.Init())
	d.key("r")
	d.send(refreshMsg{})
	d.send(autoRunMsg{})
	time.Sleep(50 * time.Millisecond)
	if n := r.runs.Load(); n != 0 {
		t.Fatalf("%d runs with scripts disabled", n)
	}
	mustContain(t, m, "scripts are turned off", "scripts off")
}

// preparingRunner is a scriptedRunner that records when it is prepared.
type preparingRunner struct {
	scriptedRunner
	prepared atomic.Int32
	at       atomic.Int64
}

func (r *preparingRunner) Prepare() {
	r.at.Store(time.Now().UnixNano())
	r.prepared.Add(1)
}

// A runner that can prepare is prepared once per opened note, after the
// first frame has had its head start, and never when scripts are off.
func TestRunnerIsPreparedAfterTheFirstFrame(t *testing.T) {
	r := &preparingRunner{}
	m := newTest(t, scriptNote, 80, 12, func(o *Options) { o.Runner = r })
	mustContain(t, m, "Stars:")
	start := time.Now()
	d := newDriver(m)
	// Init's commands start at once, as a program starts them.
	d.deliver(m.Init()())
	if n := r.prepared.Load(); n != 0 {
		t.Fatalf("the runner was prepared %d times before the first frame's head start", n)
	}
	// Preparing sends no message, so the test polls for it.
	for deadline := time.Now().Add(5 * time.Second); r.prepared.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the runner was not prepared within 5 s of Init")
		}
	}
	if waited := time.Unix(0, r.at.Load()).Sub(start); waited < firstFrameHead {
		t.Fatalf("the runner was prepared %v after Init, before the first frame's head start of %v", waited, firstFrameHead)
	}
	d.deliverFor(2 * firstFrameHead)
	if n := r.prepared.Load(); n != 1 {
		t.Fatalf("the runner was prepared %d times for one note, want once", n)
	}

	off := &preparingRunner{}
	m = newTest(t, scriptNote, 80, 12, func(o *Options) {
		o.Runner = off
		o.ScriptsDisabled = true
	})
	d = newDriver(m)
	d.exec(m.Init())
	d.deliverFor(2 * firstFrameHead)
	if n := off.prepared.Load(); n != 0 {
		t.Fatalf("with scripts disabled the runner was prepared %d times", n)
	}
}

// Esc after a run has ended, failed script and all, closes what is open
// and then does nothing: it never quits.
func TestEscAfterARunNeverQuits(t *testing.T) {
	r := &scriptedRunner{fail: true}
	m := newTest(t, scriptNote, 80, 12, func(o *Options) { o.Runner = r })
	d := newDriver(m)
	d.key("r")
	d.until(t, "the run to end", func() bool { return r.runs.Load() == 1 && !m.run.active() })
	for i := 0; i < 3; i++ {
		if isQuit(press(m, "esc")) {
			t.Fatalf("esc %d after the run quit the viewer", i+1)
		}
	}
	if !isQuit(press(m, "q")) {
		t.Fatal("q after the run does not quit")
	}
}
