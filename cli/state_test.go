package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestLegacyStateIsMigratedAndStillWorks: a state file where earlier
// versions kept it is moved into the state directory on first use, and
// the grant and the value in it work as before.
func TestLegacyStateIsMigratedAndStillWorks(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	srv, hits := countingServer(t)
	notePath := writeNote(t, "```lua {name=v}\nreturn net.fetch_json(\""+srv.URL+"/x\").v\n```\n")
	n, err := loadNote(notePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The closure key of this code, from a plan in another environment.
	var key string
	if _, err := testService(t, newTestEnv(t).invocation()).Run(context.Background(), run.Request{
		Note: runnable(n, render.Parse(n.Source)), Trigger: script.Auto, OnPlan: func(p run.Plan) { key = p.Key },
	}); err != nil || key == "" {
		t.Fatalf("plan: %v", err)
	}
	legacy := env.legacyStateFile(t)
	body := fmt.Sprintf(`{"markii.netGrants":{%q:{"key":%q,"allowedHosts":["127.0.0.1"]}},"markii.runValues:%s":{"v":{"value":42,"status":"fresh","ranAt":5}}}`,
		n.Key, key, n.Key)
	if err := os.WriteFile(legacy, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"grants", "list"}, env.stdio(&out, &errb)); code != 0 || !strings.Contains(out.String(), "network: 127.0.0.1") || errb.Len() != 0 {
		t.Fatalf("grants list after migration: %d %q %q", code, out.String(), errb.String())
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Fatalf("the old state file is still there: %v", err)
	}
	if e := mustLoad(t, env.state(t), n.Key)["v"]; string(e.Value) != "42" || e.Status != value.Fresh {
		t.Fatalf("the stored value became %+v", e)
	}
	out.Reset()
	if code := Main([]string{"render", "--run", "--color", "never", notePath}, env.stdio(&out, &errb)); code != ExitOK || hits.Load() != 1 {
		t.Fatalf("the migrated grant did not work: exit %d, %d hits, stderr %q", code, hits.Load(), errb.String())
	}
}

// TestRunOverTheValueCapKeepsWhatWasStored: a run whose values are over
// the per-note cap says so, exits 1 and leaves the stored values
// byte-identical.
func TestRunOverTheValueCapKeepsWhatWasStored(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	notePath := writeNote(t, "```lua {name=n}\nreturn 42\n```\n")
	var out, errb bytes.Buffer
	if code := Main([]string{"run", notePath}, env.stdio(&out, &errb)); code != 0 {
		t.Fatalf("first run: %d %s", code, errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(env.stateDir(t), "notes", "*.values.json"))
	if len(files) != 1 {
		t.Fatalf("value files %v", files)
	}
	before, _ := os.ReadFile(files[0])
	os.WriteFile(notePath, []byte("```lua {name=n}\nreturn string.rep(\"x\", 1000001)\n```\n"), 0o600)
	errb.Reset()
	code := Main([]string{"run", notePath}, env.stdio(&out, &errb))
	if code != ExitFailure || !strings.Contains(errb.String(), "markii: cannot save values: the note's values would take") {
		t.Fatalf("oversize run: exit %d, stderr %q", code, errb.String())
	}
	if after, _ := os.ReadFile(files[0]); string(after) != string(before) {
		t.Fatal("the stored values changed")
	}
}

// TestRunWithAnUnwritableStateDirectoryFails: a state directory markii
// cannot write (read-only, or another user's) makes markii run say so and
// exit 1; the directory's mode and owner are left alone.
func TestRunWithAnUnwritableStateDirectoryFails(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	dir := env.stateDir(t)
	notePath := writeNote(t, "```lua {name=n}\nreturn 42\n```\n")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	want := "markii: cannot save values: "
	if os.Geteuid() == 0 {
		// root writes through modes: make the directory someone else's.
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Skip(err)
		}
		want = "markii: cannot read grants: the state directory " + dir + " belongs to another user"
	} else {
		os.Chmod(dir, 0o500)
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
	}
	before, _ := os.Stat(dir)
	var out, errb bytes.Buffer
	code := Main([]string{"run", notePath}, env.stdio(&out, &errb))
	if code != ExitFailure || !strings.Contains(errb.String(), want) || strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("exit %d, stderr %q, want %q", code, errb.String(), want)
	}
	after, _ := os.Stat(dir)
	if after.Mode() != before.Mode() || !ownerIs(after, before) {
		t.Fatalf("the directory changed: %v -> %v", before.Mode(), after.Mode())
	}
}
