package goldens

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/markii/markii/internal/needs"
)

// TestDefaultWidthOnATerminal runs `markii render` on a real terminal
// (tmux) 200 columns wide and measures the thematic break, which spans the
// layout width: the terminal's width capped at 120, or at the settings'
// maxWidth; --width wins over both; a narrower terminal is not widened.
func TestDefaultWidthOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts terminal sessions")
	}
	needs.Tmux(t)
	bin := markiiBinary(t)
	dir := t.TempDir()
	note := filepath.Join(dir, "rule.mk.md")
	if err := os.WriteFile(note, []byte("before\n\n---\n\nafter\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		settings string // "" for no settings file
		cols     int
		args     []string
		want     int
	}{
		{"capped at 120", "", 200, nil, 120},
		{"a setting lowers the cap", `{"maxWidth": 64}`, 200, nil, 64},
		{"a setting raises the cap", `{"maxWidth": 180}`, 200, nil, 180},
		{"maxWidth 0 is the default cap", `{"maxWidth": 0}`, 200, nil, 120},
		{"--width wins", `{"maxWidth": 64}`, 200, []string{"--width", "150"}, 150},
		{"a narrow terminal keeps its width", "", 90, nil, 90},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.settings != "" {
				if err := os.MkdirAll(filepath.Join(home, "markii"), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, "markii", "config.json"), []byte(c.settings), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got := ruleWidthOnTerminal(t, bin, home, c.cols, append(append([]string{"render", "--color", "never", "--theme", "dark"}, c.args...), note))
			if got != c.want {
				t.Errorf("the rule is %d columns on a %d-column terminal, want %d", got, c.cols, c.want)
			}
		})
	}
	// Not a terminal: 80, whatever the settings say.
	if err := os.MkdirAll(filepath.Join(dir, "markii"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "markii", "config.json"), []byte(`{"maxWidth": 40}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := runMarkiiFull(bin, []string{"render", "--color", "never", note}, append(baseEnv(), "XDG_CONFIG_HOME="+dir), nil)
	if code != 0 || !strings.Contains(string(out), "\n"+strings.Repeat("─", 80)+"\n") {
		t.Errorf("on a pipe: exit %d, %q", code, out)
	}
}

// ruleWidthOnTerminal runs markii with args in a tmux pane cols wide, with
// its settings in home, and returns the length of the longest run of ─ the
// pane shows once markii has exited.
func ruleWidthOnTerminal(t *testing.T, bin, home string, cols int, args []string) int {
	t.Helper()
	tmp := t.TempDir()
	sock := filepath.Join(tmp, "sock")
	// The pane must stay once markii exits, which can be before a
	// set-option after new-session runs: the option comes from the config.
	conf := filepath.Join(tmp, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set-option -g remain-on-exit on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := func(a ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock, "-f", conf}, a...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", a, err, out)
		}
		return string(out)
	}
	quoted := make([]string, 0, len(args)+4)
	quoted = append(quoted, "exec", "env", "TERM=xterm-256color", "XDG_CONFIG_HOME="+shellQuote(home), shellQuote(bin))
	for _, a := range args {
		quoted = append(quoted, shellQuote(a))
	}
	tm("new-session", "-d", "-s", "w", "-x", strconv.Itoa(cols), "-y", "20", "sh", "-c", strings.Join(quoted, " "))
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(tm("list-panes", "-t", "w", "-F", "#{pane_dead}"), "1"); {
		if time.Now().After(deadline) {
			t.Fatalf("markii did not finish:\n%s", tm("capture-pane", "-p", "-t", "w"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	pane := tm("capture-pane", "-p", "-t", "w")
	best := 0
	for _, line := range strings.Split(pane, "\n") {
		if n := utf8.RuneCountInString(strings.TrimRight(line, " ")); strings.Trim(line, "─ ") == "" && n > best {
			best = n
		}
	}
	if best == 0 {
		t.Fatalf("no rule on the terminal:\n%s", pane)
	}
	return best
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
