package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// fixture reads a file of markii's fixtures folder.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeTree writes files under dir.
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// threeNotes is a folder of three notes: one pinned to values and a
// clock, one bundle, one with tabs and details.
func threeNotes(t *testing.T) string {
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"data.mk.md":             fixture(t, "comp-data.mk.md"),
		"data.values.json":       fixture(t, "comp-data.values.json"),
		"tabs.mk.md":             fixture(t, "comp-details-tabs.mk.md"),
		"trip/manifest.json":     []byte(`{"spec":"0.1.0"}`),
		"trip/note.mk.md":        []byte("# Trip\n\nPack the **blue** bag and [the map](https://example.com/map).\n"),
		ConfigName:               []byte(`{"height": 16, "notes": {"data.mk.md": {"values": "data.values.json", "now": "2026-03-01T09:00:00Z"}, "tabs.mk.md": {"keys": {"open": "Tab Enter"}}}}`),
		"notes-not-here/.hidden": []byte("x"),
	})
	return dir
}

func run(t *testing.T, opt Options, paths ...string) *Report {
	t.Helper()
	r, err := Run(context.Background(), paths, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFolderWorkflow: --update writes one snapshot per note × variant, a
// second run matches, a changed word fails with a readable diff and a
// pending file, and a deleted note's snapshots are obsolete until pruned.
func TestFolderWorkflow(t *testing.T) {
	dir := threeNotes(t)
	r := run(t, Options{Update: true}, dir)
	if !r.OK() || r.Count(Written) != 8 || len(r.Cases) != 8 {
		t.Fatalf("update: %s\n%+v", r.Summary(), r.Cases)
	}
	wantSnapshots(t, dir, "data.mk.md.w80.never.dark.snap", "data.mk.md.w80.truecolor.dark.snap", "tabs.mk.md.w80.never.dark.open.snap", "tabs.mk.md.w80.never.dark.snap", "tabs.mk.md.w80.truecolor.dark.open.snap", "tabs.mk.md.w80.truecolor.dark.snap", "trip.w80.never.dark.snap", "trip.w80.truecolor.dark.snap")
	head, _ := os.ReadFile(filepath.Join(dir, Dir, "data.mk.md.w80.truecolor.dark.snap"))
	if !strings.HasPrefix(string(head), "markii-snapshot 1 width=80 color=truecolor theme=dark keys=- bytes=") {
		t.Fatalf("header: %q", head[:80])
	}

	if r := run(t, Options{}, dir); !r.OK() || r.Count(Matched) != 8 {
		t.Fatalf("second run: %s", r.Summary())
	}

	writeTree(t, dir, map[string][]byte{"trip/note.mk.md": []byte("# Trip\n\nPack the **red** bag and [the map](https://example.com/map).\n")})
	r = run(t, Options{}, dir)
	if r.OK() || r.Count(Changed) != 2 || r.Count(Matched) != 6 {
		t.Fatalf("after an edit: %s", r.Summary())
	}
	wantReadableDiff(t, r)
	acceptOneRejectOne(t, dir)
	obsoleteThenPruned(t, dir)
}

// acceptOneRejectOne: of the two pending files, accepting one and
// rejecting the other leaves one snapshot that still differs.
func acceptOneRejectOne(t *testing.T, dir string) {
	t.Helper()
	pending := Pending([]string{dir})
	if len(pending) != 2 || !strings.HasSuffix(pending[0], "trip.w80.never.dark.snap.new") {
		t.Fatalf("pending %q", pending)
	}
	if err := Accept(pending[0]); err != nil {
		t.Fatal(err)
	}
	if err := Reject(pending[1]); err != nil {
		t.Fatal(err)
	}
	if r := run(t, Options{}, dir); r.Count(Changed) != 1 || r.Count(Matched) != 7 {
		t.Fatalf("after accepting one and rejecting the other: %s", r.Summary())
	}

}

// obsoleteThenPruned: a deleted note's snapshots are obsolete until
// --update --prune removes them.
func obsoleteThenPruned(t *testing.T, dir string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, "tabs.mk.md")); err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{}, dir)
	if len(r.Obsolete) != 4 || !strings.HasSuffix(r.Obsolete[0], "tabs.mk.md.w80.never.dark.open.snap") {
		t.Fatalf("obsolete %q", r.Obsolete)
	}
	r = run(t, Options{Update: true, Prune: true}, dir)
	if !r.Pruned || len(r.Obsolete) != 4 {
		t.Fatalf("prune: %s", r.Summary())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, Dir, "tabs.*")); len(left) != 0 {
		t.Fatalf("pruned snapshots left: %q", left)
	}
}

// wantSnapshots fails unless dir's snapshot folder holds exactly names.
func wantSnapshots(t *testing.T, dir string, names ...string) {
	t.Helper()
	snaps, _ := filepath.Glob(filepath.Join(dir, Dir, "*"+Ext))
	if len(snaps) != len(names) {
		t.Fatalf("snapshots %q", snaps)
	}
	for i, s := range snaps {
		if filepath.Base(s) != names[i] {
			t.Fatalf("snapshot %d is %s, want %s", i, filepath.Base(s), names[i])
		}
	}
}

