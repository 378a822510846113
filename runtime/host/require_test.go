package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/value"
)

// runWithBundle runs blocks against a real directory bundle holding files.
func runWithBundle(t *testing.T, files map[string]string, blocks ...script.Block) map[string]script.Outcome {
	t.Helper()
	dir := t.TempDir()
	files["manifest.json"] = `{"spec":"0.1.0","permissions":{"bundle":["read"]}}`
	files["note.mk.md"] = "# n\n"
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := New(Options{Trigger: script.Manual, Bundle: b.Session([]bundle.Grant{bundle.GrantRead}, script.TierManual)})
	req := &script.Request{Tier: script.TierManual, Blocks: blocks}
	got := map[string]script.Outcome{}
	if err := engine.Run(context.Background(), req, h, func(o script.Outcome) { got[o.Name] = o }); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestBundleCallsAreAudited: the host records each bundle call it
// allows (with the bytes it handed over) and each it refuses, with why.
func TestBundleCallsAreAudited(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"manifest.json": `{"spec":"0.1.0","permissions":{"bundle":["read"]}}`,
		"note.mk.md": "# n\n", "assets/a.txt": "hello", "scripts/m.lua": "return 1"}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := audit.ForStore(state.Open(t.TempDir(), state.Options{}), audit.Options{})
	h := New(Options{Trigger: script.Auto, Bundle: b.Session([]bundle.Grant{bundle.GrantRead}, script.TierAuto),
		Audit: audit.NewRun(l, "r", "file:///n", "k", false)})
	req := &script.Request{Tier: script.TierAuto, Bundle: true, Blocks: []script.Block{
		{Name: "read", Source: `return {bundle.read("assets/a.txt"), bundle.exists("assets/none"), require("scripts/m")}`},
		{Name: "outside", Source: `return bundle.read("../../etc/passwd")`},
		{Name: "write", Source: `return bundle.write(".cache/x", "y")`},
	}}
	if err := engine.Run(context.Background(), req, h, func(script.Outcome) {}); err != nil {
		t.Fatal(err)
	}
	recs, _, err := l.Read(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%s %s %s %d", r.Capability, r.Path, r.Decision, r.BytesIn))
		if r.Decision == audit.Denied && r.Reason == "" {
			t.Fatalf("a refusal without its reason: %+v", r)
		}
	}
	want := []string{"bundle.read assets/a.txt allowed 5", "bundle.exists assets/none allowed 0", "require scripts/m allowed 8",
		"bundle.read ../../etc/passwd denied 0", "bundle.write .cache/x denied 0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEverySpellingOfAModuleRunsItOnce: scripts/m, scripts/m.lua,
// scripts//m and scripts/./m are one module, run once per script.
func TestEverySpellingOfAModuleRunsItOnce(t *testing.T) {
	got := runWithBundle(t, map[string]string{
		"scripts/m.lua": `runs = (runs or 0) + 1 return {n = runs}`,
	}, script.Block{Name: "spellings", Source: `
		local a = require("scripts/m")
		local b = require("scripts/m.lua")
		local c = require("scripts//m")
		local d = require("scripts/./m")
		return {runs, a == b and b == c and c == d}`})
	if o := got["spellings"]; o.Kind != value.Ok || string(o.Value) != `[1,true]` {
		t.Fatalf("got %+v %s, want the module run once and one value", o, o.Value)
	}
}

// TestRequireOfANonStringIsAScriptError: require(42) is the script's
// mistake, not a capability the host refused.
func TestRequireOfANonStringIsAScriptError(t *testing.T) {
	got := runWithBundle(t, map[string]string{"scripts/42.lua": `return 1`},
		script.Block{Name: "number", Source: `return require(42)`},
		script.Block{Name: "table", Source: `return require({})`},
		script.Block{Name: "none", Source: `return require()`})
	for _, name := range []string{"number", "table", "none"} {
		if o := got[name]; o.Kind != value.ScriptError {
			t.Errorf("%s: %q (%s), want a script error", name, o.Kind, o.Detail)
		}
	}
}
