package viewer

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/theme"
)

// writeFiles writes files (slash paths below dir) with their text.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeZip writes a zip archive with files.
func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, text := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(text))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// libraryTree writes a folder with notes of every kind, and files and
// folders that must not be listed; outside is a folder beside it.
func libraryTree(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir, outside = filepath.Join(base, "notes"), filepath.Join(base, "outside")
	writeFiles(t, dir, map[string]string{
		"alpha.mk.md":                   "---\ntitle: \"Alpha report\"\n---\n# Not this heading\n",
		"sub/beta.mk.md":                "Some text first.\n\n## Beta *plans*\n",
		"sub/deeper/gamma.mk.md":        "```\n# not a heading\n```\n\nGamma has no heading.\n",
		"bun/manifest.json":             `{"spec":"0.1.0","document":"doc.mk.md"}`,
		"bun/doc.mk.md":                 "# Bundle \x1b[31mfolder\n",
		"bun/inner.mk.md":               "# inside a bundle: not listed\n",
		".hidden/h.mk.md":               "# hidden\n",
		".secret.mk.md":                 "# hidden file\n",
		"node_modules/pkg/readme.mk.md": "# vendored\n",
		"vendor/v.mk.md":                "# vendored\n",
		"notes.txt":                     "not a note",
		"plain.md":                      "# Plain markdown\n",
		"docs.markdown":                 "Text first.\n\n<h1 align=\"center\">Docs page</h1>\n",
		"sub/README.md":                 "# Sub readme\n",
		"evil\x1b]0;pwned\a.mk.md":      "# Evil\x1b[2J name\n",
	})
	writeZip(t, filepath.Join(dir, "zipped.mkz"), map[string]string{
		"manifest.json": `{"spec":"0.1.0","document":"main.mk.md"}`,
		"main.mk.md":    "---\ntitle: Zipped note\n---\n",
	})
	writeFiles(t, outside, map[string]string{"secret.mk.md": "# Outside secret\n"})
	for link, target := range map[string]string{
		"escape.mk.md": filepath.Join(outside, "secret.mk.md"),
		"outdir":       outside,
		"loop":         dir,
		"again.mk.md":  "alpha.mk.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.mk.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

func TestScanLibraryListsNotesAndSkipsTheRest(t *testing.T) {
	dir, _ := libraryTree(t)
	lib, err := ScanLibrary(dir, DefaultLibraryLimits)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]LibraryEntry{}
	var rels []string
	for _, e := range lib.Entries {
		got[e.Rel] = e
		rels = append(rels, e.Rel)
	}
	// Plain markdown is listed beside Markii notes, a folder's README
	// first.
	want := []string{"again.mk.md", "alpha.mk.md", "bun", "docs.markdown", "evil\x1b]0;pwned\a.mk.md", "plain.md", "sub/README.md", "sub/beta.mk.md", "sub/deeper/gamma.mk.md", "zipped.mkz"}
	if !slices.Equal(rels, want) {
		t.Fatalf("listed %q, want %q", rels, want)
	}
	titles := map[string]string{
		"alpha.mk.md":            "Alpha report",
		"again.mk.md":            "Alpha report",
		"sub/beta.mk.md":         "Beta plans",
		"sub/deeper/gamma.mk.md": "",
		"bun":                    "Bundle [31mfolder",
		"zipped.mkz":             "Zipped note",
		"docs.markdown":          "Docs page",
		"sub/README.md":          "Sub readme",
		"plain.md":               "Plain markdown",
	}
	for rel, title := range titles {
		if got[rel].Title != title {
			t.Errorf("%s: title %q, want %q", rel, got[rel].Title, title)
		}
	}
	kinds := map[string]EntryKind{"alpha.mk.md": NoteFile, "bun": BundleFolder, "zipped.mkz": ZipBundle}
	for rel, k := range kinds {
		if got[rel].Kind != k {
			t.Errorf("%s: kind %v, want %v", rel, got[rel].Kind, k)
		}
	}
	if p := got["sub/beta.mk.md"].Path; p != filepath.Join(dir, "sub", "beta.mk.md") {
		t.Errorf("path %q", p)
	}
	if lib.Capped {
		t.Error("a small folder was reported as capped")
	}
}

func TestScanLibraryCaps(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		files[n+".mk.md"] = "# " + n + "\n"
	}
	files["1/2/3/deep.mk.md"] = "# deep\n"
	writeFiles(t, dir, files)
	lim := DefaultLibraryLimits
	lim.Entries = 3
	lib, err := ScanLibrary(dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Entries) != 3 || !lib.Capped {
		t.Fatalf("with a cap of 3: %d entries, capped %v", len(lib.Entries), lib.Capped)
	}
	lim = DefaultLibraryLimits
	lim.Depth = 2
	lib, err = ScanLibrary(dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lib.Entries {
		if strings.Contains(e.Rel, "deep") {
			t.Fatalf("depth 2 listed %s", e.Rel)
		}
	}
	if !lib.Capped || len(lib.Entries) != 5 {
		t.Fatalf("depth 2: %d entries, capped %v", len(lib.Entries), lib.Capped)
	}
	lim.Depth = 3
	if lib, _ = ScanLibrary(dir, lim); len(lib.Entries) != 6 || lib.Capped {
		t.Fatalf("depth 3: %d entries, capped %v", len(lib.Entries), lib.Capped)
	}
	if _, err := ScanLibrary(filepath.Join(dir, "missing"), DefaultLibraryLimits); err == nil {
		t.Fatal("a missing folder scanned without an error")
	}
}

// openFile is the viewer's side of the opener: the note's file as is,
// with runner as its scripts' runner.
func openFile(runner Runner) Opener {
	return func(path string) (*Note, Runner, error) {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		return &Note{Name: filepath.Base(path), Path: path, Source: src}, runner, nil
	}
}

func newLibraryTest(t *testing.T, dir string, runner Runner) *Model {
	t.Helper()
	lib, err := ScanLibrary(dir, DefaultLibraryLimits)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Library: lib, Open: openFile(runner), Level: ansi.TrueColor, Theme: theme.Dark, Now: fixedNow, Width: 100})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 16})
	return m
}

