package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/script"
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
