package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

func runAll(t *testing.T, req *script.Request, host script.Host) map[string][]script.Outcome {
	t.Helper()
	if req.Limits == (script.Limits{}) {
		req.Limits = testLimits
	}
	got := map[string][]script.Outcome{}
	if err := Run(context.Background(), req, host, func(o script.Outcome) { got[o.Name] = append(got[o.Name], o) }); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestOrchestration(t *testing.T) {
	req := &script.Request{Tier: script.TierManual, Blocks: []script.Block{
		{Name: "a", Source: `x_global = 1 return {n = 1}`},
		{Name: "b", Source: `local v = doc.value("a") v.n = 99 local again = doc.value("a") return {again.n, x_global == nil, doc.value("missing") == nil}`},
		{Name: "c", Source: `return doc.value("d")`},
		{Name: "d", Source: `return "first"`},
		{Name: "d", Source: `return "second"`},
		{Name: "e", Source: `return doc.value("d")`},
		{Name: "f", Source: `error("` + LaterValueSentence + `")`},
	}}
	got := runAll(t, req, nil)
	if o := got["b"][0]; o.Kind != value.Ok || string(o.Value) != `[1,true,true]` {
		t.Fatalf("b = %+v %s", o, o.Value)
	}
	if o := got["c"][0]; o.Kind != value.ScriptError || o.Detail != LaterValueSentence {
		t.Fatalf("c = %+v", o)
	}
	if len(got["d"]) != 2 {
		t.Fatalf("duplicates did not both run")
	}
	if o := got["e"][0]; string(o.Value) != `"second"` {
		t.Fatalf("last duplicate did not win: %s", o.Value)
	}
	if o := got["f"][0]; o.Kind != value.ScriptError || !strings.HasPrefix(o.Detail, "f:1:") {
		t.Fatalf("forged sentence = %+v", o)
	}
}

func TestForgedLimitsAreClamped(t *testing.T) {
	req := &script.Request{Tier: script.TierManual,
		Limits: script.Limits{Instructions: 1 << 62, ScriptTime: 100 * time.Hour, Memory: 1 << 40, MarshalNodes: 1 << 30, MarshalDepth: 1 << 20},
		Blocks: []script.Block{{Name: "deep", Source: `local t = {} local c = t for i = 1, 40 do c.x = {} c = c.x end return t`},
			{Name: "rep", Source: `return #string.rep("a", 64 * 1024 * 1024)`}}}
	got := runAll(t, req, nil)
	if o := got["deep"][0]; o.Kind != value.ScriptError || !strings.Contains(o.Detail, "depth") {
		t.Fatalf("raised depth ceiling: %+v", o)
	}
	if o := got["rep"][0]; o.Kind != value.LimitExceeded || o.Limit != script.LimitMemory {
		t.Fatalf("raised memory ceiling: %+v", o)
	}
}

func TestDocListingCaps(t *testing.T) {
	var dirs []script.Directive
	dirs = append(dirs, script.Directive{Name: "stat\x00", Form: "leaf", Text: "a\x00b\x1b[31m\xed\xa0\x80c\td\ne",
		Attrs: []script.Attr{{Key: "__proto__", Value: "x"}, {Key: strings.Repeat("k", 200), Value: "dropped"}, {Key: "big", Value: strings.Repeat("v", 2000)}}})
	dirs = append(dirs, script.Directive{Name: "huge", Form: "container", Text: strings.Repeat("t", 1<<20)})
	for i := 0; i < 40; i++ {
		dirs[1].Attrs = append(dirs[1].Attrs, script.Attr{Key: "a" + strings.Repeat("x", i), Value: "v"})
	}
	for i := 0; i < 3000; i++ {
		dirs = append(dirs, script.Directive{Name: "n", Form: "inline"})
	}
	req := &script.Request{Tier: script.TierAuto, Directives: dirs, Blocks: []script.Block{{Name: "x", Source: `
		local all = doc.directives()
		local first = all[1]
		first.name = "changed"
		local again = doc.directives({name = "stat"})
		local attrs = 0 for _ in pairs(all[2].attributes) do attrs = attrs + 1 end
		return {n = #all, truncated = doc.truncated, name = again[1].name, text = again[1].text,
			proto = again[1].attributes.__proto__, big = #again[1].attributes.big, hugeText = #all[2].text, attrs = attrs,
			dropped = again[1].attributes[("k"):rep(200)] == nil}`}}}
	o := runAll(t, req, nil)["x"][0]
	want := `{"attrs":32,"big":1024,"dropped":true,"hugeText":8192,"n":2000,"name":"stat","proto":"x","text":"ab[31mc\td\ne","truncated":true}`
	if o.Kind != value.Ok || string(o.Value) != want {
		t.Fatalf("got %+v %s\nwant %s", o, o.Value, want)
	}
	filter := runAll(t, &script.Request{Blocks: []script.Block{{Name: "x", Source: `return doc.directives("stat")`}}}, nil)["x"][0]
	if filter.Kind != value.ScriptError {
		t.Fatalf("string filter: %+v", filter)
	}
}

// memoryHost is a real Host holding a cache and module sources in memory.
type memoryHost struct {
	DenyAll
	cache   map[string]json.RawMessage
	at      map[string]time.Time
	modules map[string]string
	puts    int
}

func (h *memoryHost) CacheGet(_ context.Context, key string) (json.RawMessage, time.Time, bool, error) {
	v, ok := h.cache[key]
	return v, h.at[key], ok, nil
}

func (h *memoryHost) CachePut(_ context.Context, key string, v json.RawMessage) error {
	h.cache[key], h.at[key] = v, time.Now()
	h.puts++
	return nil
}

func (h *memoryHost) Require(_ context.Context, name string) (string, error) {
	src, ok := h.modules[name]
	if !ok {
		return "", &notFound{name}
	}
	return src, nil
}

type notFound struct{ name string }

func (e *notFound) Error() string { return "no bundle module at " + e.name }

func TestCacheAndRequireThroughAHost(t *testing.T) {
	h := &memoryHost{cache: map[string]json.RawMessage{}, at: map[string]time.Time{}, modules: map[string]string{
		"scripts/util": `return {double = function(x) return x * 2 end}`,
		"scripts/a":    `return require("scripts/b")`,
		"scripts/b":    `return require("scripts/a")`,
		"scripts/nil":  `counter = (counter or 0) + 1`,
	}}
	h.cache["stale"] = json.RawMessage(`{"v":1}`)
	h.at["stale"] = time.Now().Add(-time.Hour)
	h.cache["future"] = json.RawMessage(`{"v":1}`)
	h.at["future"] = time.Now().Add(time.Hour)
	h.cache["bad"] = json.RawMessage(`[[[[`)
	h.at["bad"] = time.Now()
	req := &script.Request{Tier: script.TierAuto, Blocks: []script.Block{
		{Name: "util", Source: `local u = require("scripts/util") return {u.double(21), require("scripts/util") == u}`},
		{Name: "cycle", Source: `return require("scripts/a")`},
		{Name: "missing", Source: `return require("scripts/none")`},
		{Name: "nilmod", Source: `require("scripts/nil") require("scripts/nil") return {require("scripts/nil"), counter}`},
		{Name: "miss", Source: `return cache.get("k", 60, function() return {a = {1, 2}} end)`},
		{Name: "hit", Source: `return cache.get("k", 60, function() error("not called") end)`},
		{Name: "stale", Source: `return cache.get("stale", 60, function() return "recomputed" end)`},
		{Name: "future", Source: `return cache.get("future", 60, function() return "recomputed" end)`},
		{Name: "bad", Source: `return cache.get("bad", 60, function() return "recomputed" end)`},
		{Name: "cyclic write", Source: `return cache.get("c", 60, function() local t = {} t.t = t return t end)`},
	}}
	got := runAll(t, req, h)
	check := func(name string, kind value.Kind, value string) {
		t.Helper()
		o := got[name][0]
		if o.Kind != kind || (value != "" && string(o.Value) != value) {
			t.Errorf("%s = %+v %s", name, o, o.Value)
		}
	}
	check("util", value.Ok, `[42,true]`)
	check("cycle", value.ScriptError, "")
	check("missing", value.ScriptError, "")
	check("nilmod", value.Ok, `[true,1]`)
	check("miss", value.Ok, `{"a":[1,2]}`)
	check("hit", value.Ok, `{"a":[1,2]}`)
	check("stale", value.Ok, `"recomputed"`)
	check("future", value.Ok, `"recomputed"`)
	check("bad", value.Ok, `"recomputed"`)
	check("cyclic write", value.ScriptError, "")
	if _, ok := h.cache["c"]; ok {
		t.Error("a cyclic value reached the cache")
	}
}

func TestCancelledRunEmitsEveryScript(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	req := &script.Request{Limits: script.Limits{Instructions: 100_000_000}, Blocks: []script.Block{
		{Name: "a", Source: `while true do end`}, {Name: "b", Source: `return 1`}}}
	time.AfterFunc(50*time.Millisecond, cancel)
	var got []script.Outcome
	err := Run(ctx, req, nil, func(o script.Outcome) { got = append(got, o) })
	if err == nil || len(got) != 2 || got[0].Limit != script.LimitTimeout || got[1].Limit != script.LimitTimeout {
		t.Fatalf("err %v, outcomes %+v", err, got)
	}
}
