package engine

import (
	"context"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
	lua "github.com/yuin/gopher-lua"
)

const fibSource = `local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end return fib(27)`

const trivialSource = `local t={} for i=1,10 do t[i]=i*i end return table.concat(t,",")`

// BenchmarkNewState measures creating (and closing) one curated state with
// the whole script API installed. Goal: at most 200 µs.
func BenchmarkNewState(b *testing.B) {
	req := &script.Request{Tier: script.TierManual}
	for b.Loop() {
		r := &scriptRun{ctx: context.Background(), req: req, host: DenyAll{}, limits: script.Ceiling, ids: map[lua.LValue]int{}}
		r.meter = newMeter(r.limits.Instructions)
		L := newLuaState(r)
		r.L = L
		r.installAPI()
		L.Close()
	}
}

// BenchmarkTrivialScript runs a small script end to end in-process: state,
// limits, run, classification and marshalling. Goal: at most 300 µs.
func BenchmarkTrivialScript(b *testing.B) {
	req := &script.Request{Tier: script.TierManual, Blocks: []script.Block{{Name: "t", Source: trivialSource}}}
	for b.Loop() {
		var kind value.Kind
		Run(context.Background(), req, DenyAll{}, func(o script.Outcome) { kind = o.Kind })
		if kind != value.Ok {
			b.Fatal(kind)
		}
	}
}

// BenchmarkFib27Curated runs fib(27) under every limit.
func BenchmarkFib27Curated(b *testing.B) {
	req := &script.Request{Tier: script.TierManual, Blocks: []script.Block{{Name: "fib", Source: fibSource}}}
	for b.Loop() {
		var o script.Outcome
		Run(context.Background(), req, DenyAll{}, func(out script.Outcome) { o = out })
		if string(o.Value) != "196418" {
			b.Fatal(o)
		}
	}
}

// BenchmarkFib27Default runs fib(27) in gopher-lua's unrestricted default
// state, the baseline for the curated one (goal: at most 30% slower).
func BenchmarkFib27Default(b *testing.B) {
	for b.Loop() {
		L := lua.NewState()
		if err := L.DoString(fibSource); err != nil {
			b.Fatal(err)
		}
		if L.Get(-1).String() != "196418" {
			b.Fatal(L.Get(-1))
		}
		L.Close()
	}
}
