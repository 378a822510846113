package cli

import (
	"context"
	"net/url"
	"testing"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
	"github.com/markii/markii/viewer"
)

// A manual run from the viewer asks its in-viewer dialog, one host at a
// time, and only an allowed host is ever contacted.
func TestViewerRunAsksTheDialog(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	srv, hits := countingServer(t)
	u, _ := url.Parse(srv.URL)
	notePath := writeNote(t, "```lua {name=v}\nreturn net.fetch_json(\""+srv.URL+"/x\").v\n```\n")

	for _, allow := range []bool{false, true} {
		var asked []string
		ask := func(_ context.Context, q string) (bool, error) {
			asked = append(asked, q)
			return allow, nil
		}
		var done []viewer.Progress
		r := &noteRunner{service: testService(t, env.invocation()), path: notePath}
		if err := r.Run(context.Background(), script.Manual, ask, func(p viewer.Progress) {
			if p.Kind == viewer.ProgressDone {
				done = append(done, p)
			}
		}); err != nil {
			t.Fatal(err)
		}
		want := grants.HostQuestion(u.Hostname())
		if len(asked) != 1 || asked[0] != want {
			t.Fatalf("allow=%v: asked %q, want exactly %q", allow, asked, want)
		}
		if len(done) != 1 {
			t.Fatalf("allow=%v: progress %+v", allow, done)
		}
		if allow && (done[0].Outcome.Kind != value.Ok || string(done[0].Outcome.Value) != "7" || hits.Load() != 1) {
			t.Fatalf("allowed: %+v, %d hits", done[0], hits.Load())
		}
		if !allow && (done[0].Outcome.Kind != value.CapabilityDenied || hits.Load() != 0) {
			t.Fatalf("declined: %+v, %d hits", done[0], hits.Load())
		}
	}
}
