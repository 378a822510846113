package engine

import (
	"context"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

func runBlocks(t *testing.T, req *script.Request) []script.Outcome {
	t.Helper()
	var out []script.Outcome
	if err := Run(context.Background(), req, DenyAll{}, func(o script.Outcome) { out = append(out, o) }); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(req.Blocks) {
		t.Fatalf("%d outcomes for %d blocks", len(out), len(req.Blocks))
	}
	return out
}

func preparedWaiting() bool {
	preparedMu.Lock()
	defer preparedMu.Unlock()
	return prepared != nil
}

// TestPreparedStateServesOneScript: a state prepared ahead of time is taken
// by the next script, carries that run's records (doc.truncated here), and
// serves that script alone: what it changes is gone for the next one.
func TestPreparedStateServesOneScript(t *testing.T) {
	Prepare()
	if !preparedWaiting() {
		t.Fatal("Prepare left no state waiting")
	}
	req := &script.Request{Tier: script.TierManual, Truncated: true, Limits: testLimits, Blocks: []script.Block{
		{Name: "a", Lang: "lua", Source: `leak = 1 string.upper = nil json = nil return doc.truncated`},
		{Name: "b", Lang: "lua", Source: `return {leak == nil, ("x"):upper() == "X", string.upper ~= nil, json ~= nil, doc.truncated}`},
	}}
	out := runBlocks(t, req)
	if preparedWaiting() {
		t.Fatal("the prepared state was not taken")
	}
	if out[0].Kind != value.Ok || string(out[0].Value) != "true" {
		t.Fatalf("first script: %+v", out[0])
	}
	if out[1].Kind != value.Ok || string(out[1].Value) != "[true,true,true,true,true]" {
		t.Fatalf("second script: %+v %s", out[1], out[1].Value)
	}

	// A prepared state meets a script that cannot run at all: it is
	// released, and the next script still runs.
	Prepare()
	req = &script.Request{Tier: script.TierManual, Limits: testLimits, Blocks: []script.Block{
		{Name: "src", Lang: "lua", Src: "x.lua"},
		{Name: "b", Lang: "lua", Source: `return doc.truncated`},
	}}
	out = runBlocks(t, req)
	if out[0].Kind != value.ScriptError || out[1].Kind != value.Ok || string(out[1].Value) != "false" {
		t.Fatalf("outcomes %+v", out)
	}
	if preparedWaiting() {
		t.Fatal("the prepared state was not taken")
	}
}
