package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTripAndPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "markii")
	s := Open(dir)
	if len(s.Keys()) != 0 {
		t.Fatalf("fresh store has keys %v", s.Keys())
	}
	if err := s.Set("markii.netGrants", map[string]any{"file:///a": map[string]any{"key": "k", "allowedHosts": []string{"api.github.com"}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("__proto__", 1); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(dir)
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v, want 0700", di.Mode().Perm())
	}
	again := Open(dir)
	var n int
	if !again.Get("__proto__", &n) || n != 1 {
		t.Fatalf("__proto__ not kept: %d", n)
	}
	var grants map[string]struct {
		Key          string   `json:"key"`
		AllowedHosts []string `json:"allowedHosts"`
	}
	if !again.Get(KeyNetGrants, &grants) || grants["file:///a"].AllowedHosts[0] != "api.github.com" {
		t.Fatalf("grants not read back: %+v", grants)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temp file left behind: %s", e.Name())
		}
	}
}

func TestHostileFilesReadAsEmpty(t *testing.T) {
	cases := map[string]string{
		"bad json":   "{not json",
		"array":      "[1,2,3]",
		"null":       "null",
		"string":     `"x"`,
		"number":     "42",
		"empty":      "",
		"nul bytes":  "\x00\x00{",
		"deep":       strings.Repeat("[", 100000),
		"truncated":  `{"a": {"b": `,
		"trailing":   `{"a":1} {"b":2}`,
		"huge value": `{"a":"` + strings.Repeat("x", 1<<20) + `"`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			s := Open(dir)
			if len(s.Keys()) != 0 {
				t.Fatalf("keys %v from a hostile file", s.Keys())
			}
			if err := s.Set("k", "v"); err != nil {
				t.Fatal(err)
			}
			// The unreadable file was moved aside, not destroyed.
			matches, _ := filepath.Glob(filepath.Join(dir, FileName+".bad-*"))
			if len(matches) != 1 {
				t.Fatalf("unreadable file not set aside: %v", matches)
			}
			kept, _ := os.ReadFile(matches[0])
			if string(kept) != body {
				t.Fatalf("set-aside file changed")
			}
			var v string
			if !Open(dir).Get("k", &v) || v != "v" {
				t.Fatalf("write after hostile file lost: %q", v)
			}
		})
	}
}

func TestDuplicateKeysAndTypes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte(`{"a":1,"a":2,"constructor":{"x":true}}`), 0o600)
	s := Open(dir)
	var a int
	if !s.Get("a", &a) || a != 2 {
		t.Fatalf("a = %d", a)
	}
	var wrong string
	if s.Get("a", &wrong) {
		t.Fatal("a number decoded into a string")
	}
	if _, ok := s.GetRaw("constructor"); !ok {
		t.Fatal("constructor key dropped")
	}
}

func TestConcurrentProcessesKeepEachOthersKeys(t *testing.T) {
	dir := t.TempDir()
	a := Open(dir)
	b := Open(dir)
	if err := a.Set("from-a", 1); err != nil {
		t.Fatal(err)
	}
	if err := b.Set("from-b", 2); err != nil {
		t.Fatal(err)
	}
	c := Open(dir)
	if _, ok := c.GetRaw("from-a"); !ok {
		t.Fatal("second writer destroyed the first writer's key")
	}
	if err := c.Delete("from-a"); err != nil {
		t.Fatal(err)
	}
	if _, ok := Open(dir).GetRaw("from-a"); ok {
		t.Fatal("delete did not persist")
	}
}

func TestSetRejectsInvalidJSONAndWriteFailureIsAnError(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	if err := s.SetRaw("k", json.RawMessage("{")); err == nil {
		t.Fatal("invalid JSON accepted")
	}
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, []byte("x"), 0o600)
	bad := Open(filepath.Join(blocker, "markii"))
	if err := bad.Set("k", 1); err == nil {
		t.Fatal("write under a file succeeded")
	}
	var v int
	if !bad.Get("k", &v) || v != 1 {
		t.Fatal("in-memory value lost after a failed write")
	}
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/markii"},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/markii"},
		{"darwin", map[string]string{"HOME": "/h"}, "/h/Library/Application Support/markii"},
	}
	for _, c := range cases {
		got, err := Dir(c.goos, env(c.env))
		if err != nil || got != filepath.FromSlash(c.want) {
			t.Errorf("%s %v: %q %v", c.goos, c.env, got, err)
		}
	}
	if _, err := Dir("linux", env(nil)); err == nil {
		t.Error("no HOME gave no error")
	}
	if k := DocumentKey("/a b/n.mk.md"); k != "file:///a%20b/n.mk.md" {
		t.Errorf("DocumentKey = %q", k)
	}
}
