package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/state"
)

func TestGrantsListAndReset(t *testing.T) {
	env := newTestEnv(t)
	dir := env.stateDir(t)
	notes := t.TempDir()
	a, b := filepath.Join(notes, "a.mk.md"), filepath.Join(notes, "b.mk.md")
	store := grants.NewStore(state.Open(dir, state.Options{}))
	key := strings.Repeat("ab", 32)
	if err := store.Put(fileURL(a), grants.Record{Key: key, AllowedHosts: []string{"api.github.com", "127.0.0.1"}}); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(fileURL(b), grants.Record{Key: key, AllowedHosts: []string{"b.example"}, AllowedBundleGrants: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Main(args, env.stdio(&out, &errb))
		return code, out.String(), errb.String()
	}
	code, out, _ := run("grants", "list")
	want := fileURL(a) + "\n  network: 127.0.0.1, api.github.com\n  for code abababababab\n" +
		fileURL(b) + "\n  network: b.example\n  bundle: read\n  for code abababababab\n"
	if code != 0 || out != want {
		t.Fatalf("list: %d\n%s\nwant\n%s", code, out, want)
	}
	t.Chdir(notes)
	code, out, _ = run("grants", "list", "a.mk.md")
	if code != 0 || !strings.Contains(out, "api.github.com") || strings.Contains(out, "b.example") {
		t.Fatalf("list one: %d %s", code, out)
	}
	code, out, _ = run("grants", "reset", "a.mk.md")
	if code != 0 || out != "forgot the grants of a.mk.md\n" {
		t.Fatalf("reset: %d %q", code, out)
	}
	if _, ok, _ := grants.NewStore(state.Open(dir, state.Options{})).Lookup(fileURL(a)); ok {
		t.Fatal("reset left the record")
	}
	if _, ok, _ := grants.NewStore(state.Open(dir, state.Options{})).Lookup(fileURL(b)); !ok {
		t.Fatal("reset removed another note's record")
	}
	code, out, _ = run("grants", "reset", "--all")
	if code != 0 || out != "forgot the grants of 1 note(s)\n" {
		t.Fatalf("reset --all: %d %q", code, out)
	}
	code, out, _ = run("grants", "list")
	if code != 0 || out != "no grants stored\n" {
		t.Fatalf("list after reset: %d %q", code, out)
	}
	for _, args := range [][]string{{"grants"}, {"grants", "grant"}, {"grants", "reset"}, {"grants", "reset", "x", "--all"}, {"grants", "list", "--all"}} {
		if code, _, errs := run(args...); code != ExitUsage || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stderr %q", args, code, errs)
		}
	}
}

func TestGrantsListHostileState(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	dir := env.stateDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	bad := `{"markii.netGrants":{"file:///x":{"key":"` + strings.Repeat("0", 64) + `","allowedHosts":["evil\u001b]8;;http://x\u0007.com"]}}}`
	if err := os.WriteFile(env.legacyStateFile(t), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"grants", "list"}, env.stdio(&out, &errb))
	if code != 0 || out.String() != "no grants stored\n" || !strings.Contains(errb.String(), "1 stored grant record(s) are not valid") {
		t.Fatalf("%d %q %q", code, out.String(), errb.String())
	}
	if strings.ContainsRune(out.String()+errb.String(), 0x1b) {
		t.Fatal("a control character reached the terminal")
	}
}
