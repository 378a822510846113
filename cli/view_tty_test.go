package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestViewInTerminal runs a note's scripts from markii view in a real
// terminal: r runs them in the isolate, the values are drawn, and q
// leaves quietly: the failed script was shown in the viewer, nothing is
// printed to the shell afterwards, and the exit code is 0 (a script that
// failed is not a failure of markii).
func TestViewInTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	note := filepath.Join(dir, "stats.mk.md")
	src := "# Stats\n\nStars: :value[stars].\n\n```lua {name=stars}\nreturn 6 * 7\n```\n\n```lua {name=bad}\nerror(\"boom\")\n```\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	p := viewInTmux(t, dir, note)
	p.wait("stats.mk.md")
	p.wait("r runs scripts")
	p.keys("r")
	p.wait("Stars: 42.")
	p.wait("ran 2, 1 failed")
	p.keys("q")
	want := "exit 0"
	if got := p.exited(); got != want {
		t.Fatalf("stderr after the viewer closed: %q, want %q", got, want)
	}
}
