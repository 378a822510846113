package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// renderCLI runs markii render with stdin fed from a file holding in.
func renderCLI(t *testing.T, in string, args ...string) (string, string, int) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(in); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errb bytes.Buffer
	code := Main(append([]string{"render"}, args...), Stdio{In: f, Out: &out, Err: &errb})
	return out.String(), errb.String(), code
}

func TestRenderFileAndStdin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "note.mk.md")
	note := "# Title\n\nSome words that wrap at a narrow width.\n"
	if err := os.WriteFile(path, []byte(note), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "# Title\n━━━━━━━\n\nSome words that\nwrap at a narrow\nwidth.\n"
	out, errOut, code := renderCLI(t, "", "--width", "16", path)
	if code != ExitOK || out != want || errOut != "" {
		t.Fatalf("file: code %d out %q err %q", code, out, errOut)
	}
	out, _, code = renderCLI(t, note, "--width=16", "-")
	if code != ExitOK || out != want {
		t.Fatalf("stdin '-': code %d out %q", code, out)
	}
	// With no FILE and stdin not a terminal, stdin is read.
	out, _, code = renderCLI(t, note, "--width", "16")
	if code != ExitOK || out != want {
		t.Fatalf("stdin: code %d out %q", code, out)
	}
	// Output not a terminal and no --width: 80 columns.
	long := strings.Repeat("word ", 40)
	out, _, _ = renderCLI(t, long)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, ln := range lines[:len(lines)-1] {
		if ansi.Width(ln) > 80 || ansi.Width(ln) < 75 {
			t.Fatalf("default width line %q", ln)
		}
	}
}

func TestRenderColorAndTheme(t *testing.T) {
	t.Parallel()
	note := "# Title\n\n[link](https://example.com) `code`\n"
	for _, level := range []string{"16", "256", "truecolor"} {
		out, _, code := renderCLI(t, note, "--color", level, "--theme", "light", "-")
		if code != ExitOK || !strings.Contains(out, "\x1b[") || !strings.Contains(out, "\x1b]8;;https://example.com\x07") {
			t.Fatalf("--color %s: code %d out %q", level, code, out)
		}
		if err := ansi.Validate([]byte(out)); err != nil {
			t.Fatalf("--color %s: %v", level, err)
		}
	}
	out, _, _ := renderCLI(t, note, "--color", "never", "-")
	if strings.ContainsRune(out, 0x1b) {
		t.Fatalf("--color never wrote an escape: %q", out)
	}
	dark, _, _ := renderCLI(t, note, "--color", "truecolor", "--theme", "dark", "-")
	light, _, _ := renderCLI(t, note, "--color", "truecolor", "--theme", "light", "-")
	if dark == light {
		t.Fatal("dark and light themes drew the same bytes")
	}
	// Not on a terminal, the default theme (auto) is dark.
	for _, args := range [][]string{{"--color", "truecolor", "-"}, {"--color", "truecolor", "--theme", "auto", "-"}} {
		if got, _, _ := renderCLI(t, note, args...); got != dark {
			t.Fatalf("%v: not the dark theme's bytes off a terminal", args)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{filepath.Join(t.TempDir(), "missing.mk.md")}, ExitFailure, "markii: cannot read "},
		{[]string{"--width", "0", "-"}, ExitUsage, "markii: --width wants a positive whole number"},
		{[]string{"--width", "abc", "-"}, ExitUsage, "markii: --width wants a positive whole number"},
		{[]string{"--color", "rainbow", "-"}, ExitUsage, "markii: --color must be one of"},
		{[]string{"--theme", "sepia", "-"}, ExitUsage, "markii: unknown theme \"sepia\": it is not built in (dark, light, high-contrast)"},
		{[]string{"--now", "yesterday", "-"}, ExitUsage, "markii: --now wants an RFC 3339 time"},
		{[]string{"--bogus", "-"}, ExitUsage, "markii: unknown flag --bogus"},
	} {
		out, errOut, code := renderCLI(t, "x\n", tc.args...)
		if code != tc.code || !strings.HasPrefix(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 || out != "" {
			t.Errorf("%v: code %d, stderr %q, stdout %q; want code %d and %q", tc.args, code, errOut, out, tc.code, tc.msg)
		}
	}
}

func TestRenderDiagnosticsAndQuiet(t *testing.T) {
	t.Parallel()
	// A figure whose source is refused reports it on the diagnostics.
	note := ":::figure{src=\"javascript:alert(1)\"}\ncaption\n:::\n"
	out, errOut, code := renderCLI(t, note, "-")
	if code != ExitOK || !strings.Contains(out, "caption") {
		t.Fatalf("code %d out %q", code, out)
	}
	if errOut != "markii: figure: image source was refused as unsafe and was not shown\n" {
		t.Fatalf("diagnostics %q", errOut)
	}
	_, quiet, _ := renderCLI(t, note, "--quiet", "-")
	if quiet != "" {
		t.Fatalf("--quiet printed %q", quiet)
	}
}

func TestRenderHelp(t *testing.T) {
	t.Parallel()
	out, _, code := renderCLI(t, "", "--help")
	for _, flag := range []string{"--width", "--color", "--theme", "--values", "--now", "--quiet"} {
		if !strings.Contains(out, flag) {
			t.Errorf("help lacks %s:\n%s", flag, out)
		}
	}
	if code != ExitOK {
		t.Fatalf("code %d", code)
	}
}
