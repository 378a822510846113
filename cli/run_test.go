package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/value"
)

const runFixture = "# Run\n\n::stat{data=stars label=\"Stars\"}\n\n" +
	"```lua {name=stars}\nreturn #doc.directives({name = \"stat\"}) * 42\n```\n\n" +
	"```lua {name=remote}\nreturn net.fetch_json(\"https://api.github.com/repos/x\")\n```\n\n" +
	"```lua {name=broken}\nerror(\"capability-denied\")\n```\n"

func TestRunPrintsOutcomesAndPersists(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	notePath := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(notePath, []byte(runFixture), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"run", notePath, "--verbose"}, env.stdio(&out, &errb))
	if code != ExitScripts {
		t.Fatalf("exit %d, want 2; stderr %s", code, errb.String())
	}
	want := "stars: ok\nremote: needs permission (net: api.github.com)\nbroken: script error\n"
	if out.String() != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", out.String(), want)
	}
	if !strings.Contains(errb.String(), `markii: script "remote" failed (capability-denied)`) ||
		!strings.Contains(errb.String(), "markii: broken: ") {
		t.Fatalf("stderr: %s", errb.String())
	}
	snap := mustLoad(t, env.state(t), state.DocumentKey(notePath))
	if e := snap["stars"]; e.Status != value.Fresh || string(e.Value) != "42" {
		t.Fatalf("stars stored as %+v", e)
	}
	if e := snap["remote"]; e.Status != value.Error || e.FailureKind != "capability-denied" {
		t.Fatalf("remote stored as %+v", e)
	}
	files, _ := filepath.Glob(filepath.Join(env.stateDir(t), "notes", "*.values.json"))
	if len(files) != 1 {
		t.Fatalf("value files %v", files)
	}
	fi, err := os.Stat(files[0])
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", fi, err)
	}

	// A second run whose good script now fails keeps the old value, stale.
	os.WriteFile(notePath, []byte(strings.Replace(runFixture, "* 42", "* nil", 1)), 0o600)
	out.Reset()
	Main([]string{"run", notePath}, env.stdio(&out, &errb))
	snap = mustLoad(t, env.state(t), state.DocumentKey(notePath))
	if e := snap["stars"]; e.Status != value.Stale || string(e.Value) != "42" || e.FailureKind != "script-error" {
		t.Fatalf("failure wiped the good value: %+v", e)
	}
}

func TestRunJSON(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	notePath := filepath.Join(t.TempDir(), "n.mk.md")
	os.WriteFile(notePath, []byte(runFixture), 0o600)
	var out, errb bytes.Buffer
	code := Main([]string{"run", "--json", notePath}, env.stdio(&out, &errb))
	if code != ExitScripts {
		t.Fatalf("exit %d", code)
	}
	var got []runResult
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if len(got) != 3 || got[0].Name != "stars" || string(got[0].Value) != "42" || got[0].Outcome != "ok" ||
		got[1].Kind != "capability-denied" || got[2].Kind != "script-error" || string(got[2].Value) != "null" {
		t.Fatalf("results %+v", got)
	}
}

func TestRunAllOKExitsZero(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	notePath := filepath.Join(t.TempDir(), "n.mk.md")
	os.WriteFile(notePath, []byte("```lua {name=a}\nreturn 1\n```\n"), 0o600)
	var out, errb bytes.Buffer
	if code := Main([]string{"run", notePath}, env.stdio(&out, &errb)); code != ExitOK || out.String() != "a: ok\n" {
		t.Fatalf("exit %d, out %q, err %q", code, out.String(), errb.String())
	}
	if code := Main([]string{"run"}, env.stdio(&out, &errb)); code != ExitUsage {
		t.Fatalf("no note: exit %d", code)
	}
	if code := Main([]string{"run", filepath.Join(t.TempDir(), "missing.mk.md")}, env.stdio(&out, &errb)); code != ExitFailure {
		t.Fatalf("missing note: exit %d", code)
	}
}

// A note near the note cap runs its scripts whatever bytes they hold:
// `<` and control characters, which JSON makes six bytes long each, once
// failed every script of such a note as too large to hand over.
func TestRunNoteNearTheCapWithAnyBytes(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	for _, fill := range []string{"<", "\x01"} {
		const size = 15_000_000
		note := "# Big\n\n```lua {name=big}\nreturn #[[" + strings.Repeat(fill, size) + "]]\n```\n\n" +
			"```lua {name=after}\nreturn 2\n```\n"
		notePath := filepath.Join(t.TempDir(), "big.mk.md")
		if err := os.WriteFile(notePath, []byte(note), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := Main([]string{"run", "--json", notePath}, env.stdio(&out, &errb)); code != 0 {
			t.Fatalf("%q: exit %d: %s", fill, code, errb.String())
		}
		var got []runResult
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%q: not JSON: %v", fill, err)
		}
		if len(got) != 2 || string(got[0].Value) != "15000000" || string(got[1].Value) != "2" {
			t.Fatalf("%q: results %+v", fill, got)
		}
	}
}
