package run

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/runtime/values"
	"github.com/markii/markii/value"
)

// service is a Service over a fresh state directory with the given
// settings, running scripts with the in-process engine.
func service(t *testing.T, s config.Settings) (*Service, *state.Store) {
	t.Helper()
	st := state.Open(t.TempDir(), state.Options{})
	return &Service{
		Settings: func() (config.Settings, error) { return s, nil },
		Store:    DeviceStore{State: st},
		Runner:   engine.Run,
		Version:  "test",
	}, st
}

func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprint(w, `{"v":7}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func lua(name, src string) Script { return Script{Name: name, Lang: "lua", Source: src} }

func outcomes(res *Result) map[string]script.Outcome {
	out := map[string]script.Outcome{}
	for _, o := range res.Outcomes {
		out[o.Name] = o
	}
	return out
}

// yes allows every prompt and records the questions.
type yes struct{ asked []string }

func (y *yes) Ask(q string) (bool, error) { y.asked = append(y.asked, q); return true, nil }

func TestManualRunWithoutPrompterDeniesAndAutoRunUsesStoredGrant(t *testing.T) {
	t.Parallel()
	svc, st := service(t, config.Settings{})
	srv, hits := countingServer(t)
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{lua("v", `return net.fetch_json("`+srv.URL+`/x").v`)}}
	var notices bytes.Buffer
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Notices: &notices})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomes(res)["v"]; o.Kind != value.CapabilityDenied || hits.Load() != 0 {
		t.Fatalf("%+v hits %d", o, hits.Load())
	}
	if !strings.Contains(notices.String(), grants.NonInteractiveReason) {
		t.Fatalf("notices %q", notices.String())
	}
	// A grant stored by hand for exactly this code lets an auto run reach
	// the host without asking.
	if err := grants.NewStore(st).Put(note.Key, grants.Record{Key: res.Key, AllowedHosts: []string{"127.0.0.1"}}); err != nil {
		t.Fatal(err)
	}
	notices.Reset()
	res, err = svc.Run(context.Background(), Request{Note: note, Trigger: script.Auto, Prompter: &yes{}, Notices: &notices})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomes(res)["v"]; o.Kind != value.Ok || string(o.Value) != "7" || hits.Load() != 1 {
		t.Fatalf("%+v hits %d notices %q", o, hits.Load(), notices.String())
	}
	if snap := mustLoad(t, st, note.Key); string(snap["v"].Value) != "7" {
		t.Fatalf("stored %+v", snap)
	}
}

func TestScriptsDisabledReadsNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	svc := &Service{
		Settings: func() (config.Settings, error) { return config.Settings{ScriptsDisabled: true}, nil },
		Store:    DeviceStore{State: state.Open(dir, state.Options{})},
		Runner:   engine.Run,
	}
	ran := false
	res, err := svc.Run(context.Background(), Request{Note: Note{Key: "k", Scripts: []Script{lua("v", "return 1")}},
		Trigger: script.Manual, OnOutcome: func(script.Outcome) { ran = true }})
	if res != nil || err != ErrScriptsDisabled || ran {
		t.Fatalf("res %+v err %v ran %v", res, err, ran)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("something was written: %v", entries)
	}
}

// writeBundle writes a bundle directory from name → text.
func writeBundle(t *testing.T, files map[string]string) *bundle.Bundle {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "b.mkz")
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const manifest = `{"spec":"0.1.0","permissions":{"net":{"get":["declared.example","api.example"]},"bundle":["read"]}}`

func TestClosureCoversSrcFilesAndModules(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"manifest.json":    manifest,
		"note.mk.md":       "```lua {name=a src=scripts/a.lua permissions=api.example}\n```\n",
		"scripts/a.lua":    `return net.fetch_json("https://api.example/x")`,
		"scripts/util.lua": `return net.post("https://util.example/y", "")`,
		"assets/data.json": `{}`,
	}
	key := func() (string, grants.Result) {
		b := writeBundle(t, files)
		c := buildClosure(Note{Bundle: b, Scripts: []Script{{Name: "a", Lang: "lua", Src: "scripts/a.lua", HasSrc: true, Permissions: []string{"api.example"}}}})
		if len(c.blocks) != 1 || !strings.Contains(c.blocks[0].Source, "api.example") || c.unloadable[0] != "" {
			t.Fatalf("blocks %+v %q", c.blocks, c.unloadable)
		}
		return grants.Key(c.grants), grants.Scan(c.grants, c.declared)
	}
	k1, scan := key()
	if strings.Join(scan.Hosts, ",") != "api.example,util.example" {
		t.Fatalf("hosts %v", scan.Hosts)
	}
	if !strings.Contains(strings.Join(scan.Mismatch, "\n"), "declared.example") {
		t.Fatalf("mismatch %v", scan.Mismatch)
	}
	files["scripts/a.lua"] += " "
	k2, _ := key()
	files["scripts/util.lua"] += " -- c"
	k3, _ := key()
	files[".cache/m.lua"] = "return 1"
	k4, _ := key()
	files["assets/data.json"] = `{"a":1}`
	k5, _ := key()
	if k1 == k2 || k2 == k3 || k3 == k4 {
		t.Fatal("a change to a src= file or a module did not change the key")
	}
	if k4 != k5 {
		t.Fatal("a data file that cannot run changed the key")
	}
}

// A src= file that cannot be loaded fails that script with a message that
// names the path and the reason, and never replaces a stored good value.
func TestUnloadableSrcFails(t *testing.T) {
	t.Parallel()
	svc, st := service(t, config.Settings{})
	b := writeBundle(t, map[string]string{
		"manifest.json":  `{"spec":"0.1.0"}`,
		"note.mk.md":     "x\n",
		"scripts/a.lua":  "return 42",
		"scripts/bc.lua": "\x1bLua",
	})
	src := func(name, path string) Script { return Script{Name: name, Lang: "lua", Src: path, HasSrc: true} }
	note := Note{Key: "file:///b.mkz", Bundle: b, Scripts: []Script{
		lua("first", "return 1"),
		src("a", "scripts/a.lua"),
		src("missing", "scripts/gone.lua"),
		src("escaping", "../outside.lua"),
		src("absolute", "/etc/passwd"),
		src("bytecode", "scripts/bc.lua"),
		lua("last", "return doc.value('a') + 1"),
	}}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, o := range res.Outcomes {
		order = append(order, o.Name)
	}
	if strings.Join(order, ",") != "first,a,missing,escaping,absolute,bytecode,last" {
		t.Fatalf("outcomes out of document order: %v", order)
	}
	got := outcomes(res)
	if got["a"].Kind != value.Ok || string(got["a"].Value) != "42" || string(got["last"].Value) != "43" {
		t.Fatalf("loadable scripts: %+v %+v", got["a"], got["last"])
	}
	for name, want := range map[string]string{"missing": "scripts/gone.lua", "escaping": "../outside.lua", "absolute": "/etc/passwd", "bytecode": "scripts/bc.lua"} {
		if o := got[name]; o.Kind != value.ScriptError || !strings.Contains(o.Detail, want) {
			t.Errorf("%s: %s %q, want a script error naming %s", name, o.Kind, o.Detail, want)
		}
	}

	// A stored good value survives its src= file going away.
	gone := writeBundle(t, map[string]string{"manifest.json": `{"spec":"0.1.0"}`, "note.mk.md": "x\n"})
	note.Bundle = gone
	if _, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual}); err != nil {
		t.Fatal(err)
	}
	if e := mustLoad(t, st, note.Key)["a"]; e.Status != value.Stale || string(e.Value) != "42" {
		t.Fatalf("a stored as %+v after its file went away, want 42 kept as stale", e)
	}
}

// Outcomes reach OnOutcome as they come, after OnPlan.
func TestCallbacksInOrder(t *testing.T) {
	t.Parallel()
	svc, _ := service(t, config.Settings{})
	var events []string
	_, err := svc.Run(context.Background(), Request{
		Note:      Note{Scripts: []Script{lua("a", "return 1"), lua("b", "return 2")}},
		Trigger:   script.Manual,
		OnPlan:    func(p Plan) { events = append(events, "plan:"+strings.Join(p.Scripts, ",")) },
		OnOutcome: func(o script.Outcome) { events = append(events, o.Name) },
	})
	if err != nil || strings.Join(events, " ") != "plan:a,b a b" {
		t.Fatalf("events %v, err %v", events, err)
	}
}

// writePack installs a pack folder "ana" whose http module returns src.
func writePack(t *testing.T, dir, src string) {
	t.Helper()
	ana := filepath.Join(dir, "ana")
	if err := os.MkdirAll(filepath.Join(ana, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ana, "pack.json"), []byte(`{"name":"ana","engine":"react","version":"1.0.0","components":{"timeline":"t.js"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ana, "scripts", "http.lua"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A pack named in the user's settings serves `require "pack/module"`, and
// its module sources are part of the closure key: changing the pack's code
// changes the key, so an earlier grant no longer applies.
func TestPackModulesRunAndAreKeyed(t *testing.T) {
	t.Parallel()
	packDir := t.TempDir()
	writePack(t, packDir, `return {answer = function() return 42 end}`)
	svc, _ := service(t, config.Settings{Packs: []string{packDir}})
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{lua("v", `return require("ana/http").answer()`), lua("none", `return require("zed/http")`)}}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual})
	if err != nil {
		t.Fatal(err)
	}
	got := outcomes(res)
	if o := got["v"]; o.Kind != value.Ok || string(o.Value) != "42" {
		t.Fatalf("pack require: %+v", o)
	}
	if o := got["none"]; o.Kind != value.CapabilityDenied {
		t.Fatalf("require of a pack that is not installed: %+v, want capability-denied", o)
	}
	writePack(t, packDir, `return {answer = function() return 43 end}`)
	res2, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Key == res.Key {
		t.Fatal("changing a pack module's code left the closure key unchanged")
	}
}

