package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/runtime/values"
	"github.com/markii/markii/value"
	"github.com/markii/markii/viewer"
)

func TestViewOnPipeIsRender(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	path := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(path, []byte(runFixture+"\n:::details{title=\"More\"}\nbody\n:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{
		{"--width", "50", "--color", "256"},
		{"--color", "never"},
		{"--width", "30", "--color", "truecolor", "--theme", "light"},
	} {
		var rout, rerr, vout, verr bytes.Buffer
		rc := Main(append([]string{"render", path}, flags...), Stdio{Getenv: env.getenv, Out: &rout, Err: &rerr})
		vc := Main(append([]string{"view", path}, flags...), Stdio{Getenv: env.getenv, Out: &vout, Err: &verr})
		if rc != 0 || vc != 0 {
			t.Fatalf("%v: exit render %d view %d; stderr %s %s", flags, rc, vc, rerr.String(), verr.String())
		}
		if !bytes.Equal(rout.Bytes(), vout.Bytes()) {
			t.Fatalf("%v: view on a pipe differs from render:\n%q\n%q", flags, vout.String(), rout.String())
		}
		if strings.Contains(vout.String(), "\x1b[?1049h") {
			t.Fatal("view on a pipe switched to the alternate screen")
		}
		if !strings.Contains(verr.String(), "markii: scripts not run because the output is not a terminal; use markii run first") {
			t.Fatalf("stderr lacks the not-run notice: %q", verr.String())
		}
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"view", path, "--no-run"}, Stdio{Getenv: env.getenv, Out: &out, Err: &errb}); code != 0 || strings.Contains(errb.String(), "scripts not run") {
		t.Fatalf("--no-run: exit %d stderr %q", code, errb.String())
	}
}

func TestViewStaticFlag(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	path := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(path, []byte("# Title\n\nText.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb, rout bytes.Buffer
	if code := Main([]string{"view", "--static", path, "--color", "never"}, Stdio{Getenv: env.getenv, Out: &out, Err: &errb}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	Main([]string{"render", path, "--color", "never"}, Stdio{Getenv: env.getenv, Out: &rout, Err: &errb})
	if !strings.HasPrefix(out.String(), "# Title\n") || out.String() != rout.String() {
		t.Fatalf("static output %q, render %q", out.String(), rout.String())
	}
}

func TestViewRunnerReportsOutcomesAndStoresValues(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	path := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(path, []byte(runFixture), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &noteRunner{service: testService(t, env.invocation()), path: path}
	var got []viewer.Progress
	var asked []string
	ask := func(_ context.Context, q string) (bool, error) { asked = append(asked, q); return false, nil }
	if err := r.Run(context.Background(), script.Manual, ask, func(p viewer.Progress) { got = append(got, p) }); err != nil {
		t.Fatal(err)
	}
	var plan []string
	done := map[string]viewer.Progress{}
	for _, p := range got {
		switch p.Kind {
		case viewer.ProgressPlan:
			plan = p.Scripts
		case viewer.ProgressDone:
			done[p.Script] = p
		}
	}
	if strings.Join(plan, ",") != "stars,remote,broken" {
		t.Fatalf("plan %v", plan)
	}
	if p := done["stars"]; p.Outcome.Kind != value.Ok || string(p.Outcome.Value) != "42" {
		t.Fatalf("stars: %+v", p)
	}
	if p := done["remote"]; p.Outcome.Host != "api.github.com" || p.Outcome.Kind != value.CapabilityDenied {
		t.Fatalf("remote: %+v", p)
	}
	if p := done["broken"]; p.Outcome.Kind != value.ScriptError {
		t.Fatalf("broken: %+v", p)
	}
	snap := mustLoad(t, env.state(t), state.DocumentKey(path))
	if e := snap["stars"]; e.Status != value.Fresh || string(e.Value) != "42" {
		t.Fatalf("stars stored as %+v", e)
	}
}

func TestViewRunnerHonoursScriptsDisabled(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	env.writeSettings(t, map[string]any{"scriptsDisabled": true})
	path := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(path, []byte(runFixture), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &noteRunner{service: testService(t, env.invocation()), path: path}
	ran := false
	err := r.Run(context.Background(), script.Auto, nil, func(viewer.Progress) { ran = true })
	if err == nil || ran {
		t.Fatalf("a run with scripts disabled: err %v, reported %v", err, ran)
	}
}

func TestViewerNoteLoadsStoredValues(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	path := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(path, []byte(runFixture), 0o600); err != nil {
		t.Fatal(err)
	}
	key := state.DocumentKey(path)
	// The value a manual run stored.
	ok := []script.Outcome{{Name: "stars", Kind: value.Ok, Value: []byte("7")}}
	if _, err := values.Record(env.state(t), key, []string{"stars"}, ok, time.Now(), script.TierManual); err != nil {
		t.Fatal(err)
	}
	n, err := viewPictures{c: env.invocation()}.load(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := n.Values["stars"]; string(e.Value) != "7" || e.Status != "fresh" {
		t.Fatalf("stored value read as %+v", e)
	}
	if len(n.Watch) != 1 || n.Watch[0] != path {
		t.Fatalf("watch list %v", n.Watch)
	}
}

func TestReportViewAfterClose(t *testing.T) {
	t.Parallel()
	res := &viewer.Result{
		Outcomes: []viewer.Progress{
			{Script: "ok", Outcome: script.Outcome{Name: "ok", Kind: value.Ok}},
			{Script: "remote", Outcome: script.Outcome{Name: "remote", Kind: value.CapabilityDenied, Capability: script.CapNet, Host: "api.example.com", Detail: "net access to api.example.com\nwas not granted"}},
		},
		Notices:     []string{"declared host docs.example.com is not used by the code"},
		Diagnostics: []string{"figure: refused image source"},
	}
	// Quitting is quiet: nothing on the shell, and a failed or declined
	// script is not a failure of the viewer.
	var errb bytes.Buffer
	reportView(&errb, res, false, false)
	if errb.Len() != 0 {
		t.Fatalf("stderr after the viewer closed without --verbose: %q", errb.String())
	}
	// --verbose says what happened.
	reportView(&errb, res, false, true)
	want := "markii: figure: refused image source\n" +
		"markii: script \"remote\" failed (capability-denied)\n" +
		"markii: remote: net access to api.example.com was not granted\n" +
		"markii: declared host docs.example.com is not used by the code\n"
	if errb.String() != want {
		t.Fatalf("stderr:\n%q\nwant:\n%q", errb.String(), want)
	}
	errb.Reset()
	reportView(&errb, res, true, true)
	if strings.Contains(errb.String(), "figure") {
		t.Fatalf("--quiet --verbose printed render diagnostics: %q", errb.String())
	}
}
