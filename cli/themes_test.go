package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThemeFiles renders with a theme file from the config's themes
// folder, lists it, and refuses a broken one and a missing one with one
// line each.
func TestThemeFiles(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", t.TempDir())
	themes := filepath.Join(cfg, "markii", "themes")
	mustNil(t, os.MkdirAll(themes, 0o700))
	mustNil(t, os.WriteFile(filepath.Join(themes, "sunset.json"), []byte(`{"base": "dark", "colors": {"heading": "#ff8800"}}`), 0o600))
	mustNil(t, os.WriteFile(filepath.Join(themes, "broken.json"), []byte(`{"colors": {"acent": "#ff8800"}}`), 0o600))
	mustNil(t, os.WriteFile(filepath.Join(themes, "dark.json"), []byte(`{}`), 0o600))
	note := filepath.Join(t.TempDir(), "n.mk.md")
	mustNil(t, os.WriteFile(note, []byte("# Heading\n"), 0o600))

	out, stderr, code := runCLI(t, "render", note, "--color", "truecolor", "--theme", "sunset")
	if code != ExitOK || !strings.Contains(out, "\x1b[1;38;2;255;136;0m") && !strings.Contains(out, "38;2;255;136;0") {
		t.Errorf("sunset heading: exit %d, %q, stderr %q", code, out, stderr)
	}
	out, _, _ = runCLI(t, "render", note, "--color", "truecolor", "--theme", "high-contrast")
	if !strings.Contains(out, "38;2;255;255;95") {
		t.Errorf("high-contrast heading is not yellow: %q", out)
	}

	// A broken theme file is exit 1, as a broken settings file is; a
	// theme that does not exist is a usage error.
	for _, tc := range []struct {
		name, want string
		code       int
	}{
		{"broken", `theme file ` + filepath.Join(themes, "broken.json") + `: color "acent" is not a theme color`, ExitFailure},
		{"nosuch", "unknown theme \"nosuch\": it is not built in (dark, light, high-contrast) and there is no " + filepath.Join(themes, "nosuch.json"), ExitUsage},
		{"../../etc/passwd", `unknown theme "../../etc/passwd"`, ExitUsage},
	} {
		_, stderr, code := runCLI(t, "render", note, "--theme", tc.name)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--theme %s: exit %d, stderr %q, want one line with %q", tc.name, code, stderr, tc.want)
		}
	}

	out, _, code = runCLI(t, "--list-themes")
	want := "dark             built-in\nlight            built-in\nhigh-contrast    built-in\n" +
		"broken           " + filepath.Join(themes, "broken.json") + " (not usable: color \"acent\" is not a theme color (known: accent, code, code-bg, comment, danger, faint, function, heading, identifier, info, keyword, limit, muted, number, operator, string, success, text, type, warning))\n" +
		"sunset           " + filepath.Join(themes, "sunset.json") + "\n"
	if code != ExitOK || out != want {
		t.Errorf("--list-themes: exit %d\n%s\nwant\n%s", code, out, want)
	}
}
