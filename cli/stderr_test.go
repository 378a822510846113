package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Whatever a message quotes, standard error carries no control
// character but tab and line feed: Main's stderr is inert, so a message
// that forgets sanitize.Line cannot reach the terminal with a sequence.
func TestStderrIsInert(t *testing.T) {
	var buf bytes.Buffer
	w := inertWriter{&buf}
	if n, err := w.Write([]byte("a\x1b]0;PWN\x07\tb\u009b2J\r\nc\x7f\n")); err != nil || n != 20 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got := buf.String(); got != "a]0;PWN\tb2J\nc\n" {
		t.Fatalf("inert text %q", got)
	}

	// Every command, given hostile names and values, says so inertly.
	dir := t.TempDir()
	bad := "\x1b]0;PWN\x07\x1b]52;c;cm0gLXJm\x07\u009b2J"
	note := filepath.Join(dir, "n.mk.md")
	if err := os.WriteFile(note, []byte("# N\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := newTestEnv(t)
	for _, args := range [][]string{
		{"render", filepath.Join(dir, bad+".mk.md")},
		{"render", "--theme", bad, note},
		{"render", "--width", bad, note},
		{"render", "--color", bad, note},
		{"view", filepath.Join(dir, bad)},
		{"run", filepath.Join(dir, bad+".mkz")},
		{"export", "--format", bad, note},
		{"export", "--format", "md-plain", "-o", filepath.Join(dir, bad, "x"), note},
		{"grants", bad},
		{bad},
	} {
		var out, errb bytes.Buffer
		if code := Main(args, env.stdio(&out, &errb)); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
		if !strings.Contains(errb.String(), "PWN") {
			t.Errorf("%q: stderr does not quote the hostile text: %q", args, errb.String())
		}
		mustBeInert(t, args, errb.String())
	}
}

// panicWriter panics with hostile text, as a defect deep in a command
// might.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("\x1b]0;PWN\x07 in a panic") }

// The last resort, the internal-error line quoting a panic's value, is
// inert too: no call site made it so, only standard error itself.
func TestInternalErrorIsInert(t *testing.T) {
	var errb bytes.Buffer
	args := []string{"--version"}
	if code := Main(args, Stdio{Out: panicWriter{}, Err: &errb}); code != exitInternal {
		t.Fatalf("exit %d, want %d", code, exitInternal)
	}
	if !strings.Contains(errb.String(), "internal error: ]0;PWN") {
		t.Fatalf("stderr %q", errb.String())
	}
	mustBeInert(t, args, errb.String())
}

func mustBeInert(t *testing.T, args []string, s string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Errorf("%q: stderr carries %U: %q", args, r, s)
			return
		}
	}
}
