package viewer

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// offlineRunner reports both scripts offline, as the run service names a
// request that never reached its host.
type offlineRunner struct{}

func (offlineRunner) Run(ctx context.Context, trigger script.Trigger, ask Asker, report func(Progress)) error {
	report(Progress{Kind: ProgressPlan, Scripts: []string{"stars", "forks"}})
	for _, n := range []string{"stars", "forks"} {
		report(Progress{Kind: ProgressDone, Script: n, Outcome: script.Outcome{Name: n, Kind: value.Offline, Capability: script.CapNet,
			Host: "api.github.com", Net: &script.NetFailure{Kind: "network", Cause: "dns"}, Detail: "api.github.com could not be resolved"}})
	}
	return nil
}

// TestOfflineInTheViewer: an offline run keeps the old value, marked stale
// and offline; the status bar says offline once, not "failed"; the D pane
// names the host and the cause.
func TestOfflineInTheViewer(t *testing.T) {
	m := newTest(t, scriptNote, 100, 16, func(o *Options) {
		o.Runner = offlineRunner{}
		o.Note.Values = value.Values{"stars": {Value: json.RawMessage("41"), Status: value.Fresh}}
	})
	d := newDriver(m)
	d.key("r")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
	mustContain(t, m, "Stars: 41 (stale, offline) and forks: {forks} (offline)")
	st := status(m)
	if strings.Count(st, "offline") != 1 || strings.Contains(st, "failed") {
		t.Fatalf("status %q", st)
	}
	d.key("D")
	mustContain(t, m, "stars: offline: api.github.com could not be resolved")
	mustLack(t, m, "resolved: api.github.com")
}
