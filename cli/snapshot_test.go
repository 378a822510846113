package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotCommandExitCodes: 1 for new snapshots, 0 after --update and
// on a clean check, 1 after an edit (with a readable diff on stdout), 3
// for a usage error; --junit writes a report.
func TestSnapshotCommandExitCodes(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	note := filepath.Join(dir, "a.mk.md")
	if err := os.WriteFile(note, []byte("# A\n\nOne **word** here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runCLI(t, "snapshot", dir); code != 1 || !strings.Contains(out, "2 new") {
		t.Fatalf("first run: %d\n%s", code, out)
	}
	if out, _, code := runCLI(t, "snapshot", "--update", dir); code != 0 || !strings.Contains(out, "2 written") {
		t.Fatalf("update: %d\n%s", code, out)
	}
	if out, _, code := runCLI(t, "snapshot", dir); code != 0 || !strings.Contains(out, "2 matched") {
		t.Fatalf("check: %d\n%s", code, out)
	}
	if err := os.WriteFile(note, []byte("# A\n\nOne **term** here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "report.xml")
	out, _, code := runCLI(t, "snapshot", "--junit", junit, "--github", dir)
	if code != 1 || !strings.Contains(out, "[-word-]") || !strings.Contains(out, "{+term+}") || !strings.Contains(out, "::error file=") {
		t.Fatalf("after an edit: %d\n%s", code, out)
	}
	if x, err := os.ReadFile(junit); err != nil || !strings.Contains(string(x), `<testcase name="w80 truecolor dark"`) || !strings.Contains(string(x), "{+term+}") {
		t.Fatalf("junit: %v\n%s", err, x)
	}
	if out, _, code := runCLI(t, "snapshot", "--accept", dir); code != 0 || !strings.Contains(out, "2 accepted") {
		t.Fatalf("accept: %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, "snapshot", dir); code != 0 {
		t.Fatalf("after accepting: %d", code)
	}
	for _, args := range [][]string{{"--width", "0"}, {"--color", "auto"}, {"--theme", "mine"}, {"--prune"}, {"--accept", "--reject"}, {"--jobs", "-1"}} {
		if _, errText, code := runCLI(t, append([]string{"snapshot"}, append(args, dir)...)...); code != 3 {
			t.Errorf("%q: exit %d (%s), want 3", args, code, errText)
		}
	}
}
