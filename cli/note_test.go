package cli

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTestZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadMessage runs loadNote and returns what the CLI would print and exit
// with.
func loadMessage(t *testing.T, path string) (string, int) {
	t.Helper()
	_, err := loadNote(path, strings.NewReader(""))
	var out bytes.Buffer
	code := report(Stdio{Out: &out, Err: &out}, err)
	return out.String(), code
}

func TestLoadNoteForms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.mk.md")
	os.WriteFile(plain, []byte("# Plain"), 0o644)
	n, err := loadNote(plain, nil)
	if err != nil || string(n.Source) != "# Plain" || n.Name != "a.mk.md" || n.Bundle != nil || n.Key != "file://"+plain {
		t.Fatalf("plain: %+v %v", n, err)
	}

	n, err = loadNote("-", strings.NewReader("# From stdin"))
	if err != nil || string(n.Source) != "# From stdin" || n.Name != "stdin" || n.Key != "" {
		t.Fatalf("stdin: %+v %v", n, err)
	}

	files := map[string]string{
		"manifest.json": `{"spec":"0.1.0","extra":1}`,
		"note.mk.md":    "# Bundled",
	}
	zipPath := filepath.Join(dir, "n.MKBUNDLE")
	writeTestZip(t, zipPath, files)
	n, err = loadNote(zipPath, nil)
	if err != nil || string(n.Source) != "# Bundled" || n.Bundle == nil || n.Name != "n.MKBUNDLE" {
		t.Fatalf("zip: %+v %v", n, err)
	}
	if len(n.Warnings) != 1 || n.Warnings[0] != `manifest.json has an unknown key "extra"` {
		t.Fatalf("warnings %q", n.Warnings)
	}

	bdir := filepath.Join(dir, "folder bundle")
	os.MkdirAll(bdir, 0o755)
	for name, content := range files {
		os.WriteFile(filepath.Join(bdir, name), []byte(content), 0o644)
	}
	n, err = loadNote(bdir, nil)
	if err != nil || n.Bundle == nil || n.Key != "file://"+strings.ReplaceAll(bdir, " ", "%20") {
		t.Fatalf("dir: %+v %v", n, err)
	}
}

func TestLoadNoteErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.mk.md")
	cases := map[string]string{}
	cases[missing] = "markii: cannot read " + missing + ": no such file or directory\n"

	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	cases[empty] = "markii: " + empty + " is a folder without manifest.json, not a bundle; markii view " + empty + " lists the notes in it\n"

	noDoc := filepath.Join(dir, "nodoc.mkz")
	writeTestZip(t, noDoc, map[string]string{"manifest.json": `{"spec":"0.1.0","document":"main.md"}`})
	cases[noDoc] = "markii: bundle has no main.md\n"

	badManifest := filepath.Join(dir, "bad.mkz")
	writeTestZip(t, badManifest, map[string]string{"manifest.json": `{"spec":"x","permissions":{"bundle":["write:/"]}}`, "note.mk.md": "x"})
	cases[badManifest] = `markii: manifest.json is invalid: "spec" must be a version string such as "0.1.0"; permissions.bundle[0] "write:/" is not a bundle permission (use "read" or "write:.cache/")` + "\n"

	evil := filepath.Join(dir, "evil.mkz")
	writeTestZip(t, evil, map[string]string{"manifest.json": `{"spec":"0.1.0"}`, "note.mk.md": "x", "../../x": "y"})
	cases[evil] = "markii: " + evil + ` is not a valid Markii bundle: entry "../../x" escapes or is malformed (it contains a ".." segment)` + "\n"

	junk := filepath.Join(dir, "junk.mkz")
	os.WriteFile(junk, []byte("hello"), 0o644)
	cases[junk] = "markii: " + junk + " is not a valid Markii bundle: it is not a zip archive (no end-of-central-directory record)\n"

	for path, want := range cases {
		got, code := loadMessage(t, path)
		if got != want || code != ExitFailure {
			t.Errorf("%s:\n got  %q (exit %d)\n want %q (exit 1)", path, got, code, want)
		}
	}
	if _, err := loadNote("-", strings.NewReader(strings.Repeat("x", maxNoteBytes+1))); err == nil ||
		err.Error() != "cannot read stdin: the note is over the 16 MiB limit" {
		t.Fatalf("got %v", err)
	}
}

func TestLoadNoteFromPipe(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write([]byte("# Piped"))
		w.Close()
	}()
	defer r.Close()
	n, err := loadNote(fmt.Sprintf("/dev/fd/%d", r.Fd()), nil)
	if err != nil || string(n.Source) != "# Piped" || n.Bundle != nil {
		t.Fatalf("%+v %v", n, err)
	}
}
