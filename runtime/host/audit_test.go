package host

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
)

// TestLedgerRefusesAnOpenClaim: the host itself consults the ledger. An
// effect whose claim is open is not sent by a run that is not by hand,
// and an unattended run's refusal says the claim is open.
func TestLedgerRefusesAnOpenClaim(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201) })
	l := audit.ForStore(state.Open(t.TempDir(), state.Options{}), audit.Options{})
	req := script.FetchRequest{Method: http.MethodPost, URL: srv.URL + "/order?id=1", Body: "one"}
	hostFor := func(trigger script.Trigger, run *audit.Run) *Host {
		return New(Options{Trigger: trigger, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{}), Audit: run})
	}

	// A claim left open, as a lost answer leaves it.
	first := audit.NewRun(l, "r1", "file:///n", "code", true)
	rec := audit.Record{Capability: string(script.CapNet), Method: http.MethodPost, Host: "127.0.0.1", Path: "/order"}
	_, rec.Query = audit.SplitURL(req.URL)
	id, err := first.Claim(rec, []byte(req.Body))
	if err != nil {
		t.Fatal(err)
	}
	first.Settle(audit.Record{Effect: id, Failure: audit.FailUnknown}, false)

	// A manual-tier host whose run is not by hand is refused by the ledger.
	notByHand := audit.NewRun(l, "r2", "file:///n", "code", false)
	_, err = hostFor(script.Manual, notByHand).Fetch(context.Background(), req)
	var d *script.Denial
	if !errors.As(err, &d) || !strings.Contains(d.Reason, "outcome is unknown") || srv.n.Load() != 0 {
		t.Fatalf("the open claim was not refused: %v, %d requests", err, srv.n.Load())
	}

	// An unattended run is refused by its tier, and its record says the
	// claim is open.
	unattended := audit.NewRun(l, "r3", "file:///n", "code", false)
	if _, err := hostFor(script.Auto, unattended).Fetch(context.Background(), req); err == nil || srv.n.Load() != 0 {
		t.Fatalf("an auto run sent a POST: %v", err)
	}
	recs, _, _ := l.Read(func(r audit.Record) bool { return r.Event == audit.EventRequest })
	if len(recs) != 2 || recs[0].Failure != audit.FailClaimed || recs[1].Failure != audit.FailClaimed || recs[1].Decision != audit.Denied {
		t.Fatalf("records %+v", recs)
	}

	// By hand it is sent again, and the known answer closes the claim.
	byHand := audit.NewRun(l, "r4", "file:///n", "code", true)
	if resp, err := hostFor(script.Manual, byHand).Fetch(context.Background(), req); err != nil || resp.Status != 201 || srv.n.Load() != 1 {
		t.Fatalf("by hand: %+v %v", resp, err)
	}
	if open, _ := l.OpenClaims(); len(open) != 0 {
		t.Fatalf("open %v", open)
	}
}

// TestAuditNamesTheCanonicalHost: a request's audit record names the host
// the client decided the grant for, however the URL spells it, and the
// denial names the same host; the query is kept only as a hash.
func TestAuditNamesTheCanonicalHost(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	l := audit.ForStore(state.Open(t.TempDir(), state.Options{}), audit.Options{})
	run := audit.NewRun(l, "r1", "file:///n", "code", true)
	h := New(Options{Trigger: script.Manual, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{}), Audit: run})
	cases := []struct {
		url, host string
		granted   bool
	}{
		// 2130706433 is 127.0.0.1 to a resolver: the grant for 127.0.0.1
		// lets it through, and the trail names 127.0.0.1.
		{"http://2130706433:" + srv.port() + "/a?token=SECRET", "127.0.0.1", true},
		{"http://EXAMPLE.org/b?token=SECRET", "example.org", false},
		{"http://[::FFFF:7F00:2]/c?token=SECRET", "::ffff:127.0.0.2", false},
		// A trailing dot is refused before any grant is asked; the record
		// and the denial still name one host.
		{"http://EXAMPLE.org./d?token=SECRET", "example.org.", false},
	}
	for _, c := range cases {
		_, err := h.Fetch(context.Background(), script.FetchRequest{Method: http.MethodGet, URL: c.url})
		var d *script.Denial
		switch {
		case c.granted && err != nil:
			t.Fatalf("%s: %v", c.url, err)
		case !c.granted && (!errors.As(err, &d) || d.Host != c.host):
			t.Fatalf("%s: the denial %v does not name %s", c.url, err, c.host)
		}
	}
	recs, _, err := l.Read(func(r audit.Record) bool { return r.Event == audit.EventRequest })
	if err != nil || len(recs) != len(cases) {
		t.Fatalf("records %+v, %v", recs, err)
	}
	for i, c := range cases {
		r := recs[i]
		if r.Host != c.host || (r.Decision == audit.Allowed) != c.granted {
			t.Errorf("%s: recorded host %q decision %q, want %q", c.url, r.Host, r.Decision, c.host)
		}
		if !strings.HasPrefix(r.Query, "sha256:") || strings.Contains(r.Query, "SECRET") {
			t.Errorf("%s: query kept as %q", c.url, r.Query)
		}
	}
	if srv.n.Load() != 1 {
		t.Fatalf("%d requests reached the server, want 1", srv.n.Load())
	}
}
