package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/render"
)

// run is Main in env with the given standard input, its output captured.
func (e *testEnv) main(in *os.File, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	stdio := e.stdio(&out, &errb)
	stdio.In = in
	code = Main(args, stdio)
	return out.String(), errb.String(), code
}

// TestHelpOfEveryCommandStartsWithItsUsageLine: markii help CMD, for
// every command including help and completion, starts with markii's
// usage line, never cobra's own text.
func TestHelpOfEveryCommandStartsWithItsUsageLine(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, cc := range newRoot(Stdio{}).Commands() {
		name := cc.Name()
		stdout, stderr, code := e.main(nil, "help", name)
		if code != ExitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: markii "+name) {
			t.Errorf("markii help %s: exit %d, stderr %q, stdout:\n%s", name, code, stderr, stdout)
		}
	}
}

// TestUnknownCommandSuggestsTheNearest: a slip of a letter names the
// command meant; a word like none names none.
func TestUnknownCommandSuggestsTheNearest(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for typed, want := range map[string]string{
		"rendr": `markii: unknown command "rendr"; did you mean markii render? (run markii --help)` + "\n",
		"veiw":  `markii: unknown command "veiw"; did you mean markii view? (run markii --help)` + "\n",
		"xyzzy": `markii: unknown command "xyzzy" (run markii --help)` + "\n",
	} {
		for _, args := range [][]string{{typed}, {"help", typed}} {
			if _, stderr, code := e.main(nil, args...); code != ExitUsage || stderr != want {
				t.Errorf("markii %s: exit %d, %q; want exit 3 and %q", strings.Join(args, " "), code, stderr, want)
			}
		}
	}
}

// TestMessagesSayWhatIsWrongOnce: packs without its subcommand, themes
// with an argument, a folder given to render.
func TestMessagesSayWhatIsWrongOnce(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if _, stderr, code := e.main(nil, "packs"); code != ExitUsage || stderr != "markii: packs needs a subcommand: list\nusage: markii packs list\n" {
		t.Errorf("markii packs: exit %d, %q", code, stderr)
	}
	if _, stderr, code := e.main(nil, "--list-themes", "extra"); code != ExitUsage || stderr != "markii: unexpected argument \"extra\": --list-themes takes no arguments\nusage: markii --list-themes\n" {
		t.Errorf("markii --list-themes extra: exit %d, %q", code, stderr)
	}
	dir := t.TempDir()
	want := "markii: " + dir + " is a folder without manifest.json, not a bundle; markii view " + dir + " lists the notes in it\n"
	if _, stderr, code := e.main(nil, "render", dir); code != ExitFailure || stderr != want {
		t.Errorf("markii render DIR: exit %d, %q; want %q", code, stderr, want)
	}
}

