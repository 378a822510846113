package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoNotes writes a.mk.md and b.mk.md in dir and returns their paths.
func twoNotes(t *testing.T, dir string) (a, b string) {
	t.Helper()
	a, b = filepath.Join(dir, "a.mk.md"), filepath.Join(dir, "b.mk.md")
	for p, text := range map[string]string{a: "# Alpha\n\nThe alpha body.\n", b: "# Beta\n\nThe beta body.\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}

func TestViewSeveralFilesInTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := twoNotes(t, dir)
	s := viewInTmux(t, dir, a, b)
	s.wait("The alpha body.")
	s.wait("a.mk.md (file 1 of 2)")
	s.text(":n")
	s.wait("The beta body.")
	s.wait("b.mk.md (file 2 of 2)")
	s.text(":n")
	s.wait("no next file")
	s.text(":p")
	s.wait("a.mk.md (file 1 of 2)")
	s.keys("q")
	if got := s.exited(); got != "exit 0" {
		t.Fatalf("stderr and exit: %q", got)
	}
}

func TestViewSeveralFilesOnPipeRendersEach(t *testing.T) {
	t.Parallel()
	a, b := twoNotes(t, t.TempDir())
	env := newTestEnv(t)
	var out, errb, ra, rb bytes.Buffer
	if code := Main([]string{"view", a, b, "--color", "never"}, env.stdio(&out, &errb)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	Main([]string{"render", a, "--color", "never"}, env.stdio(&ra, &errb))
	Main([]string{"render", b, "--color", "never"}, env.stdio(&rb, &errb))
	if want := ra.String() + rb.String(); out.String() != want {
		t.Fatalf("view a b on a pipe:\n%q\nwant render a, then render b:\n%q", out.String(), want)
	}
	// Several notes and a folder (or -) do not mix.
	out.Reset()
	errb.Reset()
	if code := Main([]string{"view", a, filepath.Dir(a) + "/sub-missing-is-fine.mk.md", "-"}, env.stdio(&out, &errb)); code != 3 {
		t.Fatalf("view a b -: exit %d, want 3; stderr %q", code, errb.String())
	}
	if !strings.Contains(errb.String(), "markii view reads several notes, or one folder or -, not both: -") {
		t.Fatalf("stderr %q", errb.String())
	}
}
