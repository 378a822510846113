package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/render"
)

// fileLoader reads a note from disk, recording each path it was asked for.
func fileLoader(asked *[]string) Loader {
	return func(path string) (*Note, error) {
		*asked = append(*asked, path)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return &Note{Name: filepath.Base(path), Path: path, Source: src}, nil
	}
}

// linkTree writes notes/start.mk.md linking to a sibling, a bundle-backed
// sibling, a note outside the folder and a web page.
func linkTree(t *testing.T) (dir, start string) {
	t.Helper()
	dir = t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes/start.mk.md", longNote(3, 2)+"\nSee [the roadmap](./roadmap.mk.md), [the plan](./plan.mk.md), [elsewhere](../other/out.mk.md) and [the site](https://example.com/page).\n")
	write("notes/roadmap.mk.md", "# Roadmap\n\nThe roadmap note.\n\n```lua {name=hidden}\nreturn 1\n```\n")
	write("notes/plan.mk.md", "# Plan as text\n")
	write("notes/plan.mkz", "bundle bytes")
	write("other/out.mk.md", "# Outside\n\nA note outside the first folder.\n")
	return dir, filepath.Join(dir, "notes", "start.mk.md")
}

func linkModel(t *testing.T, start string, asked *[]string, edit func(*Options)) *Model {
	src, err := os.ReadFile(start)
	if err != nil {
		t.Fatal(err)
	}
	return newTest(t, string(src), 120, 12, func(o *Options) {
		o.Note = &Note{Name: "start.mk.md", Path: start, Source: src}
		o.Load = fileLoader(asked)
		if edit != nil {
			edit(o)
		}
	})
}

// focusLink focuses the link whose address is u.
func focusLink(t *testing.T, m *Model, u string) {
	t.Helper()
	for range m.reader.pg.targets {
		press(m, "tab")
		if tg, ok := m.reader.focused(); ok && tg.url == u {
			return
		}
	}
	t.Fatalf("no focusable link to %s among %+v", u, m.reader.pg.targets)
}

func TestNoteLinkOpensAndBackspaceReturns(t *testing.T) {
	_, start := linkTree(t)
	var asked []string
	runner := &scriptedRunner{}
	m := linkModel(t, start, &asked, func(o *Options) { o.Runner = runner })
	press(m, "G")
	focusLink(t, m, "./roadmap.mk.md")
	top, focus := m.reader.top, m.reader.focus
	if !strings.Contains(status(m), "enter opens ./roadmap.mk.md") {
		t.Fatalf("status %q", status(m))
	}
	press(m, "enter")
	mustContain(t, m, "Roadmap", "The roadmap note.", "roadmap.mk.md", "backspace returns")
	if len(asked) != 1 || asked[0] != filepath.Join(filepath.Dir(start), "roadmap.mk.md") {
		t.Fatalf("loader asked for %v", asked)
	}
	// The linked note's scripts never run, not even on r.
	press(m, "r")
	if runner.runs.Load() != 0 {
		t.Fatal("r ran scripts of a linked note")
	}
	press(m, "backspace")
	if m.reader.top != top || m.reader.focus != focus || m.reader.note.Path != start {
		t.Fatalf("backspace returned to top %d focus %d of %s, want %d %d of %s", m.reader.top, m.reader.focus, m.reader.note.Path, top, focus, start)
	}
}

func TestNoteLinkPrefersBundle(t *testing.T) {
	dir, start := linkTree(t)
	var asked []string
	m := linkModel(t, start, &asked, nil)
	focusLink(t, m, "./plan.mk.md")
	press(m, "enter")
	want := filepath.Join(dir, "notes", "plan.mkz")
	if len(asked) != 1 || asked[0] != want {
		t.Fatalf("loader asked for %v, want %s", asked, want)
	}
}

func TestNoteLinkOutsideFolderShowsPathFirst(t *testing.T) {
	dir, start := linkTree(t)
	var asked []string
	m := linkModel(t, start, &asked, nil)
	focusLink(t, m, "../other/out.mk.md")
	press(m, "enter")
	out := filepath.Join(dir, "other", "out.mk.md")
	if len(asked) != 0 {
		t.Fatalf("a note outside the folder opened without asking: %v", asked)
	}
	if !strings.Contains(m.reader.message, out) {
		t.Fatalf("the path was not shown: %q", m.reader.message)
	}
	press(m, "enter")
	if len(asked) != 1 || asked[0] != out {
		t.Fatalf("second enter loaded %v", asked)
	}
	mustContain(t, m, "Outside")
}

func TestNoteLinkOutsideFolderCancelledByAnotherKey(t *testing.T) {
	_, start := linkTree(t)
	var asked []string
	m := linkModel(t, start, &asked, nil)
	focusLink(t, m, "../other/out.mk.md")
	press(m, "enter", "j", "enter")
	if len(asked) != 0 {
		t.Fatalf("opened after the confirmation was interrupted: %v", asked)
	}
}

func TestShowURLAndBrowserSetting(t *testing.T) {
	_, start := linkTree(t)
	var asked []string
	m := linkModel(t, start, &asked, nil)
	focusLink(t, m, "https://example.com/page")
	if cmd := press(m, "o"); cmd != nil {
		t.Fatal("o without the browser setting returned a command")
	}
	if !strings.Contains(screen(m), "→ https://example.com/page") {
		t.Fatalf("o did not show the address:\n%s", screen(m))
	}
	press(m, "j")
	mustLack(t, m, "→ https://example.com/page")

	var opened []string
	m = linkModel(t, start, &asked, func(o *Options) {
		o.OpenBrowser = func(u string) error { opened = append(opened, u); return nil }
	})
	focusLink(t, m, "https://example.com/page")
	cmd := press(m, "o")
	if cmd == nil {
		t.Fatal("o with the browser setting did nothing")
	}
	m.Update(cmd())
	if len(opened) != 1 || opened[0] != "https://example.com/page" {
		t.Fatalf("browser opened %v", opened)
	}
	focusLink(t, m, "./roadmap.mk.md")
	if cmd := press(m, "o"); cmd != nil {
		t.Fatal("o offered a browser for a relative link")
	}
}

func TestIsNoteLink(t *testing.T) {
	for u, want := range map[string]bool{
		"./x.mk.md": true, "x.mk.md": true, "../a/b.mkz": true, "./x.MK.MD#part": true,
		"https://e.com/x.mk.md": false, "javascript:x.mk.md": false, "/etc/x.mk.md": false,
		"#frag": false, "./image.png": false, "": false,
	} {
		if got := isNoteLink(u); got != want {
			t.Errorf("isNoteLink(%q) = %v, want %v", u, got, want)
		}
	}
}

func TestLinksAreFocusTargets(t *testing.T) {
	_, start := linkTree(t)
	var asked []string
	m := linkModel(t, start, &asked, nil)
	var urls []string
	for i := range m.reader.pg.targets {
		if tg := m.reader.pg.target(i); tg.kind == render.FocusLink {
			urls = append(urls, tg.url)
		}
	}
	want := []string{"./roadmap.mk.md", "./plan.mk.md", "../other/out.mk.md", "https://example.com/page"}
	if strings.Join(urls, " ") != strings.Join(want, " ") {
		t.Fatalf("link targets %v, want %v", urls, want)
	}
}

func TestShowURLInFullWhenLong(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("abcdefghij", 12) + "/end"
	m := newTest(t, "A [long link]("+long+") here.\n", 40, 12, nil)
	focusLink(t, m, long)
	press(m, "o")
	joined := strings.Join(strings.Fields(strings.ReplaceAll(screen(m), "\n", "")), "")
	if !strings.Contains(joined, long) {
		t.Fatalf("the long address is not shown in full:\n%s", screen(m))
	}
	for _, r := range rows(m) {
		if len([]rune(r)) > 40 {
			t.Fatalf("row wider than the terminal: %q", r)
		}
	}
}