// TestRunWithoutScriptsSaysSo: markii run on a note with no scripts says
// so instead of printing nothing.
func TestRunWithoutScriptsSaysSo(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	stdout, stderr, code := e.main(nil, "run", writeNote(t, "# Plain\n\nNo code here.\n"))
	if code != ExitOK || stdout != "" || stderr != "markii: no scripts in this note\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestBrokenThemeFileExitsAsABrokenSettingsFile: both are a file of the
// user's that cannot be used: one line and exit 1, not a usage error.
func TestBrokenThemeFileExitsAsABrokenSettingsFile(t *testing.T) {
	t.Parallel()
	note := writeNote(t, "# Title\n")
	e := newTestEnv(t)
	themes := filepath.Join(e.getenv("XDG_CONFIG_HOME"), "markii", "themes")
	if err := os.MkdirAll(themes, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(themes, "broken.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, themeErr, themeCode := e.main(nil, "render", "--theme", "broken", note)
	s := newTestEnv(t)
	if err := os.MkdirAll(filepath.Join(s.getenv("XDG_CONFIG_HOME"), "markii"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.getenv("XDG_CONFIG_HOME"), "markii", "config.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, settingsErr, settingsCode := s.main(nil, "render", note)
	if themeCode != ExitFailure || settingsCode != ExitFailure || strings.Count(themeErr, "\n") != 1 || strings.Count(settingsErr, "\n") != 1 {
		t.Errorf("broken theme: exit %d %q; broken settings: exit %d %q; want both exit 1 with one line", themeCode, themeErr, settingsCode, settingsErr)
	}
}

// TestClosedStdoutIsAWriteError: markii render with standard output
// closed reports the write error and fails, as cat does, instead of
// writing into the null device the runtime puts there.
func TestClosedStdoutIsAWriteError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the markii binary")
	}
	bin := markiiBinary(t)
	note := writeNote(t, "# Title\n\nSome text.\n")
	cmd := exec.Command("sh", "-c", `"$0" render "$1" >&-`, bin, note)
	cmd.Env = []string{"HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != ExitFailure || stderr.String() != "markii: cannot write the output: bad file descriptor\n" {
		t.Errorf("render >&-: %v, stderr %q; want exit 1 and the write error", err, stderr.String())
	}
	cmd = exec.Command("sh", "-c", `"$0" render "$1" >/dev/null`, bin, note)
	cmd.Env = []string{"HOME=" + t.TempDir()}
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Errorf("render >/dev/null: %v %q", err, out)
	}
}

// TestHTMLTitleIsTheLibraryTitle: the HTML export's <title> is the
// title the library lists the note under: the frontmatter's title
// first, else the first heading.
func TestHTMLTitleIsTheLibraryTitle(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for src, want := range map[string]string{
		"---\ntitle: From the frontmatter\n---\n\n# A heading\n": "From the frontmatter",
		"Intro.\n\n> # Quoted heading\n":                         "Quoted heading",
	} {
		note := writeNote(t, src)
		out := filepath.Join(t.TempDir(), "page.html")
		if _, stderr, code := e.main(nil, "export", note, "--format", "html", "-o", out); code != ExitOK {
			t.Fatalf("export: exit %d, %s", code, stderr)
		}
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if lib := render.Title([]byte(src)); lib != want || !strings.Contains(string(page), "<title>"+want+"</title>") {
			t.Errorf("%q: library title %q, page %s; want %q in both", src, lib, page[:min(len(page), 300)], want)
		}
	}
}

// TestLatin1NoteIsNamedAsSuch: a note in Latin-1, not UTF-8, is named as
// Latin-1 with how to convert it, not called a binary file; a file
// full of C1 controls and bad bytes is still binary.
func TestLatin1NoteIsNamedAsSuch(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	latin1 := writeNote(t, "# Caf\xe9\n\nUn cr\xe8me br\xfbl\xe9e, s'il vous pla\xeet.\n")
	want := "markii: " + latin1 + " is not UTF-8 but reads as Latin-1 (ISO-8859-1) text; markii reads UTF-8: iconv -f latin1 -t utf-8 converts it\n"
	if _, stderr, code := e.main(nil, "render", latin1); code != ExitFailure || stderr != want {
		t.Errorf("Latin-1 note: exit %d, %q; want %q", code, stderr, want)
	}
	notText := writeNote(t, "# Title\n\n"+strings.Repeat("\x9b\xff\xfe text ", 40))
	if _, stderr, code := e.main(nil, "render", notText); code != ExitFailure || stderr != "markii: "+notText+" looks like a binary file\n" {
		t.Errorf("C1 bytes: exit %d, %q", code, stderr)
	}
}

// TestAFewBadBytesShowAsReplacementCharacters: a UTF-8 note with a few
// byte sequences that are not UTF-8 is read, each shown as U+FFFD, with
// one diagnostic, as bat and less do; only what is mostly not text is
// refused as binary.
func TestAFewBadBytesShowAsReplacementCharacters(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	note := writeNote(t, "# Caf\u00e9\n\nOne bad \xff byte and another \xc3( here.\n")
	stdout, stderr, code := e.main(nil, "render", "--color", "never", note)
	want := "markii: " + note + " has 2 byte sequence(s) that are not UTF-8; they show as U+FFFD\n"
	if code != ExitOK || stderr != want || !strings.Contains(stdout, "One bad \ufffd byte and another \ufffd( here.") || !strings.Contains(stdout, "Caf\u00e9") {
		t.Errorf("exit %d, stderr %q (want %q), stdout:\n%s", code, stderr, want, stdout)
	}
	mostly := writeNote(t, strings.Repeat("ok \xff\xfe\x9b ", 50))
	if _, stderr, code := e.main(nil, "render", mostly); code != ExitFailure || stderr != "markii: "+mostly+" looks like a binary file\n" {
		t.Errorf("mostly not text: exit %d, %q", code, stderr)
	}
}