func TestLibraryFilterOpenAndBack(t *testing.T) {
	dir, _ := libraryTree(t)
	m := newLibraryTest(t, dir, nil)
	mustContain(t, m, "Notes in "+dir, "Alpha report  alpha.mk.md", "Beta plans  sub/beta.mk.md", "sub/deeper/gamma.mk.md", "Zipped note  zipped.mkz", "10 notes")
	mustLack(t, m, "secret", "vendored", "hidden", "inner")
	// Typing filters at once; the best match comes first.
	press(m, "/")
	typeText(m, "bepl")
	mustContain(t, m, "› Beta plans  sub/beta.mk.md", "/bepl", "1 of 10 notes")
	mustLack(t, m, "Alpha report")
	press(m, "backspace", "backspace", "backspace", "backspace")
	mustContain(t, m, "Alpha report", "10 notes")
	typeText(m, "gam")
	press(m, "enter")
	if m.browsing || m.reader.note.Path != filepath.Join(dir, "sub", "deeper", "gamma.mk.md") {
		t.Fatalf("enter did not open gamma: browsing %v, note %q", m.browsing, m.reader.note.Path)
	}
	mustContain(t, m, "Gamma has no heading.", "gamma.mk.md (backspace: the list)")
	// Backspace in the note goes back to the list, filter kept.
	press(m, "backspace")
	if !m.browsing {
		t.Fatal("backspace did not return to the list")
	}
	mustContain(t, m, "filter: gam", "2 of 10 notes")
	// Esc clears the filter, and never quits.
	if cmd := press(m, "esc"); isQuit(cmd) {
		t.Fatal("esc quit the list")
	}
	mustContain(t, m, "Alpha report", "10 notes")
	if cmd := press(m, "esc"); isQuit(cmd) {
		t.Fatal("a second esc quit the list")
	}
	press(m, "j", "enter")
	if m.reader.note.Path != filepath.Join(dir, "alpha.mk.md") {
		t.Fatalf("j enter opened %q", m.reader.note.Path)
	}
	mustContain(t, m, "Not this heading")
	if cmd := press(m, "q"); !isQuit(cmd) {
		t.Fatal("q in a note opened from the list did not quit")
	}
}

