//go:build unix

package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// These tests make named pipes, which only Unix systems have.

func TestDirectoryRefusesSymlinksAnywhere(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("TOP SECRET"), 0o600)
	if err := syscall.Mkfifo(filepath.Join(outside, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := writeDir(t, filepath.Join(base, "b"), basicDirFiles())
	must(t, os.Symlink("/etc", filepath.Join(dir, "assets", "etc")))
	must(t, os.Symlink("../../outside/fifo", filepath.Join(dir, "assets", "pipe")))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "scripts", "s.lua")))
	before := treeState(t, base)
	_, err := Open(dir)
	wantArchiveError(t, err, dir+" is not a valid Markii bundle: ",
		`"assets/etc" is a symbolic link`, `"assets/pipe" is a symbolic link`, `"scripts/s.lua" is a symbolic link`)
	if strings.Contains(err.Error(), "TOP SECRET") {
		t.Fatal("outside content leaked into the error")
	}
	assertSameTree(t, base, before)
}

func TestDirectoryRefusesSpecialAndBadNames(t *testing.T) {
	dir := writeDir(t, t.TempDir(), basicDirFiles())
	must(t, syscall.Mkfifo(filepath.Join(dir, "assets", "fifo"), 0o600))
	os.WriteFile(filepath.Join(dir, "assets", `a\b`), []byte("x"), 0o644)
	_, err := Open(dir)
	wantArchiveError(t, err, `"assets/fifo" is a special file`, `"assets/a\\b" has a name the bundle jail refuses`)
}

func TestZipNamedPipeRefusedWithoutBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.mkz")
	must(t, syscall.Mkfifo(p, 0o600))
	_, err := Open(p)
	wantArchiveError(t, err, p+" is not a valid Markii bundle: it is not a regular file")
}
