package state

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// set stores raw under doc in sec.
func set(t *testing.T, s Entries, doc string, sec Section, raw string) {
	t.Helper()
	if err := s.Update(doc, sec, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(raw), nil }); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, s Entries, doc string, sec Section) string {
	t.Helper()
	raw, err := s.Get(doc, sec)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// warnings collects what a store reports.
type warnings struct{ got []error }

func (w *warnings) add(err error) { w.got = append(w.got, err) }

func TestRoundTripAndPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "markii")
	s := Open(dir, Options{})
	if got := get(t, s, "file:///a", SectionGrant); got != "" {
		t.Fatalf("fresh store has %q", got)
	}
	set(t, s, "file:///a", SectionGrant, `{"key":"k"}`)
	set(t, s, "file:///a", SectionValues, `{"x":1}`)
	set(t, s, "__proto__", SectionValues, `2`)
	again := Open(dir, Options{})
	if got := get(t, again, "file:///a", SectionGrant); got != `{"key":"k"}` {
		t.Fatalf("grant read back as %q", got)
	}
	if got := get(t, again, "__proto__", SectionValues); got != `2` {
		t.Fatalf("__proto__ read back as %q", got)
	}
	all, err := again.List(SectionValues)
	if err != nil || len(all) != 2 || string(all["file:///a"]) != `{"x":1}` {
		t.Fatalf("List = %v, %v", all, err)
	}
	for _, p := range []string{dir, filepath.Join(dir, notesDir)} {
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s mode %v, want 0700", p, fi.Mode().Perm())
		}
	}
	ents, _ := os.ReadDir(filepath.Join(dir, notesDir))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temp file left behind: %s", e.Name())
		}
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode %v, want 0600", e.Name(), fi.Mode().Perm())
		}
	}
	// Deleting.
	if err := s.Update("file:///a", SectionGrant, func(json.RawMessage) (json.RawMessage, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if got := get(t, Open(dir, Options{}), "file:///a", SectionGrant); got != "" {
		t.Fatalf("deleted grant still there: %q", got)
	}
	// An error from fn changes nothing.
	boom := errors.New("boom")
	if err := s.Update("file:///a", SectionValues, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`9`), boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got := get(t, s, "file:///a", SectionValues); got != `{"x":1}` {
		t.Fatalf("a failed update changed the entry to %q", got)
	}
}

func TestExistingDirectoryModeIsKept(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	set(t, Open(dir, Options{}), "d", SectionValues, `1`)
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o750 {
		t.Fatalf("the user's directory mode became %v", fi.Mode().Perm())
	}
}

func TestForeignDirectoryIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a directory away")
	}
	dir := t.TempDir()
	set(t, Open(dir, Options{}), "d", SectionValues, `1`)
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Skip(err)
	}
	s := Open(dir, Options{})
	if _, err := s.Get("d", SectionValues); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("reading another user's state: %v", err)
	}
	err := s.Update("d", SectionValues, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`2`), nil })
	if err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("writing another user's state: %v", err)
	}
}

func TestReadOnlyDirectoryFailsAndChangesNothing(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes through directory modes")
	}
	dir := t.TempDir()
	s := Open(dir, Options{})
	set(t, s, "d", SectionValues, `1`)
	notes := filepath.Join(dir, notesDir)
	os.Chmod(notes, 0o500)
	os.Chmod(dir, 0o500)
	t.Cleanup(func() { os.Chmod(dir, 0o700); os.Chmod(notes, 0o700) })
	err := s.Update("d", SectionValues, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`2`), nil })
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("write into a read-only directory: %v", err)
	}
	if got := get(t, s, "d", SectionValues); got != `1` {
		t.Fatalf("entry became %q", got)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o500 {
		t.Fatalf("the directory's mode was changed to %v", fi.Mode().Perm())
	}
}