// mustLoad reads a note's stored values.
func mustLoad(t *testing.T, st state.Entries, doc string) values.Snapshot {
	t.Helper()
	snap, err := values.Load(st, doc)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// Blocks that load one src= file share one copy of its text, however
// they spell its path: a note of many such fences costs the file once.
func TestSrcFilesAreLoadedOnce(t *testing.T) {
	t.Parallel()
	b := writeBundle(t, map[string]string{
		"manifest.json": manifest,
		"note.mk.md":    "",
		"scripts/a.lua": strings.Repeat("-- long\n", 1000) + "return 1",
	})
	var scripts []Script
	for _, src := range []string{"scripts/a.lua", "scripts//a.lua", "./scripts/a.lua", "scripts/./a.lua", "scripts/a.lua"} {
		scripts = append(scripts, Script{Name: "s", Lang: "lua", Src: src, HasSrc: true})
	}
	c := buildClosure(Note{Bundle: b, Scripts: scripts})
	first := unsafe.StringData(c.blocks[0].Source)
	for i, blk := range c.blocks {
		if c.unloadable[i] != "" || !strings.HasSuffix(blk.Source, "return 1") {
			t.Fatalf("block %d (src=%s) did not load: %q", i, scripts[i].Src, c.unloadable[i])
		}
		if unsafe.StringData(blk.Source) != first {
			t.Errorf("block %d (src=%s) holds a copy of its own", i, scripts[i].Src)
		}
	}
}

// TestBodyCapIsTheRunsLimit: the network client caps a body at the run's
// own FetchBytes, where the body is read (not at a second constant of its
// own with the engine checking the limit after the fact).
func TestBodyCapIsTheRunsLimit(t *testing.T) {
	saved := runLimits
	runLimits.FetchBytes = 5
	t.Cleanup(func() { runLimits = saved })
	svc, _ := service(t, config.Settings{})
	srv, hits := countingServer(t)
	note := Note{Key: "file:///cap.mk.md", Scripts: []Script{lua("v", `return net.fetch_json("`+srv.URL+`/x").v`)}}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: &yes{}, Notices: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomes(res)["v"]; o.Kind != value.CapabilityDenied || !strings.Contains(o.Detail, "over the 5 byte cap") || hits.Load() != 1 {
		t.Fatalf("%+v hits %d, want the client's refusal of a body over the run's 5-byte limit", o, hits.Load())
	}
}
