package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// TestDashOnATerminalSaysWhatItWaitsFor: `view -` (and `render -`) with
// a terminal on standard input says it reads the note from there, so
// the wait is not a blank screen.
func TestDashOnATerminalSaysWhatItWaitsFor(t *testing.T) {
	t.Parallel()
	ptm, pts := openPTY(t)
	defer pts.Close()
	if _, err := ptm.Write([]byte("# Typed\n\x04")); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	stdout, stderr, code := e.main(pts, "view", "-")
	if code != ExitOK || stderr != "markii: reading the note from the terminal; end it with Ctrl-D\n" || !strings.Contains(stdout, "Typed") {
		t.Errorf("view - on a terminal: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}

// TestExportANSIToAFileIsRenderWidth: export --format ansi to a file
// lays out at render's width for a file, 80, even when standard output
// is a wider terminal; --width still sets it.
func TestExportANSIToAFileIsRenderWidth(t *testing.T) {
	t.Parallel()
	ptm, pts := openPTY(t)
	_ = ptm
	defer pts.Close()
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 150}); err != nil {
		t.Fatal(err)
	}
	note := writeNote(t, "# Title\n\n"+strings.Repeat("word ", 100)+"\n")
	e := newTestEnv(t)
	for _, c := range []struct {
		args []string
		want int
	}{{nil, 80}, {[]string{"--width", "100"}, 100}} {
		out := filepath.Join(t.TempDir(), "out.ans")
		var errb strings.Builder
		stdio := Stdio{Out: pts, Err: &errb, Getenv: e.getenv}
		args := append([]string{"export", note, "--format", "ansi", "-o", out}, c.args...)
		if code := Main(args, stdio); code != ExitOK {
			t.Fatalf("markii %s: exit %d, %s", strings.Join(args, " "), code, errb.String())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		widest := 0
		for _, ln := range strings.Split(string(data), "\n") {
			widest = max(widest, ansi.StringWidth(ln))
		}
		if widest < c.want-10 || widest > c.want {
			t.Errorf("markii %s on a 150-column terminal: widest line %d, want about %d", strings.Join(args, " "), widest, c.want)
		}
	}
}
