package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWidthIsBounded: a --width over the widest layout markii draws is a
// usage error of one line, before anything is sized by it (it once ran
// out of memory with a goroutine dump), for every command that takes it.
func TestWidthIsBounded(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	note := filepath.Join(t.TempDir(), "note.mk.md")
	if err := os.WriteFile(note, []byte("# Title\n\nSome text.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	for _, args := range [][]string{
		{"render", "--width", "99999999999", note},
		{"render", "-w", "999999999999999999999999", note},
		{"view", "--width", "10001", note},
		{"export", note, "--format", "ansi", "-o", out, "--width", "99999999999"},
	} {
		stdout, stderr, code := runCLI(t, args...)
		w := args[slicesIndex(args, "--width", "-w")+1]
		want := "markii: --width is at most 10000, not " + w + "\n"
		if code != ExitUsage || stdout != "" || stderr != want {
			t.Errorf("markii %s: exit %d, stdout %q, stderr %q; want exit 3 and %q", strings.Join(args, " "), code, stdout, stderr, want)
		}
	}
	if stdout, stderr, code := runCLI(t, "render", "--width", "10000", note); code != ExitOK || stderr != "" || !strings.Contains(stdout, "Some text.") {
		t.Errorf("--width 10000: exit %d, stderr %q", code, stderr)
	}
	help, _, _ := runCLI(t, "render", "--help")
	if !strings.Contains(help, "at most 10000") {
		t.Errorf("render --help does not give --width's maximum:\n%s", help)
	}
}

// slicesIndex is the index of the first of names in args.
func slicesIndex(args []string, names ...string) int {
	for i, a := range args {
		for _, n := range names {
			if a == n {
				return i
			}
		}
	}
	return -1
}
