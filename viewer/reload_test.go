package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLiveReloadKeepsPosition(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.mk.md")
	src := longNote(5, 3)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked []string
	m := newTest(t, src, 100, 10, func(o *Options) {
		o.Note = &Note{Name: "live.mk.md", Path: path, Source: []byte(src), Watch: []string{path}}
		o.Load = fileLoader(&asked)
		o.Watch = true
	})
	d := newDriver(m)
	d.exec(m.Init())
	for i := 0; i < 4; i++ {
		d.key("]")
	}
	if got := firstRow(m); got != "Section 4" {
		t.Fatalf("top row %q", got)
	}
	// An editor saves by writing a new file and renaming it over the old.
	edited := strings.Replace(src, "Paragraph 4.2 of the note", "Paragraph 4.2 EDITED of the note", 1)
	tmp := filepath.Join(dir, ".live.mk.md.swp")
	if err := os.WriteFile(tmp, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the reload", func() bool { return m.reader.reload == 1 })
	if got := firstRow(m); got != "Section 4" {
		t.Fatalf("after reload the top row is %q, want Section 4", got)
	}
	mustContain(t, m, "EDITED", "reloaded")
	// A second change reloads again.
	if err := os.WriteFile(path, []byte(edited+"\nAppended.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the second reload", func() bool { return m.reader.reload == 2 })
	press(m, "G")
	mustContain(t, m, "Appended.")
	// Files next to the note do not reload it.
	if err := os.WriteFile(filepath.Join(dir, "other.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	press(m, "q")
	if m.watch != nil {
		t.Fatal("quitting left the watcher running")
	}
	if m.reader.reload != 2 {
		t.Fatalf("reloads: %d", m.reader.reload)
	}
}

func TestLiveReloadOfBundleFolder(t *testing.T) {
	dir := t.TempDir()
	bundle := filepath.Join(dir, "b")
	if err := os.MkdirAll(filepath.Join(bundle, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(bundle, "index.mk.md")
	if err := os.WriteFile(doc, []byte("# Bundle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loads := 0
	m := newTest(t, "# Bundle\n", 80, 10, func(o *Options) {
		o.Note = &Note{Name: "b", Path: bundle, Source: []byte("# Bundle\n"), Watch: []string{bundle}}
		o.Load = func(string) (*Note, error) {
			loads++
			src, err := os.ReadFile(doc)
			return &Note{Name: "b", Path: bundle, Source: src}, err
		}
		o.Watch = true
	})
	d := newDriver(m)
	d.exec(m.Init())
	if err := os.WriteFile(filepath.Join(bundle, "scripts", "a.lua"), []byte("return 2"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.until(t, "a reload after a script changed", func() bool { return m.reader.reload == 1 })
	if err := os.WriteFile(doc, []byte("# Bundle v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.until(t, "a reload after the document changed", func() bool { return m.reader.reload == 2 })
	mustContain(t, m, "Bundle v2")
	press(m, "q")
}

func TestPanicEndsProgramWithOneLine(t *testing.T) {
	_, start := linkTree(t)
	m := newTest(t, "", 120, 12, func(o *Options) {
		src, _ := os.ReadFile(start)
		o.Note = &Note{Name: "start.mk.md", Path: start, Source: src}
		o.Load = func(string) (*Note, error) { panic("loader exploded") }
	})
	focusLink(t, m, "./roadmap.mk.md")
	if !isQuit(press(m, "enter")) {
		t.Fatal("a panic in Update did not quit the program")
	}
	if m.failure == nil || strings.Contains(m.failure.Error(), "\n") || !strings.Contains(m.failure.Error(), "loader exploded") {
		t.Fatalf("failure = %v", m.failure)
	}
}

func TestLiveReloadKeepsFocus(t *testing.T) {
	_, start := linkTree(t)
	src, err := os.ReadFile(start)
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	m := newTest(t, string(src), 100, 30, func(o *Options) {
		o.Note = &Note{Name: "start.mk.md", Path: start, Source: src, Watch: []string{start}}
		o.Load = fileLoader(&asked)
		o.Watch = true
	})
	d := newDriver(m)
	d.exec(m.Init())
	focusLink(t, m, "./roadmap.mk.md")
	// A paragraph added above moves every line of the note down.
	if err := os.WriteFile(start, append([]byte("An added paragraph.\n\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the reload", func() bool { return m.reader.reload == 1 })
	if tg, ok := m.reader.focused(); !ok || tg.url != "./roadmap.mk.md" {
		t.Fatalf("after the reload the focus is %+v (%v), want the link to ./roadmap.mk.md", tg, ok)
	}
	press(m, "q")
}
