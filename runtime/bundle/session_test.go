package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
)

func TestCleanPath(t *testing.T) {
	good := map[string]string{
		"a":              "a",
		"./a/b":          "a/b",
		"a//b/./c/":      "a/b/c",
		".cache/x":       ".cache/x",
		"a%2e%2e/b":      "a%2e%2e/b",
		"%2e%2e/x":       "%2e%2e/x",
		"scripts/x.lua":  "scripts/x.lua",
		"././scripts/./": "scripts",
		"a..b/c":         "a..b/c",
	}
	for in, want := range good {
		if got, err := CleanPath(in); err != nil || got != want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":            "it is empty",
		"/etc/x":      "it is absolute",
		"C:x":         "it starts with a drive letter",
		`C:\x`:        "it contains a backslash",
		`a\b`:         "it contains a backslash",
		"a\x00b":      "it contains a NUL byte",
		"../x":        `it contains a ".." segment`,
		"a/../../x":   `it contains a ".." segment`,
		".cache/../x": `it contains a ".." segment`,
		"a/..":        `it contains a ".." segment`,
		".":           "it names the bundle root",
		"./":          "it names the bundle root",
	}
	for in, reason := range bad {
		_, err := CleanPath(in)
		var pe *PathError
		if !errors.As(err, &pe) || pe.Reason != reason {
			t.Errorf("CleanPath(%q) = %v; want reason %q", in, err, reason)
		}
	}
}

// openBoth opens the same files as a zip bundle and a directory bundle.
func openBoth(t *testing.T, base string, files map[string]string) map[Form]*Bundle {
	t.Helper()
	var entries []entry
	for n, c := range files {
		entries = append(entries, entry{Name: n, Data: []byte(c)})
	}
	zb, err := Open(writeZip(t, base, "n.mkz", entries))
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(writeDir(t, filepath.Join(base, "dir"), files))
	if err != nil {
		t.Fatal(err)
	}
	return map[Form]*Bundle{Zip: zb, Directory: db}
}

func wantDenial(t *testing.T, err error, capability script.Capability, tierBlocked bool, reason string) {
	t.Helper()
	var d *script.Denial
	if !errors.As(err, &d) {
		t.Fatalf("got %T %v, want a *script.Denial", err, err)
	}
	if d.Capability != capability || d.TierBlocked != tierBlocked || d.Reason != reason {
		t.Fatalf("got denial %+v, want %s tierBlocked=%v %q", *d, capability, tierBlocked, reason)
	}
}

func TestSessionReadNeedsDeclaredAndGranted(t *testing.T) {
	files := basicDirFiles()
	files["manifest.json"] = `{"spec":"0.1.0","permissions":{"bundle":["write:.cache/"]}}`
	for form, b := range openBoth(t, t.TempDir(), files) {
		s := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierManual)
		if !reflect.DeepEqual(s.Effective(), []Grant{GrantWriteCache}) {
			t.Fatalf("%v: effective %v", form, s.Effective())
		}
		_, _, err := s.Read("assets/data.txt")
		wantDenial(t, err, script.CapBundle, false, `bundle.read needs the "read" permission, declared in manifest.json and granted`)
		_, err = s.Exists("assets/data.txt")
		wantDenial(t, err, script.CapBundle, false, `bundle.exists needs the "read" permission, declared in manifest.json and granted`)
	}
	for form, b := range openBoth(t, t.TempDir(), basicDirFiles()) {
		s := b.Session(nil, script.TierManual)
		_, _, err := s.Read("assets/data.txt")
		if !isDenial(err) {
			t.Fatalf("%v: declared but not granted must deny, got %v", form, err)
		}
		err = s.Write(".cache/x", []byte("y"))
		wantDenial(t, err, script.CapBundle, false, `bundle.write needs the "write:.cache/" permission, declared in manifest.json and granted`)
	}
}

func TestSessionReadJailed(t *testing.T) {
	base := t.TempDir()
	os.WriteFile(filepath.Join(base, "secret"), []byte("TOP SECRET"), 0o600)
	for form, b := range openBoth(t, base, basicDirFiles()) {
		s := b.Session([]Grant{GrantRead}, script.TierManual)
		data, ok, err := s.Read("./assets//data.txt")
		if err != nil || !ok || string(data) != "hello" {
			t.Fatalf("%v: read %q %v %v", form, data, ok, err)
		}
		if _, ok, err := s.Read("assets/nope"); ok || err != nil {
			t.Fatalf("%v: missing file: %v %v", form, ok, err)
		}
		for _, p := range []string{"../secret", "../../secret", "/etc/passwd", `..\secret`, "assets/%2e%2e/x"} {
			data, ok, err := s.Read(p)
			if p == "assets/%2e%2e/x" {
				if ok || err != nil {
					t.Fatalf("%v: percent text is a plain name: %v %v", form, ok, err)
				}
				continue
			}
			if !isDenial(err) || ok || data != nil {
				t.Fatalf("%v: read %q: %q %v %v", form, p, data, ok, err)
			}
		}
		if ex, err := s.Exists("scripts/x.lua"); !ex || err != nil {
			t.Fatalf("%v: exists %v %v", form, ex, err)
		}
	}
}

