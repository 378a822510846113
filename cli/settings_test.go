package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withConfigFile writes text as the settings file of a fresh config
// directory and points the environment at it.
func withConfigFile(t *testing.T, text string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	dir := filepath.Join(home, "markii")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrokenSettingsFileEveryCommand: a settings file cut short is
// reported by every command in the same one line, with its line and
// column, and nothing else happens.
func TestBrokenSettingsFileEveryCommand(t *testing.T) {
	path := withConfigFile(t, "{\n  \"runOnOpen\": true,\n  \"scriptsDis")
	note := writeNote(t, "# Note\n")
	want := "markii: the settings file " + path + " is invalid: line 3, column 14: the file ends before the JSON object does; fix or remove it\n"
	out := filepath.Join(t.TempDir(), "out.txt")
	for _, args := range [][]string{
		{"render", note},
		{"view", note},
		{"view", "--static", note},
		{"export", note, "--format", "ansi", "-o", out},
		{"run", note},
		{"grants", "list"},
		{"grants", "reset", "--all"},
		{"packs", "list"},
	} {
		stdout, stderr, code := runCLI(t, args...)
		if code != ExitFailure || stderr != want || stdout != "" {
			t.Errorf("markii %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, stdout, stderr, want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("export wrote its output despite the broken settings")
	}
	// --help and --version need no settings.
	for _, args := range [][]string{{"--version"}, {"render", "--help"}} {
		if _, stderr, code := runCLI(t, args...); code != ExitOK || stderr != "" {
			t.Errorf("markii %s: exit %d, %q", strings.Join(args, " "), code, stderr)
		}
	}
}

func TestUnknownSettingIsAWarning(t *testing.T) {
	path := withConfigFile(t, `{"runOnOpen": false, "theme": "light", "futureThing": {"a": 1}}`)
	note := writeNote(t, "# Note\n")
	stdout, stderr, code := runCLI(t, "render", "--color", "never", note)
	want := "markii: the settings file " + path + ": \"futureThing\" is not a markii setting; it is ignored\n" +
		"markii: the settings file " + path + ": \"theme\" is not a markii setting; it is ignored\n"
	if code != ExitOK || stdout != "# Note\n━━━━━━\n" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want the note and %q", code, stdout, stderr, want)
	}
}

// TestNoConfigDirectoryIsNoSettings: without HOME there is no settings
// file to read, and render works with the defaults.
func TestNoConfigDirectoryIsNoSettings(t *testing.T) {
	note := writeNote(t, "# Note\n")
	t.Setenv("HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	if stdout, stderr, code := runCLI(t, "render", "--color", "never", note); code != ExitOK || stdout != "# Note\n━━━━━━\n" || stderr != "" {
		t.Errorf("exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestScriptsDisabledExitCode: `run` asked to run scripts the settings
// turn off exits 1, as the README's exit-code list says.
func TestScriptsDisabledExitCode(t *testing.T) {
	withConfigFile(t, `{"scriptsDisabled": true}`)
	note := writeNote(t, "# Note\n\n```lua {name=s}\nreturn 1\n```\n")
	_, stderr, code := runCLI(t, "run", note)
	if code != ExitFailure || !strings.Contains(stderr, "(scriptsDisabled)") {
		t.Errorf("exit %d, %q; want exit 1 naming scriptsDisabled", code, stderr)
	}
}
