package cli

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

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
)

func withSettings(t *testing.T, s config.Settings) {
	t.Helper()
	old := loadSettings
	loadSettings = func() (config.Settings, error) { return s, nil }
	t.Cleanup(func() { loadSettings = old })
}

func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprint(w, `{"v":7}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func writeNote(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func runPlanned(t *testing.T, p *runPlan, tier script.Tier) map[string]script.Outcome {
	out := map[string]script.Outcome{}
	req := &script.Request{Tier: tier, Blocks: p.Blocks}
	if err := engine.Run(context.Background(), req, p.Host, func(o script.Outcome) { out[o.Name] = o }); err != nil {
		t.Fatal(err)
	}
	p.Finish()
	return out
}

func TestPlanRunNonInteractiveAndStoredGrant(t *testing.T) {
	stateDirPath := withGrantState(t)
	withSettings(t, config.Settings{})
	srv, hits := countingServer(t)
	notePath := writeNote(t, "```lua {name=v}\nreturn net.fetch_json(\""+srv.URL+"/x\").v\n```\n")
	n, err := loadNote(notePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := render.Parse(n.Source)
	var errb bytes.Buffer
	// A manual run without a terminal denies without asking.
	p, err := planRun(context.Background(), n, doc, script.Manual, consentPrompter(strings.NewReader("y\n"), &errb), &errb)
	if err != nil {
		t.Fatal(err)
	}
	out := runPlanned(t, p, script.TierManual)
	if out["v"].Kind != script.CapabilityDenied || hits.Load() != 0 {
		t.Fatalf("%+v hits %d", out, hits.Load())
	}
	if errb.String() != "markii: "+grants.NonInteractiveReason+"\n" {
		t.Fatalf("stderr %q", errb.String())
	}
	// A grant stored by hand for exactly this code lets an auto run reach
	// the host without asking.
	store := grants.NewStore(state.Open(stateDirPath))
	if err := store.Put(n.Key, grants.Record{Key: p.Prepared.Key, AllowedHosts: []string{"127.0.0.1"}}); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	p, err = planRun(context.Background(), n, doc, script.Auto, nil, &errb)
	if err != nil {
		t.Fatal(err)
	}
	out = runPlanned(t, p, script.TierAuto)
	if out["v"].Kind != script.Ok || string(out["v"].Value) != "7" || hits.Load() != 1 || errb.Len() != 0 {
		t.Fatalf("%+v hits %d stderr %q", out, hits.Load(), errb.String())
	}
}

func TestPlanRunScriptsDisabled(t *testing.T) {
	stateDirPath := withGrantState(t)
	withSettings(t, config.Settings{ScriptsDisabled: true})
	n, _ := loadNote(writeNote(t, "```lua {name=v}\nreturn 1\n```\n"), nil)
	var errb bytes.Buffer
	_, err := planRun(context.Background(), n, render.Parse(n.Source), script.Manual, nil, &errb)
	if err != errScriptsDisabled {
		t.Fatalf("got %v", err)
	}
	if _, statErr := os.Stat(filepath.Join(stateDirPath, state.FileName)); !os.IsNotExist(statErr) || errb.Len() != 0 {
		t.Fatalf("something was read or written: %v %q", statErr, errb.String())
	}
}

func TestNoteClosureBundle(t *testing.T) {
	withSettings(t, config.Settings{})
	dir := filepath.Join(t.TempDir(), "b.mkz")
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("manifest.json", `{"spec":"0.1.0","permissions":{"net":{"get":["declared.example","api.example"]},"bundle":["read"]}}`)
	write("note.mk.md", "```lua {name=a src=scripts/a.lua permissions=api.example}\n```\n")
	write("scripts/a.lua", `return net.fetch_json("https://api.example/x")`)
	write("scripts/util.lua", `return net.post("https://util.example/y", "")`)
	write("assets/data.json", `{}`)
	key := func() (string, grants.Result) {
		n, err := loadNote(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		blocks, c, d := noteClosure(n, render.Parse(n.Source))
		if len(blocks) != 1 || !strings.Contains(blocks[0].Source, "api.example") {
			t.Fatalf("blocks %+v", blocks)
		}
		return grants.Key(c), grants.Scan(c, d)
	}
	k1, scan := key()
	if strings.Join(scan.Hosts, ",") != "api.example,util.example" {
		t.Fatalf("hosts %v", scan.Hosts)
	}
	if !strings.Contains(strings.Join(scan.Mismatch, "\n"), "declared.example") {
		t.Fatalf("mismatch %v", scan.Mismatch)
	}
	write("scripts/a.lua", `return net.fetch_json("https://api.example/x") `)
	k2, _ := key()
	write("scripts/util.lua", `return net.post("https://util.example/y", "") -- c`)
	k3, _ := key()
	write(".cache/m.lua", `return 1`)
	k4, _ := key()
	write("assets/data.json", `{"a":1}`)
	k5, _ := key()
	if k1 == k2 || k2 == k3 || k3 == k4 {
		t.Fatal("a change to a src= file or a module did not change the key")
	}
	if k4 != k5 {
		t.Fatal("a data file that cannot run changed the key")
	}
}
