package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// terminalSession is the real markii binary on a tmux terminal of 100×20.
type terminalSession struct {
	t   *testing.T
	tm  func(args ...string) string
	dir string
}

// startInTerminal runs script (a shell command line, where $MARKII is the
// binary) in a private tmux server, with a fresh home below dir.
func startInTerminal(t *testing.T, dir, script string) *terminalSession {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	bin := markiiBinary(t)
	tm := tmuxServer(t, filepath.Join(dir, "sock"))
	quoted := "'" + strings.ReplaceAll(script, "'", `'\''`) + "'"
	cmd := fmt.Sprintf("env TERM=xterm-256color HOME=%q XDG_CONFIG_HOME=%q MARKII=%q sh -c %s 2>%q; echo \"exit $?\" >>%q",
		dir, filepath.Join(dir, "config"), bin, quoted, filepath.Join(dir, "stderr"), filepath.Join(dir, "stderr"))
	tm("new-session", "-d", "-s", "v", "-x", "100", "-y", "20", "sh", "-c", cmd)
	tm("set-option", "-t", "v", "remain-on-exit", "on")
	tm("set-option", "-s", "escape-time", "0")
	return &terminalSession{t: t, tm: tm, dir: dir}
}

// wait waits until the pane shows want and returns the pane.
func (s *terminalSession) wait(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		p := s.tm("capture-pane", "-p", "-t", "v")
		if strings.Contains(p, want) {
			return p
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("pane never showed %q:\n%s", want, p)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// keys sends tmux key names.
func (s *terminalSession) keys(k ...string) {
	s.tm(append([]string{"send-keys", "-t", "v"}, k...)...)
}

// exited waits for the program to end and returns what it wrote on
// stderr, with its exit status as a last line "exit N".
func (s *terminalSession) exited() string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(s.tm("list-panes", "-t", "v", "-F", "#{pane_dead}"), "1") {
		if time.Now().After(deadline) {
			s.t.Fatalf("markii did not end:\n%s", s.tm("capture-pane", "-p", "-t", "v"))
		}
		time.Sleep(30 * time.Millisecond)
	}
	out, _ := os.ReadFile(filepath.Join(s.dir, "stderr"))
	return strings.TrimSpace(string(out))
}

func TestViewFolderListsNotesInTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	for name, text := range map[string]string{
		"alpha.mk.md":               "---\ntitle: Alpha report\n---\nAlpha body.\n",
		"sub/beta.mk.md":            "# Beta plans\n\nThe beta note's body.\n",
		"node_modules/x/gone.mk.md": "# Vendored\n",
		"evil\x1b[2Jname.mk.md":     "# Evil\n",
	} {
		p := filepath.Join(notes, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startInTerminal(t, dir, fmt.Sprintf("exec \"$MARKII\" view %q", notes))
	p := s.wait("3 notes")
	for _, want := range []string{"Alpha report  alpha.mk.md", "Beta plans  sub/beta.mk.md", "Evil  evil[2Jname.mk.md"} {
		if !strings.Contains(p, want) {
			t.Fatalf("the list lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "Vendored") {
		t.Fatalf("the list shows a vendored note:\n%s", p)
	}
	s.keys("/")
	s.keys("-l", "bet")
	s.wait("1 of 3 notes")
	s.keys("Enter")
	s.wait("The beta note's body.")
	s.wait("beta.mk.md (backspace: the list)")
	s.keys("BSpace")
	p = s.wait("filter: bet")
	if strings.Contains(p, "The beta note's body.") {
		t.Fatalf("backspace left the note on screen:\n%s", p)
	}
	// Esc clears the filter (the whole list is back) and does not quit.
	s.keys("Escape")
	s.wait("Alpha report")
	s.keys("q")
	if got := s.exited(); got != "exit 0" {
		t.Fatalf("stderr and exit: %q", got)
	}
}

func TestViewFolderNotOnTerminalPrintsTheList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a\x1b]0;x\a.mk.md"), []byte("# A \x1b[1mtitle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newTestEnv(t)
	var out, errOut bytes.Buffer
	if code := Main([]string{"view", dir}, env.stdio(&out, &errOut)); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got, want := out.String(), "a]0;x.mk.md\tA [1mtitle\n"; got != want {
		t.Fatalf("listing %q, want %q", got, want)
	}
}

func TestViewPipedNoteReadsKeysFromTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startInTerminal(t, dir, `printf '# hi\n\nfrom a pipe\n' | "$MARKII" view -`)
	s.wait("from a pipe")
	s.wait("stdin")
	s.keys("q")
	if got := s.exited(); got != "exit 0" {
		t.Fatalf("stderr and exit: %q", got)
	}
}

func TestViewPipedNoteWithoutTerminalFails(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid is not installed")
	}
	dir := t.TempDir()
	// setsid leaves the process without a controlling terminal: stdout is
	// still the pane, but /dev/tty cannot be opened.
	s := startInTerminal(t, dir, `printf '# hi\n' | setsid -w "$MARKII" view -`)
	got := s.exited()
	want := "markii: cannot read keys for the viewer: there is no terminal to read them from (/dev/tty: no such device or address); markii render - writes a piped note without one\nexit 1"
	if got != want {
		t.Fatalf("stderr and exit:\n%q\nwant\n%q", got, want)
	}
}
