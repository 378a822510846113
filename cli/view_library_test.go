package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
	s := viewInTmux(t, dir, notes)
	p := s.wait("3 notes")
	for _, want := range []string{"Alpha report  alpha.mk.md  · unsigned", "Beta plans  sub/beta.mk.md  · unsigned", "Evil  evil[2Jname.mk.md  · unsigned"} {
		if !strings.Contains(p, want) {
			t.Fatalf("the list lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "Vendored") {
		t.Fatalf("the list shows a vendored note:\n%s", p)
	}
	s.keys("/")
	s.text("bet")
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
	if got, want := out.String(), "a]0;x.mk.md\tA [1mtitle\tunsigned\n"; got != want {
		t.Fatalf("listing %q, want %q", got, want)
	}
}

func TestViewPipedNoteReadsKeysFromTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := inTmux(t, dir, 100, 20, `printf '# hi\n\nfrom a pipe\n' | "$MARKII" view -`)
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
	s := inTmux(t, dir, 100, 20, `printf '# hi\n' | setsid -w "$MARKII" view -`)
	got := s.exited()
	want := "markii: cannot read keys for the viewer: there is no terminal to read them from (/dev/tty: no such device or address); markii render - writes a piped note without one\nexit 1"
	if got != want {
		t.Fatalf("stderr and exit:\n%q\nwant\n%q", got, want)
	}
}
