package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/viewer"
)

// overCapNote stores 42, then is rewritten so that its next run's value
// is over the per-note cap; it returns the note and the stored values file.
func overCapNote(t *testing.T, env *testEnv) (notePath, stored string) {
	t.Helper()
	notePath = writeNote(t, "```lua {name=n}\nreturn 42\n```\n")
	var out, errb bytes.Buffer
	if code := Main([]string{"run", notePath}, env.stdio(&out, &errb)); code != 0 {
		t.Fatalf("first run: %d %s", code, errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(env.stateDir(t), "notes", "*.values.json"))
	if len(files) != 1 {
		t.Fatalf("value files %v", files)
	}
	if err := os.WriteFile(notePath, []byte("```lua {name=n}\nreturn string.rep(\"x\", 1000001)\n```\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return notePath, files[0]
}

// TestRenderRunReportsASaveError: `render --run` whose values cannot be
// stored draws what was stored, says why on stderr and exits 1; the
// stored values stay byte-identical.
func TestRenderRunReportsASaveError(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	notePath, stored := overCapNote(t, env)
	before, _ := os.ReadFile(stored)
	var out, errb bytes.Buffer
	code := Main([]string{"render", "--run", "--color", "never", notePath}, env.stdio(&out, &errb))
	if code != ExitFailure || !strings.Contains(errb.String(), "markii: cannot save values: the note's values would take") {
		t.Fatalf("render --run: exit %d, stderr %q", code, errb.String())
	}
	if after, _ := os.ReadFile(stored); !bytes.Equal(after, before) {
		t.Fatal("the stored values changed")
	}
}

// TestViewerRunReportsASaveError: the viewer's run of such a note shows
// the save error among the run's notices.
func TestViewerRunReportsASaveError(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	notePath, stored := overCapNote(t, env)
	before, _ := os.ReadFile(stored)
	r := &noteRunner{service: testService(t, env.invocation()), path: notePath}
	var notices []string
	ask := func(context.Context, string) (bool, error) { return false, nil }
	if err := r.Run(context.Background(), script.Manual, ask, func(p viewer.Progress) {
		if p.Kind == viewer.ProgressNotice {
			notices = append(notices, p.Notice)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "cannot save values: the note's values would take") {
		t.Fatalf("notices %q, want the save error", notices)
	}
	if after, _ := os.ReadFile(stored); !bytes.Equal(after, before) {
		t.Fatal("the stored values changed")
	}
}
