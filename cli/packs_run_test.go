package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/script"
)

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
func TestRunRequiresPackModulesAndKeysThem(t *testing.T) {
	withGrantState(t)
	packDir := t.TempDir()
	writePack(t, packDir, `return {answer = function() return 42 end}`)
	withSettings(t, config.Settings{Packs: []string{packDir}})
	notePath := writeNote(t, "```lua {name=v}\nreturn require(\"ana/http\").answer()\n```\n\n```lua {name=none}\nreturn require(\"zed/http\")\n```\n")
	n, err := loadNote(notePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := render.Parse(n.Source)
	var errb bytes.Buffer
	p, err := planRun(context.Background(), n, doc, script.Manual, nil, &errb)
	if err != nil {
		t.Fatal(err)
	}
	out := runPlanned(t, p, script.TierManual)
	if o := out["v"]; o.Kind != script.Ok || string(o.Value) != "42" {
		t.Fatalf("pack require: %+v", o)
	}
	if o := out["none"]; o.Kind != script.CapabilityDenied {
		t.Fatalf("require of a pack that is not installed: %+v, want capability-denied", o)
	}
	key1 := p.Prepared.Key

	writePack(t, packDir, `return {answer = function() return 43 end}`)
	p2, err := planRun(context.Background(), n, doc, script.Manual, nil, &errb)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Prepared.Key == key1 {
		t.Fatal("changing a pack module's code left the closure key unchanged")
	}
}