func TestSessionWriteRefusals(t *testing.T) {
	base := t.TempDir()
	bundles := openBoth(t, base, basicDirFiles())
	before := treeState(t, base)
	for form, b := range bundles {
		s := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierManual)
		wantDenial(t, s.Write("manifest.json", []byte("{}")), script.CapBundle, false, `bundle.write: "manifest.json" is never writable`)
		wantDenial(t, s.Write("./note.mk.md", []byte("x")), script.CapBundle, false, `bundle.write: "note.mk.md" is never writable`)
		wantDenial(t, s.Write("cache/x", []byte("x")), script.CapBundle, false, `bundle.write: "cache/x" is outside .cache/ (writes go only under .cache/)`)
		wantDenial(t, s.Write(".cache", []byte("x")), script.CapBundle, false, `bundle.write: ".cache" is outside .cache/ (writes go only under .cache/)`)
		wantDenial(t, s.Write(".cache/../x", []byte("x")), script.CapBundle, false, `bundle.write: bundle path ".cache/../x" is refused: it contains a ".." segment`)
		wantDenial(t, s.Write("../outside", []byte("x")), script.CapBundle, false, `bundle.write: bundle path "../outside" is refused: it contains a ".." segment`)

		auto := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierAuto)
		wantDenial(t, auto.Write(".cache/x", []byte("x")), script.CapBundle, true, "bundle.write is only available on a manual run")
		if data, ok, err := auto.Read("assets/data.txt"); err != nil || !ok || string(data) != "hello" {
			t.Fatalf("%v: auto tier read: %q %v %v", form, data, ok, err)
		}
		if len(s.Written()) != 0 || len(auto.Written()) != 0 {
			t.Fatalf("%v: refused writes were recorded", form)
		}
	}
	assertSameTree(t, base, before)
}

func TestSessionWritesZipStayInMemory(t *testing.T) {
	base := t.TempDir()
	b := openBoth(t, base, basicDirFiles())[Zip]
	before := treeState(t, base)
	s := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierManual)
	if err := s.Write(".cache/out/data.json", []byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	if data, ok, _ := s.Read(".cache/out/data.json"); !ok || string(data) != `{"n":1}` {
		t.Fatalf("read back %q %v", data, ok)
	}
	if d := s.Diagnostics(); len(d) != 1 || d[0] != "n.mkz is a zip bundle, so .cache/ writes from this run are kept in memory only" {
		t.Fatalf("diagnostics %q", d)
	}
	assertSameTree(t, base, before)
	// A new run starts from the snapshot: the write is gone.
	if _, ok, _ := b.Session([]Grant{GrantRead}, script.TierManual).Read(".cache/out/data.json"); ok {
		t.Fatal("an in-memory write leaked into the next run")
	}
}

func TestSessionWritesDirectoryPersistAtomically(t *testing.T) {
	base := t.TempDir()
	b := openBoth(t, base, basicDirFiles())[Directory]
	s := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierManual)
	must(t, s.Write(".cache/a/b.json", []byte("one")))
	must(t, s.Write("./.cache/a/b.json", []byte("two")))
	got, err := os.ReadFile(filepath.Join(b.Path(), ".cache", "a", "b.json"))
	if err != nil || string(got) != "two" {
		t.Fatalf("on disk %q %v", got, err)
	}
	entries, _ := os.ReadDir(filepath.Join(b.Path(), ".cache", "a"))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	if len(s.Diagnostics()) != 0 {
		t.Fatalf("unexpected diagnostics %v", s.Diagnostics())
	}
}

func TestSessionWriteNeverFollowsLinks(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	must(t, os.MkdirAll(outside, 0o755))
	secret := filepath.Join(outside, "target")
	os.WriteFile(secret, []byte("keep"), 0o600)
	b := openBoth(t, base, basicDirFiles())[Directory]
	s := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierManual)
	cache := filepath.Join(b.Path(), ".cache")

	// .cache itself swapped for a link after the bundle was opened.
	must(t, os.Symlink(outside, cache))
	before := treeState(t, outside)
	err := s.Write(".cache/x", []byte("evil"))
	if err == nil || !strings.Contains(err.Error(), `".cache" is a symbolic link`) {
		t.Fatalf("got %v", err)
	}
	assertSameTree(t, outside, before)
	must(t, os.Remove(cache))

	// A link or a hard link as the target file.
	must(t, os.MkdirAll(cache, 0o755))
	must(t, os.Symlink(secret, filepath.Join(cache, "soft")))
	must(t, os.Link(secret, filepath.Join(cache, "hard")))
	before = treeState(t, outside)
	if err := s.Write(".cache/soft", []byte("evil")); err == nil || !strings.Contains(err.Error(), `".cache/soft" is a symbolic link`) {
		t.Fatalf("got %v", err)
	}
	if err := s.Write(".cache/hard", []byte("evil")); err == nil || !strings.Contains(err.Error(), `".cache/hard" is a hard link`) {
		t.Fatalf("got %v", err)
	}
	assertSameTree(t, outside, before)
}

