package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	editThenAccept(t, dir, note)
}

// editThenAccept: after an edit the check fails with a marked diff,
// GitHub annotations and a JUnit report; --accept makes it pass.
func editThenAccept(t *testing.T, dir, note string) {
	t.Helper()
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

}

// TestSnapshotUsageErrors: a bad matrix value or a bad mix of steps is a
// usage error, exit 3.
func TestSnapshotUsageErrors(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	for _, args := range [][]string{{"--width", "0"}, {"--color", "auto"}, {"--theme", "mine"}, {"--prune"}, {"--accept", "--reject"}, {"--jobs", "-1"}} {
		if _, errText, code := runCLI(t, append([]string{"snapshot"}, append(args, dir)...)...); code != 3 {
			t.Errorf("%q: exit %d (%s), want 3", args, code, errText)
		}
	}
}

// TestSnapshotReviewInTmux: three notes, two changed; --review on a real
// terminal draws the diff in color (no raw byte of the hostile note), t
// shows tokens, a accepts the first and r rejects the second.
func TestSnapshotReviewInTmux(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	files := map[string]string{
		"a.mk.md": "# A\n\nThe **blue** bag.\n",
		"b.mk.md": "# B\n\nEvil \x1b]0;pwned\x07 \u202etext.\n",
		"c.mk.md": "# C\n\nStays.\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(notes, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(notes, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, code := runCLI(t, "snapshot", "--update", "--color", "truecolor", notes); code != 0 {
		t.Fatalf("update: %d", code)
	}
	_ = os.WriteFile(filepath.Join(notes, "a.mk.md"), []byte("# A\n\nThe **red** bag.\n"), 0o644)
	_ = os.WriteFile(filepath.Join(notes, "b.mk.md"), []byte("# B\n\nEvil \x1b]0;pwned\x07 \u202etext, changed.\n"), 0o644)
	if _, _, code := runCLI(t, "snapshot", "--color", "truecolor", notes); code != 1 {
		t.Fatalf("check: %d", code)
	}
	p := inTmux(t, dir, 100, 20, `exec "$MARKII" snapshot --review `+shellQuote(notes))
	p.waitFor(10*time.Second, "the first diff", p.capture, func(s string) bool { return strings.Contains(s, "1/2") && strings.Contains(s, "red") })
	p.keys("t")
	p.waitFor(5*time.Second, "tokens", p.capture, func(s string) bool { return strings.Contains(s, "{+red+}") })
	p.keys("a")
	p.waitFor(5*time.Second, "the second diff", p.capture, func(s string) bool { return strings.Contains(s, "2/2") })
	// The note's OSC title sequence lost its ESC in the render, so the
	// pane shows its text: had it reached the terminal raw, tmux would
	// have taken it as a title and shown nothing.
	if s := p.capture(); !strings.Contains(s, "]0;pwned") || !strings.Contains(s, "⟨U+202E⟩") {
		t.Errorf("the hostile note's bytes are not shown inert:\n%s", s)
	}
	p.keys("r")
	p.waitFor(10*time.Second, "the review to end", func() string { b, _ := os.ReadFile(filepath.Join(dir, "stderr")); return string(b) }, func(s string) bool { return strings.Contains(s, "exit 0") })
	if h := p.history(); !strings.Contains(h, "1 accepted, 1 rejected") {
		t.Fatalf("summary:\n%s", h)
	}
	wantAcceptedAndRejected(t, notes)
	if _, _, code := runCLI(t, "snapshot", "--color", "truecolor", notes); code != 1 {
		t.Fatalf("after review: %d (b was rejected, so it still differs)", code)
	}
}

// wantAcceptedAndRejected: a's pending snapshot was stored and removed,
// b's removed and not stored.
func wantAcceptedAndRejected(t *testing.T, notes string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(notes, "__snapshots__", "a.mk.md.w80.truecolor.dark.snap.new")); err == nil {
		t.Fatal("the accepted pending file is still there")
	}
	stored, _ := os.ReadFile(filepath.Join(notes, "__snapshots__", "a.mk.md.w80.truecolor.dark.snap"))
	if !strings.Contains(string(stored), "red") {
		t.Fatal("accepting did not store the new snapshot")
	}
	stored, _ = os.ReadFile(filepath.Join(notes, "__snapshots__", "b.mk.md.w80.truecolor.dark.snap"))
	if strings.Contains(string(stored), "changed") {
		t.Fatal("rejecting stored the new snapshot")
	}
	if _, err := os.Stat(filepath.Join(notes, "__snapshots__", "b.mk.md.w80.truecolor.dark.snap.new")); err == nil {
		t.Fatal("the rejected pending file is still there")
	}
}
