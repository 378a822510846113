package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestViewChild is the process tmux starts for TestViewInTerminal: it runs
// `markii view` on the terminal tmux gives it, with scripts run in the
// isolate (this test binary serves as its worker).
func TestViewChild(t *testing.T) {
	path := os.Getenv("MARKII_VIEW_CHILD")
	if path == "" {
		t.Skip("runs only as the child of TestViewInTerminal")
	}
	code := Main([]string{"view", path}, Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	fmt.Fprintf(os.Stderr, "exit %d\n", code)
	os.Exit(code)
}

func TestViewInTerminal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "stats.mk.md")
	src := "# Stats\n\nStars: :value[stars].\n\n```lua {name=stars}\nreturn 6 * 7\n```\n\n```lua {name=bad}\nerror(\"boom\")\n```\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := tmuxServer(t, filepath.Join(dir, "sock"))
	cmd := fmt.Sprintf("exec env TERM=xterm-256color HOME=%q XDG_CONFIG_HOME=%q MARKII_VIEW_CHILD=%q %q -test.run='^TestViewChild$' 2>%q",
		dir, filepath.Join(dir, "config"), note, self, filepath.Join(dir, "stderr"))
	tm("new-session", "-d", "-s", "v", "-x", "80", "-y", "20", "sh", "-c", cmd)
	tm("set-option", "-t", "v", "remain-on-exit", "on")
	tm("set-option", "-s", "escape-time", "0")
	wait := func(want string) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			p := tm("capture-pane", "-p", "-t", "v")
			if strings.Contains(p, want) {
				return p
			}
			if time.Now().After(deadline) {
				t.Fatalf("pane never showed %q:\n%s", want, p)
			}
			time.Sleep(30 * time.Millisecond)
		}
	}
	wait("stats.mk.md")
	wait("r runs scripts")
	tm("send-keys", "-t", "v", "r")
	wait("Stars: 42.")
	wait("ran 2, 1 failed")
	tm("send-keys", "-t", "v", "q")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(tm("list-panes", "-t", "v", "-F", "#{pane_dead}"), "1") {
		if time.Now().After(deadline) {
			t.Fatal("q did not end markii view")
		}
		time.Sleep(30 * time.Millisecond)
	}
	stderr, _ := os.ReadFile(filepath.Join(dir, "stderr"))
	want := "markii: script \"bad\" failed (script-error)\nexit 2"
	if strings.TrimSpace(string(stderr)) != want {
		t.Fatalf("stderr after the viewer closed: %q, want %q", stderr, want)
	}
}

// tmuxServer returns a function that runs one tmux
// command against a private server on sock (no user config) and fails the
// test on error; the server is killed when the test ends.
func tmuxServer(t *testing.T, sock string) func(args ...string) string {
	t.Helper()
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	return func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
}