// wantReadableDiff fails unless r's report marks the changed word, shows
// escapes as tokens, names the pending file and carries no raw escape.
func wantReadableDiff(t *testing.T, r *Report) {
	t.Helper()
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, w := range []string{"[-blue-]", "{+red+}", "⟨bold", "⟨link https://example.com/map⟩", "⟨/link⟩", "pending "} {
		if !strings.Contains(out, w) {
			t.Errorf("the report lacks %q:\n%s", w, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\u009b\a") {
		t.Errorf("the report carries a raw escape:\n%q", out)
	}
}

// TestMatrixFromFlagsAndConfig: the flags' axes replace the folder's, a
// folder's replace the default, and every file name says its variant.
func TestMatrixFromFlagsAndConfig(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"a.mk.md":  []byte("# A\n\ntext\n"),
		ConfigName: []byte(`{"width": [40, 100], "theme": ["light"]}`),
	})
	r := run(t, Options{Update: true}, dir)
	if r.Count(Written) != 4 {
		t.Fatalf("%s", r.Summary())
	}
	if _, err := os.Stat(filepath.Join(dir, Dir, "a.mk.md.w100.truecolor.light.snap")); err != nil {
		t.Fatal(err)
	}
	m, _ := ParseLevel("256")
	r = run(t, Options{Update: true, Matrix: Matrix{Widths: []int{60}, Levels: []ansi.Level{m}}}, dir)
	if r.Count(Written) != 1 || r.Cases[0].Variant.FileName("a.mk.md") != "a.mk.md.w60.256.light.snap" {
		t.Fatalf("%s %+v", r.Summary(), r.Cases)
	}
}

// TestBadInputNothingLost: a note that does not load is a failed case and
// the run goes on; a file that is not a snapshot is reported and kept; a
// truncated snapshot is reported; a symbolic link, a named pipe or a
// folder where a snapshot belongs is never written through; a snapshot
// folder that is a symbolic link is refused.
func TestBadInputNothingLost(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"good.mk.md":   []byte("# Good\n"),
		"binary.mk.md": {0, 1, 2, 0, 0xff},
	})
	r := run(t, Options{Update: true}, dir)
	if r.Count(Failed) != 1 || r.Count(Written) != 2 || !strings.Contains(r.Cases[0].ErrorLine(), "binary") {
		t.Fatalf("%s %+v", r.Summary(), r.Cases)
	}
	snap := filepath.Join(dir, Dir, "good.mk.md.w80.never.dark.snap")
	foreign := []byte("some other tool's golden file\n")
	if err := os.WriteFile(snap, foreign, 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, Options{}, dir)
	if c := find1(r, snap); c.Status != Failed || !strings.Contains(c.ErrorLine(), "not a markii snapshot") {
		t.Fatalf("foreign: %+v", c)
	}
	if b, _ := os.ReadFile(snap); string(b) != string(foreign) {
		t.Fatal("a foreign file was overwritten without --update")
	}
	good, _ := os.ReadFile(filepath.Join(dir, Dir, "good.mk.md.w80.truecolor.dark.snap"))
	truncated := filepath.Join(dir, Dir, "good.mk.md.w80.truecolor.dark.snap")
	if err := os.WriteFile(truncated, good[:len(good)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	if c := find1(run(t, Options{}, dir), truncated); c.Status != Failed || !strings.Contains(c.ErrorLine(), "truncated") {
		t.Fatalf("truncated: %+v", c)
	}

	specialFilesRefused(t, dir, snap, truncated)
	symlinkedFolderRefused(t)
	assertNoTemp(t, dir)
}

// specialFilesRefused: a symbolic link to a file outside and a named pipe
// where snapshots belong are refused even with --update, and the file
// outside is unchanged.
func specialFilesRefused(t *testing.T, dir, snap, fifo string) {
	t.Helper()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(snap)
	if err := os.Symlink(outside, snap); err != nil {
		t.Fatal(err)
	}
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{Update: true}, dir)
	for _, p := range []string{snap, fifo} {
		if c := find1(r, p); c.Status != Failed || !strings.Contains(c.ErrorLine(), "not a regular file") {
			t.Fatalf("%s: %+v", p, c)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatalf("a write went through a symbolic link: %q", b)
	}

}

// symlinkedFolderRefused: a snapshot folder that is a symbolic link to a
// folder outside is refused, and nothing is written there.
func symlinkedFolderRefused(t *testing.T) {
	t.Helper()
	other := t.TempDir()
	dir2 := t.TempDir()
	writeTree(t, dir2, map[string][]byte{"n.mk.md": []byte("# N\n")})
	if err := os.Symlink(other, filepath.Join(dir2, Dir)); err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{Update: true}, dir2)
	if r.OK() || !strings.Contains(r.Cases[0].ErrorLine(), "symbolic link") {
		t.Fatalf("%s %+v", r.Summary(), r.Cases)
	}
	if entries, _ := os.ReadDir(other); len(entries) != 0 {
		t.Fatalf("written outside the note folder: %v", entries)
	}
}

