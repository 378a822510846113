package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/internal/needs"
)

// tmuxPane is the real markii binary, started by a shell line, on the
// terminal of a private tmux server (no user config), as a user runs it.
type tmuxPane struct {
	t    *testing.T
	sock string
	// dir is the program's home; its config folder is dir/config and
	// what it wrote on stderr is dir/stderr.
	dir string
}

// inTmux runs script, a shell command line in which $MARKII is the markii
// binary, on a cols×rows tmux pane, with HOME=dir and
// XDG_CONFIG_HOME=dir/config. What the script writes on stderr, and then
// its exit status as a last line "exit N", is kept for exited. The server
// is killed when the test ends.
func inTmux(t *testing.T, dir string, cols, rows int, script string) *tmuxPane {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	needs.Tmux(t)
	bin := markiiBinary(t)
	p := &tmuxPane{t: t, sock: filepath.Join(dir, "sock"), dir: dir}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", p.sock, "kill-server").Run() })
	stderr := filepath.Join(dir, "stderr")
	// The script waits for the gate, so that the pane is set to stay
	// after it ends even when it ends at once.
	gate := filepath.Join(dir, "gate")
	cmd := fmt.Sprintf("while [ ! -e %s ]; do sleep 0.02; done; env TERM=xterm-256color HOME=%s XDG_CONFIG_HOME=%s MARKII=%s sh -c %s 2>%s; echo \"exit $?\" >>%s",
		shellQuote(gate), shellQuote(dir), shellQuote(filepath.Join(dir, "config")), shellQuote(bin), shellQuote(script), shellQuote(stderr), shellQuote(stderr))
	p.tmux("new-session", "-d", "-s", "v", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "sh", "-c", cmd)
	p.tmux("set-option", "-t", "v", "remain-on-exit", "on")
	p.tmux("set-option", "-s", "escape-time", "0")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// viewInTmux runs `markii view ARGS` on a 100×20 pane (see inTmux).
func viewInTmux(t *testing.T, dir string, args ...string) *tmuxPane {
	t.Helper()
	line := `exec "$MARKII" view`
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	return inTmux(t, dir, 100, 20, line)
}

// shellQuote is s as one word of a shell command line.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tmux runs one tmux command against the pane's server and fails the
// test on error.
func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names ("q", "Enter", "Escape").
func (p *tmuxPane) keys(k ...string) {
	p.t.Helper()
	p.tmux(append([]string{"send-keys", "-t", "v"}, k...)...)
}

// text types s in one write, as a paste or a laggy link delivers it.
func (p *tmuxPane) text(s string) {
	p.t.Helper()
	p.tmux("send-keys", "-t", "v", "-l", s)
}

// capture is what the pane shows now.
func (p *tmuxPane) capture() string {
	p.t.Helper()
	return p.tmux("capture-pane", "-p", "-t", "v")
}

// history is everything the pane has shown, its scrollback included,
// with lines the terminal wrapped joined again.
func (p *tmuxPane) history() string {
	p.t.Helper()
	return p.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "v")
}

// resize makes the pane cols×rows.
func (p *tmuxPane) resize(cols, rows int) {
	p.t.Helper()
	p.tmux("resize-window", "-t", "v", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows))
}

// waitFor polls read until ok accepts what it returns, within limit, and
// returns that; what describes the wait in the failure.
func (p *tmuxPane) waitFor(limit time.Duration, what string, read func() string, ok func(pane string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		s := read()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the pane never showed %s:\n%s", what, s)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// wait waits until the pane shows want and returns the pane.
func (p *tmuxPane) wait(want string) string {
	p.t.Helper()
	return p.waitFor(20*time.Second, strconv.Quote(want), p.capture, func(s string) bool { return strings.Contains(s, want) })
}

// waitCount waits until want occurs n times in the pane's history and
// returns the history.
func (p *tmuxPane) waitCount(want string, n int) string {
	p.t.Helper()
	return p.waitFor(20*time.Second, fmt.Sprintf("%q %d times", want, n), p.history, func(s string) bool { return strings.Count(s, want) >= n })
}

// running reports whether the program in the pane has not ended.
func (p *tmuxPane) running() bool {
	p.t.Helper()
	return strings.TrimSpace(p.tmux("list-panes", "-t", "v", "-F", "#{pane_dead}")) == "0"
}

// exited waits for the program to end and returns what it wrote on
// stderr, with its exit status as a last line "exit N".
func (p *tmuxPane) exited() string {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for p.running() {
		if time.Now().After(deadline) {
			p.t.Fatalf("markii did not end:\n%s", p.capture())
		}
		time.Sleep(30 * time.Millisecond)
	}
	out, _ := os.ReadFile(filepath.Join(p.dir, "stderr"))
	return strings.TrimSpace(string(out))
}