func TestSessionModule(t *testing.T) {
	base := t.TempDir()
	files := basicDirFiles()
	files["scripts/compiled.lua"] = "\x1bLuaQ\x00\x01\x04"
	files["scripts/plain.lua"] = "return 'text'"
	for form, b := range openBoth(t, base, files) {
		s := b.Session([]Grant{GrantRead}, script.TierAuto)
		if src, err := s.Module("scripts/lib"); err != nil || src != "return {two = 2}\n" {
			t.Fatalf("%v: %q %v", form, src, err)
		}
		if src, err := s.Module("scripts/plain.lua"); err != nil || src != "return 'text'" {
			t.Fatalf("%v: %q %v", form, src, err)
		}
		_, err := s.Module("scripts/missing")
		var me *ModuleError
		if !errors.As(err, &me) || err.Error() != `require: no bundle module at "scripts/missing.lua"` {
			t.Fatalf("%v: got %v", form, err)
		}
		_, err = s.Module("scripts/compiled")
		if !errors.As(err, &me) || err.Error() != `require: "scripts/compiled.lua" is refused: it is compiled Lua bytecode, and only Lua source text can be loaded` {
			t.Fatalf("%v: got %v", form, err)
		}
		_, err = s.Module("scripts/../../x")
		wantDenial(t, err, script.CapRequire, false, `require: bundle path "scripts/../../x.lua" is refused: it contains a ".." segment`)
		_, err = s.Module("../x")
		if !errors.As(err, &me) || !strings.Contains(err.Error(), `"../x" is not a bundle module`) {
			t.Fatalf("%v: got %v", form, err)
		}
		_, err = b.Session(nil, script.TierManual).Module("scripts/lib")
		wantDenial(t, err, script.CapRequire, false, `require of a bundle module needs the "read" permission, declared in manifest.json and granted`)

		// A module written during the run is not loadable: modules come from
		// the snapshot taken at open.
		w := b.Session([]Grant{GrantRead, GrantWriteCache}, script.TierManual)
		must(t, w.Write(".cache/gen.lua", []byte("return 1")))
		if _, err := w.Module(".cache/gen"); !errors.As(err, &me) {
			t.Fatalf("%v: generated module loaded: %v", form, err)
		}
	}
}

func TestResolveSrc(t *testing.T) {
	files := basicDirFiles()
	files["scripts/compiled.lua"] = "\x1bLua"
	for form, b := range openBoth(t, t.TempDir(), files) {
		if src, err := b.Resolve("./scripts/x.lua"); err != nil || src != "return 1\n" {
			t.Fatalf("%v: %q %v", form, src, err)
		}
		for in, want := range map[string]string{
			"../x.lua":             `src="../x.lua": bundle path "../x.lua" is refused: it contains a ".." segment`,
			"scripts/none.lua":     `src="scripts/none.lua": the bundle has no file "scripts/none.lua"`,
			"scripts/compiled.lua": `src="scripts/compiled.lua" is refused: it is compiled Lua bytecode, and only Lua source text can be loaded`,
		} {
			if _, err := b.Resolve(in); err == nil || err.Error() != want {
				t.Fatalf("%v: Resolve(%q) = %v, want %s", form, in, err, want)
			}
		}
	}
}

// A single-file note has no Session; every call through a nil one denies.
func TestNilSessionDenies(t *testing.T) {
	var s *Session
	_, _, err := s.Read("a")
	wantDenial(t, err, script.CapBundle, false, "bundle.read is only available in a bundle")
	_, err = s.Exists("a")
	wantDenial(t, err, script.CapBundle, false, "bundle.exists is only available in a bundle")
	wantDenial(t, s.Write(".cache/a", nil), script.CapBundle, false, "bundle.write is only available in a bundle")
	_, err = s.Module("scripts/a")
	wantDenial(t, err, script.CapRequire, false, "require of a bundle module is only available in a bundle")
	if s.Effective() != nil || s.Diagnostics() != nil || s.Written() != nil {
		t.Fatal("nil session reported state")
	}
}

// isDenial reports whether err is a capability denial (as opposed to a
// script error).
func isDenial(err error) bool {
	var d *script.Denial
	return errors.As(err, &d)
}