func find1(r *Report, file string) Case {
	for _, c := range r.Cases {
		if c.File == file {
			return c
		}
	}
	return Case{}
}

// assertNoTemp fails when a temporary file is left under dir.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// TestHostileNote: a note's escape bytes and bidirectional controls never
// reach the report raw: the diff shows its own tokens only.
func TestHostileNote(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "evil\x1b]0;pwned\a.mk.md")
	hostile := "# Title \x1b[31mred\x1b[0m \u202egnp.exe\n\n[x](javascript:alert(1)) &#27;[2J \u009b31m\n"
	writeTree(t, dir, map[string][]byte{filepath.Base(note): []byte(hostile)})
	if r := run(t, Options{Update: true}, dir); !r.OK() || len(r.Cases) != 2 {
		t.Fatalf("%s %q", r.Summary(), r.Cases)
	}
	writeTree(t, dir, map[string][]byte{filepath.Base(note): []byte(hostile + "more \x1b]8;;http://evil\x1b\\x\n")})
	// A stored snapshot made hostile by hand is shown as tokens too.
	snap := filepath.Join(dir, Dir, filepath.Base(note)+".w80.never.dark.snap")
	body := "\x1b]52;c;AAAA\a\x1b[2J\u202e\x9b"
	if err := os.WriteFile(snap, Variant{Width: 80, Theme: "dark"}.encodeFile([]byte(body)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{}, dir)
	var text, ann, junit strings.Builder
	_ = r.WriteText(&text)
	_ = r.WriteAnnotations(&ann)
	_ = r.WriteJUnit(&junit)
	for name, out := range map[string]string{"text": text.String(), "annotations": ann.String(), "junit": junit.String()} {
		if strings.ContainsAny(out, "\x1b\u009b\a\u202e") {
			t.Errorf("%s report carries a raw control:\n%q", name, out)
		}
	}
	if !strings.Contains(text.String(), "⟨ESC⟩]52;c;AAAA⟨BEL⟩") || !strings.Contains(text.String(), "⟨U+202E⟩") {
		t.Errorf("the hostile stored bytes are not shown as tokens:\n%s", text.String())
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	for _, e := range entries {
		if strings.Contains(e.Name(), "snap") {
			t.Errorf("a file was written beside the note folder: %s", e.Name())
		}
	}
}

// TestCheckDeterminism: every fixture renders the same under the
// scrambled environment.
func TestCheckDeterminism(t *testing.T) {
	dir := t.TempDir()
	entries, _ := os.ReadDir(filepath.Join("..", "fixtures"))
	files := map[string][]byte{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".mk.md") {
			files[e.Name()] = fixture(t, e.Name())
		}
	}
	writeTree(t, dir, files)
	r := run(t, Options{Update: true, CheckDeterminism: true, Matrix: Matrix{Levels: []ansi.Level{ansi.None, ansi.TrueColor}, Widths: []int{40, 100}}}, dir)
	if !r.OK() {
		var b strings.Builder
		_ = r.WriteText(&b)
		t.Fatalf("%s", b.String())
	}
	if os.Getenv("TERM") == "dumb" && os.Getenv("COLUMNS") == "17" {
		t.Fatal("the scrambled environment was not put back")
	}
}

// TestInterruptLeavesNoTemp: a run whose context ends (Ctrl-C) stops
// taking notes, returns the context's error and leaves no temporary file.
func TestInterruptLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	for i := range 300 {
		files[fmt.Sprintf("n%03d.mk.md", i)] = []byte(strings.Repeat(fmt.Sprintf("# Note %d\n\nSome **text** with `code`.\n\n", i), 20))
	}
	writeTree(t, dir, files)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if s, _ := filepath.Glob(filepath.Join(dir, Dir, "*")); len(s) > 10 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err := Run(ctx, []string{dir}, Options{Update: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after the interrupt: %v", err)
	}
	assertNoTemp(t, dir)
	if s, _ := filepath.Glob(filepath.Join(dir, Dir, "*")); len(s) >= 600 {
		t.Fatalf("every snapshot was written after the interrupt: %d", len(s))
	}
}

// TestTwoUpdatesAtOnce: two runs with --update on one folder at the same
// time leave only whole snapshots and no temporary file.
func TestTwoUpdatesAtOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	for i := range 40 {
		files[fmt.Sprintf("n%02d.mk.md", i)] = []byte(strings.Repeat(fmt.Sprintf("# Note %d\n\nSome **text**.\n\n", i), 30))
	}
	writeTree(t, dir, files)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := Run(context.Background(), []string{dir}, Options{Update: true})
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	assertNoTemp(t, dir)
	if r := run(t, Options{}, dir); !r.OK() || r.Count(Matched) != 80 {
		t.Fatalf("after two updates at once: %s", r.Summary())
	}
}
