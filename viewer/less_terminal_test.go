package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// statusLine is the pane's last non-empty line: the status bar.
func statusLine(pane string) string {
	lines := strings.Split(strings.TrimRight(pane, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestRealTerminalLessKeys drives, in tmux, the keys a less user reaches
// for: ? searches backward, / takes a regular expression with smart case
// and names an invalid one, m and ' mark and return (and ” goes back to
// where the last jump started), and ctrl+l repaints a screen something
// else wrote over.
func TestRealTerminalLessKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "hay.mk.md")
	if err := os.WriteFile(note, []byte(needleNote()), 0o644); err != nil {
		t.Fatal(err)
	}
	x, _ := startTmux(t, note)
	x.waitPane("hay.mk.md")

	// ? from the top wraps to the last match; n goes on backward.
	x.run("send-keys", "-t", "v", "-l", "?needle\r")
	x.waitPane("4/4 matches")
	x.waitPane("Para 50 holds needle.")
	x.keys("n")
	x.waitPane("3/4 matches")
	x.waitPane("Para 40 holds Needle.")

	// A regular expression, with the case counted for a capital.
	x.keys("Escape", "g")
	x.run("send-keys", "-t", "v", "-l", "/Para [1-3]0 holds\r")
	x.waitPane("1/3 matches")
	x.keys("Escape")
	x.run("send-keys", "-t", "v", "-l", "/Needle\r")
	x.waitPane("1/1 matches")
	x.keys("Escape")
	x.run("send-keys", "-t", "v", "-l", "/straw[\r")
	x.waitPane("invalid pattern: missing closing ]: `[`")
	x.keys("Escape")

	// m marks, ' returns, '' goes back to where that jump started.
	x.run("send-keys", "-t", "v", "-l", "30gma")
	marked := statusLine(x.waitPane("line 30/"))
	x.keys("G")
	end := statusLine(x.waitPane("(end)"))
	x.run("send-keys", "-t", "v", "-l", "'a")
	if got := statusLine(x.waitPane("line 30/")); got != marked {
		t.Fatalf("'a shows %q, want %q", got, marked)
	}
	x.run("send-keys", "-t", "v", "-l", "''")
	if got := statusLine(x.waitPane("(end)")); got != end {
		t.Fatalf("'' shows %q, want %q", got, end)
	}

	// Something writes over the screen; ctrl+l draws it again.
	tty := strings.TrimSpace(x.run("display-message", "-p", "-t", "v", "#{pane_tty}"))
	f, err := os.OpenFile(tty, os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("cannot write to the pane's terminal: %v", err)
	}
	_, err = f.WriteString("\x1b[3;1HSCRIBBLED OVER THE SCREEN")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	x.waitPane("SCRIBBLED OVER")
	x.keys("C-l")
	x.waitGone("SCRIBBLED OVER")
	x.waitPane("Para 60 holds straw.")
	x.keys("q")
}
