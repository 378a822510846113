package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestViewWithSettingsChild is the process tmux starts for
// TestViewKeepsTheSettingsWidthCapAtEveryResize: markii view with the
// config directory MARKII_VIEW_CHILD_CONFIG names (the test binary's own
// environment points it at an empty one).
func TestViewWithSettingsChild(t *testing.T) {
	path, config := os.Getenv("MARKII_VIEW_CHILD"), os.Getenv("MARKII_VIEW_CHILD_CONFIG")
	if path == "" || config == "" {
		t.Skip("runs only as the child of TestViewKeepsTheSettingsWidthCapAtEveryResize")
	}
	getenv := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return config
		}
		return os.Getenv(k)
	}
	code := Main([]string{"view", path}, Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: getenv})
	os.Exit(code)
}

// TestViewKeepsTheSettingsWidthCapAtEveryResize runs markii view with a
// maxWidth setting of 40 in a tmux pane that is then widened to 200
// columns: the note stays laid out at 40, the status bar takes the pane.
func TestViewKeepsTheSettingsWidthCapAtEveryResize(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(config, "markii"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(config, "markii", "config.json"), []byte(`{"maxWidth": 40}`), 0o600); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(dir, "wide.mk.md")
	src := "# Wide\n\n" + strings.Repeat("Every word of this paragraph wraps at the cap. ", 12) + "\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := tmuxServer(t, filepath.Join(dir, "sock"))
	cmd := fmt.Sprintf("exec env TERM=xterm-256color HOME=%q MARKII_VIEW_CHILD_CONFIG=%q MARKII_VIEW_CHILD=%q %q -test.run='^TestViewWithSettingsChild$' 2>%q",
		dir, config, note, self, filepath.Join(dir, "stderr"))
	tm("new-session", "-d", "-s", "v", "-x", "80", "-y", "20", "sh", "-c", cmd)
	tm("set-option", "-t", "v", "remain-on-exit", "on")
	// widest is the widest paragraph row and the status bar's length once
	// the pane shows the note at a width.
	widest := func(want string) (int, int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			p := tm("capture-pane", "-p", "-t", "v")
			rows := strings.Split(strings.TrimRight(p, "\n"), "\n")
			bar := utf8.RuneCountInString(strings.TrimRight(rows[len(rows)-1], " "))
			if strings.Contains(p, "wide.mk.md") && strings.Contains(p, want) {
				w := 0
				for _, r := range rows[:len(rows)-1] {
					if strings.Contains(r, "wraps") {
						w = max(w, utf8.RuneCountInString(strings.TrimRight(r, " ")))
					}
				}
				if w > 0 && bar > 0 {
					return w, bar
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("pane never showed the note with %q:\n%s", want, p)
			}
			time.Sleep(30 * time.Millisecond)
		}
	}
	if w, _ := widest("wraps"); w > 40 || w < 30 {
		stderr, _ := os.ReadFile(filepath.Join(dir, "stderr"))
		t.Fatalf("at 80 columns with maxWidth 40 the paragraph is %d columns wide:\n%s\n%s", w, tm("capture-pane", "-p", "-t", "v"), stderr)
	}
	tm("resize-window", "-t", "v", "-x", "200", "-y", "20")
	deadline := time.Now().Add(15 * time.Second)
	for {
		w, bar := widest("wraps")
		if bar > 150 {
			if w > 40 || w < 30 {
				t.Fatalf("after a resize to 200 columns with maxWidth 40 the paragraph is %d columns wide", w)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the status bar never took the 200-column pane (%d columns)", bar)
		}
		time.Sleep(30 * time.Millisecond)
	}
	tm("send-keys", "-t", "v", "q")
}
