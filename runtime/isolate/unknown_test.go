package isolate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/runtime/host"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// lostAnswerServer is a real server on 127.0.0.1 that reads a POST's body
// and then closes the connection without answering; it counts the bodies
// it read.
func lostAnswerServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var bodies atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err == nil {
			bodies.Add(1)
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies
}

func TestLostEffectfulRequestIsOutcomeUnknownThroughTheIsolate(t *testing.T) {
	srv, bodies := lostAnswerServer(t)
	h := host.New(host.Options{Trigger: script.Manual, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{})})
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, request(script.Limits{},
		lua("sent", `return net.post("`+srv.URL+`/x", "{}")`),
		lua("caught", `local ok = pcall(net.post, "`+srv.URL+`/x", "{}") return ok`),
		lua("caughtThenFailed", `pcall(net.post, "`+srv.URL+`/x", "{}") error("later")`),
	), h)
	if err != nil {
		t.Fatal(err)
	}
	if o := out[0]; o.Kind != value.OutcomeUnknown || o.Capability != script.CapNet || o.Host != "127.0.0.1" {
		t.Errorf("sent = %+v, want outcome-unknown for 127.0.0.1", o)
	}
	if o := out[1]; o.Kind != value.Ok || string(o.Value) != "false" {
		t.Errorf("caught = %+v, want ok(false): a script that handles the error decides its own value", o)
	}
	if o := out[2]; o.Kind != value.ScriptError {
		t.Errorf("caughtThenFailed = %+v, want script-error", o)
	}
	if n := bodies.Load(); n != 3 {
		t.Errorf("the server read %d bodies, want 3 (one per request, never retried)", n)
	}
}

func TestWorkerCannotClaimAnUnknownOutcome(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	// The worker reports outcome-unknown for a script that made no request:
	// the host has no record of a lost request, so it is a script error.
	out, err, _ := runOn(t, pool, request(script.Limits{}, goBlock("claim", "test-claim-unknown")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.ScriptError || out[0].Host != "" {
		t.Errorf("claim = %+v, want script-error", out[0])
	}
}

func TestReconcileOutcomeUnknown(t *testing.T) {
	l := script.Ceiling
	lost := &script.UnknownOutcome{Host: "api.example", Reason: "lost"}
	claim := script.Outcome{Name: "a", Kind: value.OutcomeUnknown, Capability: script.CapNet, Host: "forged.example"}
	if got := reconcile(claim, nil, lost, l); got.Kind != value.OutcomeUnknown || got.Host != "api.example" || got.Detail != "lost" {
		t.Errorf("with the host's record: %+v", got)
	}
	if got := reconcile(claim, nil, nil, l); got.Kind != value.ScriptError {
		t.Errorf("without a record: %+v, want script-error", got)
	}
	if got := reconcile(script.Outcome{Name: "a", Kind: value.ScriptError, Detail: "x"}, nil, lost, l); got.Kind != value.ScriptError {
		t.Errorf("a script that caught the loss and failed otherwise: %+v", got)
	}
}
