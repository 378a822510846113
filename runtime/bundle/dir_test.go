package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenDirectoryBundle(t *testing.T) {
	dir := writeDir(t, t.TempDir(), basicDirFiles())
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b.Form() != Directory || string(b.Document()) != "# Hello\n" || b.Files().Len() != 5 {
		t.Fatalf("form %v doc %q files %v", b.Form(), b.Document(), b.Files().Names())
	}
}

func TestDirectoryRefusesLinkedManifestAndCache(t *testing.T) {
	base := t.TempDir()
	outside := writeDir(t, filepath.Join(base, "outside"), map[string]string{"m.json": goodManifest, "c/x": "cached"})
	files := basicDirFiles()
	delete(files, "manifest.json")
	dir := writeDir(t, filepath.Join(base, "b"), files)
	must(t, os.Symlink(filepath.Join(outside, "m.json"), filepath.Join(dir, "manifest.json")))
	must(t, os.Symlink(filepath.Join(outside, "c"), filepath.Join(dir, ".cache")))
	_, err := Open(dir)
	wantArchiveError(t, err, `"manifest.json" is a symbolic link`, `".cache" is a symbolic link`)
}

func TestDirectoryRefusesHardLinkToOutside(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "secret.txt")
	os.WriteFile(secret, []byte("TOP SECRET"), 0o600)
	dir := writeDir(t, filepath.Join(base, "b"), basicDirFiles())
	must(t, os.Link(secret, filepath.Join(dir, "assets", "copy.txt")))
	before := treeState(t, base)
	_, err := Open(dir)
	wantArchiveError(t, err, `"assets/copy.txt" is a hard link (it has 2 names)`)
	assertSameTree(t, base, before)
}

func TestDirectoryBudgets(t *testing.T) {
	files := basicDirFiles()
	files["assets/big.bin"] = strings.Repeat("x", 2<<20)
	dir := writeDir(t, t.TempDir(), files)
	lim := DefaultLimits
	lim.EntryBytes = 1 << 20
	_, err := OpenLimits(dir, lim)
	wantArchiveError(t, err, `"assets/big.bin" is 2097152 bytes, over the 1 MiB limit`)

	lim = DefaultLimits
	lim.TotalBytes = 1 << 20
	_, err = OpenLimits(dir, lim)
	wantArchiveError(t, err, `"assets/big.bin" brings the total over the 1 MiB limit`)

	lim = DefaultLimits
	lim.Entries = 3
	_, err = OpenLimits(dir, lim)
	wantArchiveError(t, err, "it has more than 3 entries")

	deep := writeDir(t, t.TempDir(), basicDirFiles())
	p := deep
	for i := 0; i < 6; i++ {
		p = filepath.Join(p, "d")
	}
	must(t, os.MkdirAll(p, 0o755))
	lim = DefaultLimits
	lim.Depth = 3
	_, err = OpenLimits(deep, lim)
	wantArchiveError(t, err, "is nested more than 3 directories deep")
}

func TestMissingManifestAndDocument(t *testing.T) {
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "note.mk.md"), []byte("x"), 0o644)
	if _, err := Open(empty); !errors.Is(err, ErrNoManifest) || err.Error() != "bundle has no manifest.json" {
		t.Fatalf("got %v", err)
	}
	files := basicDirFiles()
	delete(files, "note.mk.md")
	_, err := Open(writeDir(t, t.TempDir(), files))
	var md *MissingDocumentError
	if !errors.As(err, &md) || err.Error() != "bundle has no note.mk.md" {
		t.Fatalf("got %v", err)
	}
	files["manifest.json"] = `{"spec":"0.1.0","document":"docs/main.md"}`
	_, err = Open(writeDir(t, t.TempDir(), files))
	if err == nil || err.Error() != "bundle has no docs/main.md" {
		t.Fatalf("got %v", err)
	}
	files["docs/main.md"] = "# Main"
	b, err := Open(writeDir(t, t.TempDir(), files))
	if err != nil || string(b.Document()) != "# Main" {
		t.Fatalf("got %v", err)
	}

	zdir := t.TempDir()
	_, err = Open(writeZip(t, zdir, "nomanifest.mkz", []entry{{Name: "note.mk.md", Data: []byte("x")}}))
	if !errors.Is(err, ErrNoManifest) {
		t.Fatalf("got %v", err)
	}
	_, err = Open(writeZip(t, zdir, "nodoc.mkz", []entry{{Name: "manifest.json", Data: []byte(goodManifest)}}))
	if !errors.As(err, &md) {
		t.Fatalf("got %v", err)
	}
	if _, err := Open(filepath.Join(zdir, "nodoc.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