func TestDamagedEntryIsMovedAsideOnceAndReported(t *testing.T) {
	cases := map[string]string{
		"bad json":    "{not json",
		"truncated":   `{"documentKey":"d","data":{"a":`,
		"empty":       "",
		"other note":  `{"documentKey":"other","data":1}`,
		"no data":     `{"documentKey":"d"}`,
		"nul bytes":   "\x00\x00{",
		"over cap":    `{"documentKey":"d","data":"` + strings.Repeat("x", MaxEntryBytes) + `"}`,
		"deep":        strings.Repeat("[", 100000),
		"trailing":    `{"documentKey":"d","data":1} {}`,
		"not object":  `[1]`,
		"null object": `null`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var w warnings
			s := Open(dir, Options{Warn: w.add})
			set(t, s, "d", SectionGrant, `{"ok":true}`)
			path := filepath.Join(dir, notesDir, fileName("d", SectionValues))
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := get(t, s, "d", SectionValues); got != "" {
				t.Fatalf("damaged entry read as %q", got)
			}
			if got := get(t, s, "d", SectionValues); got != "" {
				t.Fatalf("second read %q", got)
			}
			var de *DamagedError
			if len(w.got) != 1 || !errors.As(w.got[0], &de) || de.Aside == "" {
				t.Fatalf("warnings %v, want one DamagedError naming the copy", w.got)
			}
			if !strings.Contains(de.Error(), de.Aside) {
				t.Fatalf("message %q does not name the copy", de)
			}
			kept, err := os.ReadFile(de.Aside)
			if err != nil || string(kept) != body {
				t.Fatalf("the damaged file was not kept as it was: %v", err)
			}
			// The note's other entries are untouched.
			if got := get(t, s, "d", SectionGrant); got != `{"ok":true}` {
				t.Fatalf("grant became %q", got)
			}
		})
	}
}

func TestLockTimeoutChangesNothing(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{LockWait: 150 * time.Millisecond})
	set(t, s, "d", SectionValues, `1`)
	held, _, err := acquire(filepath.Join(dir, lockName), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = s.Update("d", SectionValues, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`2`), nil })
	var le *LockError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("err = %v, want a LockError", err)
	}
	if d := time.Since(start); d < 150*time.Millisecond || d > 2*time.Second {
		t.Fatalf("waited %v for a 150ms bound", d)
	}
	held.release()
	if got := get(t, s, "d", SectionValues); got != `1` {
		t.Fatalf("entry became %q", got)
	}
	set(t, s, "d", SectionValues, `3`)
}

func TestMemory(t *testing.T) {
	var m Memory
	set(t, &m, "a", SectionGrant, `1`)
	set(t, &m, "b", SectionGrant, `2`)
	if got := get(t, &m, "a", SectionGrant); got != `1` {
		t.Fatal(got)
	}
	n := 0
	if err := m.UpdateAll(SectionGrant, func(string, json.RawMessage) (json.RawMessage, error) { n++; return nil, nil }); err != nil || n != 2 {
		t.Fatal(err, n)
	}
	if all, _ := m.List(SectionGrant); len(all) != 0 {
		t.Fatal(all)
	}
}

func TestLocate(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		goos        string
		env         map[string]string
		dir, legacy string
	}{
		{"linux", map[string]string{"XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/s/markii", "/x/markii/state.json"},
		{"linux", map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/markii", "/h/.config/markii/state.json"},
		{"freebsd", map[string]string{"HOME": "/h"}, "/h/.local/state/markii", "/h/.config/markii/state.json"},
		{"darwin", map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s"}, "/h/Library/Application Support/markii", "/h/Library/Application Support/markii/state.json"},
	}
	for _, c := range cases {
		got, err := Locate(c.goos, env(c.env))
		if err != nil || got.Dir != filepath.FromSlash(c.dir) || got.Legacy != filepath.FromSlash(c.legacy) {
			t.Errorf("%s %v: %+v %v", c.goos, c.env, got, err)
		}
	}
	if _, err := Locate("linux", env(nil)); err == nil {
		t.Error("no HOME gave no error")
	}
	if k := DocumentKey("/a b/n.mk.md"); k != "file:///a%20b/n.mk.md" {
		t.Errorf("DocumentKey = %q", k)
	}
}
