package state

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMigrationMovesEveryEntryOnce(t *testing.T) {
	root := t.TempDir()
	legacy := filepath.Join(root, "config", "markii", LegacyFileName)
	os.MkdirAll(filepath.Dir(legacy), 0o700)
	body := `{
  "markii.netGrants": {"file:///a.mk.md": {"key": "k1", "allowedHosts": ["a.example"]}, "file:///b.mk.md": {"key": "k2", "allowedHosts": []}},
  "markii.runValues:file:///a.mk.md": {"n": {"value": 42, "status": "fresh"}},
  "markii.runCache:file:///a.mk.md": {"c": {"value": [1], "storedAtMs": 5}},
  "markii.lastRun:file:///a.mk.md": {"trigger": "manual", "ranAt": 7, "ok": true},
  "someone.else": {"kept": true}
}`
	if err := os.WriteFile(legacy, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "state", "markii")
	var w warnings
	s := Open(dir, Options{Legacy: legacy, Warn: w.add})
	if got := get(t, s, "file:///a.mk.md", SectionGrant); got != `{"key":"k1","allowedHosts":["a.example"]}` {
		t.Fatalf("grant a = %q", got)
	}
	if len(w.got) != 0 {
		t.Fatalf("warnings: %v", w.got)
	}
	for _, c := range []struct {
		doc  string
		sec  Section
		want string
	}{
		{"file:///b.mk.md", SectionGrant, `{"key":"k2","allowedHosts":[]}`},
		{"file:///a.mk.md", SectionValues, `{"n":{"value":42,"status":"fresh"}}`},
		{"file:///a.mk.md", SectionCache, `{"c":{"value":[1],"storedAtMs":5}}`},
		{"file:///a.mk.md", SectionLastRun, `{"trigger":"manual","ranAt":7,"ok":true}`},
	} {
		if got := get(t, s, c.doc, c.sec); got != c.want {
			t.Errorf("%s %s = %q, want %q", c.doc, c.sec, got, c.want)
		}
	}
	if _, err := os.Stat(legacy); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the old file is still there: %v", err)
	}
	unknown, err := os.ReadFile(filepath.Join(dir, UnmigratedFileName))
	if err != nil || !strings.Contains(string(unknown), `"someone.else":{"kept":true}`) {
		t.Fatalf("unknown keys not kept: %s %v", unknown, err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".notes-migrating") {
			t.Fatalf("staging directory left behind: %s", e.Name())
		}
	}
	// A state file that shows up again later is not migrated over the
	// store that exists.
	os.WriteFile(legacy, []byte(`{"markii.netGrants": {"file:///a.mk.md": {"key": "old", "allowedHosts": ["x.example"]}}}`), 0o600)
	again := Open(dir, Options{Legacy: legacy})
	if got := get(t, again, "file:///a.mk.md", SectionGrant); !strings.Contains(got, "k1") {
		t.Fatalf("a second migration overwrote the store: %q", got)
	}
}

func TestDamagedLegacyFileIsMovedAsideAndReported(t *testing.T) {
	for name, body := range map[string]string{
		"truncated": `{"markii.netGrants": {"file:///a": `,
		"not json":  "garbage",
		"array":     "[1]",
		"over cap":  "", // made below
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			legacy := filepath.Join(root, LegacyFileName)
			os.WriteFile(legacy, []byte(body), 0o600)
			if name == "over cap" {
				os.Truncate(legacy, MaxLegacyBytes+1) // sparse: cheap to make
				raw, _ := os.ReadFile(legacy)
				body = string(raw)
			}
			var w warnings
			s := Open(filepath.Join(root, "state"), Options{Legacy: legacy, Warn: w.add})
			if all, err := s.List(SectionGrant); err != nil || len(all) != 0 {
				t.Fatalf("List = %v %v", all, err)
			}
			var de *DamagedError
			if len(w.got) != 1 || !errors.As(w.got[0], &de) || de.Aside == "" || !strings.Contains(de.Error(), legacy) {
				t.Fatalf("warnings %v", w.got)
			}
			if kept, _ := os.ReadFile(de.Aside); string(kept) != body {
				t.Fatal("the damaged file was not kept byte for byte")
			}
			// Nothing is reported twice.
			Open(filepath.Join(root, "state"), Options{Legacy: legacy, Warn: w.add}).List(SectionGrant)
			if len(w.got) != 1 {
				t.Fatalf("reported again: %v", w.got)
			}
		})
	}
}

func TestMigrationFromTheSameDirectory(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, LegacyFileName)
	os.WriteFile(legacy, []byte(`{"markii.runValues:file:///n": {"v": {"value": 1, "status": "fresh"}}}`), 0o600)
	s := Open(dir, Options{Legacy: legacy})
	var snap map[string]json.RawMessage
	raw, err := s.Get("file:///n", SectionValues)
	if err != nil || json.Unmarshal(raw, &snap) != nil || snap["v"] == nil {
		t.Fatalf("%s %v", raw, err)
	}
}
