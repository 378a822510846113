package viewer

import (
	"context"
	"strings"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
)

// TestGrantDialogSaysWhatAYesMeans draws the real per-host question in the
// dialog: each of its lines appears on its own, warning included, and no
// line feed is folded into a space.
func TestGrantDialogSaysWhatAYesMeans(t *testing.T) {
	r := &scriptedRunner{question: grants.HostQuestion("127.0.0.1")}
	m := newTest(t, scriptNote, 100, 24, func(o *Options) { o.Runner = r })
	d := newDriver(m)
	d.key("r")
	d.until(t, "the dialog", func() bool { return m.run.asking != nil })
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
	o := script.Outcome{Name: "stars", Kind: script.CapabilityDenied, Capability: script.CapNet, Host: "api.example.com",
		Reason: script.DenialUngrantable, Detail: "network access to api.example.com was not granted"}
	report(Progress{Kind: ProgressDone, Script: "stars", Outcome: o, Entry: render.Entry{Status: render.Error, FailureKind: "capability-denied"}})
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
