package isolate

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/runtime/engine"
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
	if got := reconcile(claim, &valueShape{}, hostRecords{lost: lost}, l); got.Kind != value.OutcomeUnknown || got.Host != "api.example" || got.Detail != "lost" {
		t.Errorf("with the host's record: %+v", got)
	}
	if got := reconcile(claim, &valueShape{}, hostRecords{}, l); got.Kind != value.ScriptError {
		t.Errorf("without a record: %+v, want script-error", got)
	}
	if got := reconcile(script.Outcome{Name: "a", Kind: value.ScriptError, Detail: "x"}, &valueShape{}, hostRecords{lost: lost}, l); got.Kind != value.ScriptError {
		t.Errorf("a script that caught the loss and failed otherwise: %+v", got)
	}
}

// TestNetworkFailureReachesTheOutcome: a GET that fails on the network
// (here a refused connection: nothing listens on the port) ends the
// script offline, carrying the network client's kind and cause, from
// the host's own record of the call, the same through the isolate as in
// process. A script that catches the failure decides its own outcome.
func TestNetworkFailureReachesTheOutcome(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/x"
	l.Close()
	req := func() *script.Request {
		return request(script.Limits{},
			lua("refused", `return net.fetch_json("`+url+`")`),
			lua("caught", `local ok = pcall(net.fetch_json, "`+url+`") return ok`),
			lua("caughtThenFailed", `pcall(net.fetch_json, "`+url+`") error("later")`),
		)
	}
	newHost := func() *host.Host {
		return host.New(host.Options{Trigger: script.Auto, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{})})
	}
	pool := NewPool()
	defer pool.Close()
	isolated, err, _ := runOn(t, pool, req(), newHost())
	if err != nil {
		t.Fatal(err)
	}
	var inProcess []script.Outcome
	if err := engine.Run(context.Background(), req(), newHost(), func(o script.Outcome) { inProcess = append(inProcess, o) }); err != nil {
		t.Fatal(err)
	}
	for _, out := range [][]script.Outcome{isolated, inProcess} {
		if o := out[0]; o.Kind != value.Offline || o.Capability != script.CapNet || o.Host != "127.0.0.1" ||
			o.Net == nil || o.Net.Kind != netclient.Network || o.Net.Sent || o.Net.Cause != netclient.ConnectRefused ||
			o.Summary() != "offline: 127.0.0.1 refused the connection" {
			t.Errorf("refused = %+v (net %+v), want offline: a network failure of 127.0.0.1, not sent, connection refused", o, o.Net)
		}
		if o := out[1]; o.Kind != value.Ok || o.Net != nil {
			t.Errorf("caught = %+v, want ok", o)
		}
		if o := out[2]; o.Kind != value.ScriptError || o.Net != nil || o.Host != "" {
			t.Errorf("caughtThenFailed = %+v, want a plain script error", o)
		}
	}
	if !reflect.DeepEqual(isolated[0], inProcess[0]) {
		t.Errorf("through the isolate %+v, in process %+v", isolated[0], inProcess[0])
	}
}

// TestWorkerCannotClaimANetworkFailure: a script error the worker says a
// network failure caused carries one only when the host holds the record.
func TestWorkerCannotClaimANetworkFailure(t *testing.T) {
	claim := script.Outcome{Name: "a", Kind: value.ScriptError, Capability: script.CapNet, Host: "forged.example",
		Net: &script.NetFailure{Kind: netclient.Timeout}, Detail: "x"}
	if got := reconcile(claim, &valueShape{}, hostRecords{}, script.Ceiling); got.Net != nil || got.Host != "" || got.Capability != "" {
		t.Errorf("without a record: %+v", got)
	}
	rec := &netRecord{host: "api.example", failure: script.NetFailure{Kind: netclient.Network}}
	if got := reconcile(claim, &valueShape{}, hostRecords{net: rec}, script.Ceiling); got.Net == nil || got.Net.Kind != netclient.Network || got.Host != "api.example" {
		t.Errorf("with the host's record: %+v", got)
	}
}

// TestReconcileOffline: an offline outcome stands only on the host's record
// of a request that never reached a server, and names its host and cause;
// a worker's claim of offline without that record, or with a record of a
// request that did reach a server, is a script error.
func TestReconcileOffline(t *testing.T) {
	claim := script.Outcome{Name: "a", Kind: value.Offline, Net: &script.NetFailure{Kind: netclient.Network, Cause: netclient.NotResolved}, Host: "forged.example"}
	rec := &netRecord{host: "api.github.com", failure: script.NetFailure{Kind: netclient.Network, Cause: netclient.NotResolved}}
	got := reconcile(claim, &valueShape{}, hostRecords{net: rec}, script.Ceiling)
	if got.Kind != value.Offline || got.Host != "api.github.com" || got.Summary() != "offline: api.github.com could not be resolved" {
		t.Errorf("with the host's record: %+v %q", got, got.Summary())
	}
	if got := reconcile(claim, &valueShape{}, hostRecords{}, script.Ceiling); got.Kind != value.ScriptError {
		t.Errorf("without a record: %+v", got)
	}
	sent := &netRecord{host: "api.github.com", failure: script.NetFailure{Kind: netclient.Network, Sent: true}}
	if got := reconcile(claim, &valueShape{}, hostRecords{net: sent}, script.Ceiling); got.Kind != value.ScriptError {
		t.Errorf("a request that reached its server: %+v", got)
	}
}