func TestLibraryQuitHelpAndFilterEsc(t *testing.T) {
	dir, _ := libraryTree(t)
	m := newLibraryTest(t, dir, nil)
	press(m, "/")
	typeText(m, "q")
	if !m.library.filter.editing || m.library.query() != "q" {
		t.Fatal("q in the filter prompt was not typed into it")
	}
	if cmd := press(m, "esc"); isQuit(cmd) || m.library.query() != "" || m.library.filter.editing {
		t.Fatal("esc in the filter prompt did not clear and close it")
	}
	press(m, "h")
	// The list's keys come first in the help opened on the list.
	if r := rows(m); len(r) < 2 || strings.TrimSpace(r[1]) != "In the list" {
		t.Fatalf("the help on the list does not start with the list's keys:\n%s", screen(m))
	}
	mustContain(t, m, "In the list", "filter the list as you type", "returns to the list", "In a note")
	press(m, "G")
	mustContain(t, m, "this help")
	press(m, "esc")
	mustContain(t, m, "Notes in ")
	if cmd := press(m, "q"); !isQuit(cmd) {
		t.Fatal("q did not quit the list")
	}
	if cmd := press(m, "ctrl+c"); !isQuit(cmd) {
		t.Fatal("ctrl+c did not quit the list")
	}
}

func TestLibraryNamesAreInert(t *testing.T) {
	dir, _ := libraryTree(t)
	m := newLibraryTest(t, dir, nil)
	f := m.frame()
	if err := ansi.Validate([]byte(f)); err != nil {
		t.Fatalf("the list wrote a sequence of its own: %v", err)
	}
	for _, bad := range []string{"\x1b]0;", "\a", "\x1b[2J", "\x1b[31mfolder"} {
		if strings.Contains(f, bad) {
			t.Fatalf("the list passed %q from a file name or title", bad)
		}
	}
	mustContain(t, m, "Evil[2J name", "evil]0;pwned.mk.md")
	press(m, "/")
	typeText(m, "evil")
	press(m, "enter")
	if err := ansi.Validate([]byte(m.frame())); err != nil {
		t.Fatalf("the status bar of a hostile name: %v", err)
	}
}

func TestLibraryNoteRunsItsOwnScriptsAndStopsOnBack(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"stats.mk.md": scriptNote, "other.mk.md": "# Other\n"})
	r := &scriptedRunner{hang: true}
	m := newLibraryTest(t, dir, r)
	d := newDriver(m)
	d.exec(m.Init())
	if cmd := press(m, "r"); cmd != nil || r.runs.Load() != 0 {
		t.Fatal("r in the list started a run")
	}
	d.key("j")
	d.key("enter")
	if m.reader.note.Name != "stats.mk.md" {
		t.Fatalf("opened %q", m.reader.note.Name)
	}
	d.key("r")
	d.until(t, "the run", func() bool { return r.runs.Load() == 1 })
	if r.triggers[0] != script.Manual {
		t.Fatalf("trigger %q", r.triggers[0])
	}
	d.key("backspace")
	d.until(t, "the run to be cancelled", func() bool { return r.cancelled.Load() == 1 })
	if !m.browsing || m.run.active() {
		t.Fatal("leaving the note for the list left its run going")
	}
	// A timer of the note that was left does not run the next one.
	d.key("k")
	d.key("enter")
	if m.reader.note.Name != "other.mk.md" {
		t.Fatalf("opened %q", m.reader.note.Name)
	}
	d.send(refreshMsg{note: m.run.note - 1})
	d.send(autoRunMsg{note: m.run.note - 1})
	if m.run.active() || r.runs.Load() != 1 {
		t.Fatal("a timer of the note that was left started a run")
	}
}
