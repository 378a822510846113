package run

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// noDNS answers no name: the network is down.
type noDNS struct{}

func (noDNS) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "no such host", IsNotFound: true}
}

// closedPort returns a 127.0.0.1 port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestOfflineIsTheHostsToName: a request that never reached its server is
// an offline outcome named from the host's record, with the host and the
// cause, for a name that does not resolve and for a closed port. The value
// stored by an earlier run is kept, marked stale, with the kind offline. A
// script that caught the failure with pcall and returned its own value is
// ok.
func TestOfflineIsTheHostsToName(t *testing.T) {
	svc, st := service(t, config.Settings{})
	srv, _ := countingServer(t)
	note := Note{Key: "file:///offline.mk.md", Scripts: []Script{lua("v", `return net.fetch_json("`+srv.URL+`/x").v`)}}
	if res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: &yes{}}); err != nil || outcomes(res)["v"].Kind != value.Ok {
		t.Fatalf("first run: %v %+v", err, res)
	}
	// The server goes away: its port is closed now.
	srv.Close()
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: &yes{}})
	if err != nil {
		t.Fatal(err)
	}
	o := outcomes(res)["v"]
	if o.Kind != value.Offline || o.Host != "127.0.0.1" || o.Summary() != "offline: 127.0.0.1 refused the connection" {
		t.Fatalf("closed port: %+v, summary %q", o, o.Summary())
	}
	if e := mustLoad(t, st, note.Key)["v"]; string(e.Value) != "7" || e.Status != value.Stale || e.FailureKind != value.Offline {
		t.Fatalf("the stored value was not kept stale: %+v", e)
	}

	// A name that does not resolve.
	svc.Resolver = noDNS{}
	gh := Note{Key: "file:///stars.mk.md", Scripts: []Script{
		lua("stars", `return net.fetch_json("https://api.github.example/repos/x").stargazers_count`),
		lua("guarded", `local ok, v = pcall(net.fetch_json, "https://api.github.example/x") if ok then return v end return "no network"`),
	}}
	res, err = svc.Run(context.Background(), Request{Note: gh, Trigger: script.Manual, Prompter: &yes{}})
	if err != nil {
		t.Fatal(err)
	}
	o = outcomes(res)["stars"]
	if o.Kind != value.Offline || o.Summary() != "offline: api.github.example could not be resolved" {
		t.Fatalf("no DNS: %+v, summary %q", o, o.Summary())
	}
	if g := outcomes(res)["guarded"]; g.Kind != value.Ok || string(g.Value) != `"no network"` {
		t.Fatalf("a script that caught the failure: %+v", g)
	}
}

// TestOfflineCannotBeClaimed: a script raising an error that reads like the
// offline message is a script error; only the host's record makes an
// outcome offline.
func TestOfflineCannotBeClaimed(t *testing.T) {
	svc, _ := service(t, config.Settings{})
	note := Note{Key: "file:///forge.mk.md", Scripts: []Script{lua("v", `error("fetch: api.github.example could not be resolved")`)}}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomes(res)["v"]; o.Kind != value.ScriptError || strings.Contains(o.Summary(), "offline") {
		t.Fatalf("%+v", o)
	}
}
