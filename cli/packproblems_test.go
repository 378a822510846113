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

// TestRefusedPacksAreShownWhereTheNoteRuns: packs refused for sharing a
// namespace are named by `run --verbose`, among the viewer run's notices,
// in the viewer's load diagnostics and by `render` of a note that names a
// pack component, not only by `packs list`.
func TestRefusedPacksAreShownWhereTheNoteRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"ana", "ana-fork"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Join(p, "scripts"), 0o755)
		os.WriteFile(filepath.Join(p, "pack.json"), []byte(`{"name":"ana","engine":"react","components":{"stat":"s.js"}}`), 0o644)
		os.WriteFile(filepath.Join(p, "scripts", "m.lua"), []byte("return 1"), 0o644)
	}
	env := newTestEnv(t)
	env.writeSettings(t, map[string]any{"packs": []string{dir}})
	notePath := writeNote(t, "::ana_stat{value=1}\n\n```lua {name=n}\nreturn 42\n```\n")
	const want = `all claim the namespace "ana", so none of them is installed`

	var out, errb bytes.Buffer
	if code := Main([]string{"run", "--verbose", notePath}, env.stdio(&out, &errb)); code != 0 || !strings.Contains(errb.String(), want) {
		t.Fatalf("run --verbose: exit %d, stderr %q, want %q", code, errb.String(), want)
	}
	out.Reset()
	errb.Reset()
	if code := Main([]string{"render", "--color", "never", notePath}, env.stdio(&out, &errb)); code != 0 || !strings.Contains(errb.String(), want) {
		t.Fatalf("render: exit %d, stderr %q, want %q", code, errb.String(), want)
	}

	if _, warnings := env.invocation().installedPacks(); len(warnings) != 1 || !strings.Contains(warnings[0], want) {
		t.Fatalf("the viewer's load diagnostics %q, want %q", warnings, want)
	}
	n, err := loadNote(notePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := env.invocation().runService(n)
	if err != nil {
		t.Fatal(err)
	}
	r := &noteRunner{service: svc, path: notePath}
	var notices []string
	ask := func(context.Context, string) (bool, error) { return false, nil }
	if err := r.Run(context.Background(), script.Manual, ask, func(p viewer.Progress) {
		if p.Kind == viewer.ProgressNotice {
			notices = append(notices, p.Notice)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], want) {
		t.Fatalf("the viewer run's notices %q, want %q", notices, want)
	}
}
