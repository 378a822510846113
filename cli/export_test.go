package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// runCLI runs markii with args and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, Stdio{Out: &out, Err: &errb})
	return out.String(), errb.String(), code
}

func TestExportANSI(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	note := filepath.Join(dir, "note.mk.md")
	src := "# Title\n\n:::card{title=\"Card\" text=odd}\nStars: :value[stars]{format=compact}\n:::\n\n:::figure{src=\"javascript:x\"}\ncap\n:::\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	vals := writeValues(t, `{"stars": 18234}`)

	out := filepath.Join(dir, "out.txt")
	stdout, stderr, code := runCLI(t, "export", note, "--format", "ansi", "-o", out, "--width", "40", "--values", vals, "--color", "never")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "" {
		t.Errorf("export wrote to stdout: %q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(data, 0x1b) >= 0 {
		t.Errorf("--color never export has escapes: %q", data)
	}
	text := string(data)
	for _, want := range []string{"Title\n", "┌─ Card ", "│ Stars: 18.2k"} {
		if !strings.Contains(text, want) {
			t.Errorf("export lacks %q:\n%s", want, text)
		}
	}
	// What markii says about the note is on stderr, never in the page.
	for _, bad := range []string{"ignored", "not shown"} {
		if strings.Contains(text, bad) {
			t.Errorf("export holds the diagnostic %q:\n%s", bad, text)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if ansi.Width(line) > 40 {
			t.Errorf("line wider than --width 40: %q", line)
		}
	}
	wantDiag := "markii: card: \"odd\" is not a valid text value (ignored)\nmarkii: figure: image source was refused as unsafe and was not shown\n"
	if stderr != wantDiag {
		t.Errorf("diagnostics %q, want %q", stderr, wantDiag)
	}

	// Terminal text carries its color by default: truecolor, to a file
	// as to stdout, whatever the environment says.
	t.Setenv("NO_COLOR", "1")
	for _, to := range []string{out, "-"} {
		stdout, stderr, code = runCLI(t, "export", note, "--format=ansi", "--output", to, "--quiet")
		if code != ExitOK || stderr != "" {
			t.Fatalf("default export to %s: exit %d, stderr %q", to, code, stderr)
		}
		data = []byte(stdout)
		if to != "-" {
			data, _ = os.ReadFile(out)
		}
		if !bytes.Contains(data, []byte("\x1b[1;38;2;")) {
			t.Errorf("default export to %s is not in truecolor: %q", to, data)
		}
	}
	_, _, code = runCLI(t, "export", note, "--format=ansi", "--output", out, "--color", "256", "--quiet")
	if data, _ = os.ReadFile(out); code != ExitOK || !bytes.Contains(data, []byte("38;5;")) || bytes.Contains(data, []byte("38;2;")) {
		t.Errorf("--color 256 export: exit %d, %q", code, data)
	}
	if err := ansi.Validate(data); err != nil {
		t.Errorf("truecolor export: %v", err)
	}
	if !bytes.Contains(data, []byte("{stars}")) {
		t.Errorf("without --values and nothing stored the value should be missing: %q", data)
	}

	stdout, _, code = runCLI(t, "export", note, "--format", "ansi", "-o", "-", "--color", "never")
	if code != ExitOK || !strings.HasPrefix(stdout, "# Title\n") {
		t.Errorf("-o - should write to stdout: exit %d, %q", code, stdout)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestExportErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	note := filepath.Join(dir, "n.mk.md")
	if err := os.WriteFile(note, []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"export", note, "-o", filepath.Join(dir, "x")}, ExitUsage, "--format"},
		{[]string{"export", note, "--format", "ansi"}, ExitUsage, "-o FILE"},
		{[]string{"export", note, "--format", "pdf", "-o", "x"}, ExitUsage, "--format must be one of ansi, html, md-plain"},
		{[]string{"export", "--format", "ansi", "-o", "x"}, ExitUsage, "needs a note"},
		{[]string{"export", filepath.Join(dir, "missing.mk.md"), "--format", "ansi", "-o", filepath.Join(dir, "x")}, ExitFailure, "cannot read"},
		{[]string{"export", note, "--format", "ansi", "-o", filepath.Join(dir, "no", "such", "dir", "x")}, ExitFailure, "could not export this note"},
		{[]string{"export", note, "--format", "ansi", "-o", filepath.Join(dir, "x"), "--values", filepath.Join(dir, "nope.json")}, ExitFailure, "values file"},
		{[]string{"export", note, "--format", "ansi", "-o", filepath.Join(dir, "x"), "--now", "yesterday"}, ExitUsage, "--now"},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "markii: ") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, stderr, c.code, c.msg)
		}
	}
}

func TestExportMDPlain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	note := filepath.Join(dir, "n.mk.md")
	src := "# Title\n\n:::card{title=\"Card\"}\nBody with :badge[new]{variant=info}.\n:::\n\n::divider\n\n```lua {name=s}\nreturn 1\n```\n\nEnd.\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "plain.md")
	_, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", out)
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Title\n\nCard\n\nBody with new.\n\nEnd.\n"; string(got) != want {
		t.Errorf("md-plain export:\n%q\nwant\n%q", got, want)
	}
}
