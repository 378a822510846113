package engine

import (
	"context"
	"testing"

	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// lostHost answers every fetch as an effectful request whose answer was
// lost after it was sent.
type lostHost struct{ DenyAll }

func (lostHost) Fetch(_ context.Context, r script.FetchRequest) (script.FetchResponse, error) {
	return script.FetchResponse{}, &script.UnknownOutcome{Host: netclient.HostOf(r.URL), Reason: "the connection was lost after the request was sent"}
}

func TestLostEffectfulRequestIsOutcomeUnknown(t *testing.T) {
	got := runAll(t, &script.Request{Tier: script.TierManual, Blocks: []script.Block{
		{Name: "sent", Source: `return net.post("https://api.example.com/x", "{}")`},
		{Name: "caught", Source: `local ok = pcall(net.post, "https://api.example.com/x", "{}") return ok`},
		{Name: "forged", Source: `error("outcome-unknown")`},
	}}, lostHost{})
	if o := got["sent"][0]; o.Kind != value.OutcomeUnknown || o.Host != "api.example.com" || o.Capability != script.CapNet {
		t.Errorf("sent: %+v, want outcome-unknown for api.example.com", o)
	}
	if o := got["caught"][0]; o.Kind != value.Ok || string(o.Value) != "false" {
		t.Errorf("caught: %+v, want ok(false): a script that handles the error decides its own value", o)
	}
	if o := got["forged"][0]; o.Kind != value.ScriptError {
		t.Errorf("forged: %+v, want script-error", o)
	}
}
