package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsShowInvisibleCharacters: a file name carrying a right-to-left
// override and a zero-width space reaches standard error with both shown
// as visible escapes, never raw.
func TestErrorsShowInvisibleCharacters(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	name := filepath.Join(t.TempDir(), "notes\u202edm.kim\u200b.mk.md")
	_, stderr, code := runCLI(t, "render", name)
	if code == 0 || strings.ContainsAny(stderr, "\u202e\u200b") || !strings.Contains(stderr, "notes⟨U+202E⟩dm.kim⟨U+200B⟩.mk.md") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
