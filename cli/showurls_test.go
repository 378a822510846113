package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowURLs: render --show-urls, or the showUrls setting, prints each
// link's address after its text in color too, as --color never does.
func TestShowURLs(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	note := filepath.Join(t.TempDir(), "links.mk.md")
	if err := os.WriteFile(note, []byte("Read [the docs](https://docs.example/guide) now.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	render := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Main(append([]string{"render", "--color", "truecolor", "--theme", "dark"}, append(args, note)...), e.stdio(&out, &errOut)); code != 0 {
			t.Fatalf("render %v: exit %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	const shown = "(https://docs.example/guide)"
	if got := render(); strings.Contains(got, shown) {
		t.Fatalf("without --show-urls the address is printed: %q", got)
	}
	got := render("--show-urls")
	if !strings.Contains(got, shown) || !strings.Contains(got, "\x1b]8;;https://docs.example/guide") {
		t.Fatalf("--show-urls: %q, want the address printed and the hyperlink kept", got)
	}
	e.writeSettings(t, map[string]any{"showUrls": true})
	if got := render(); !strings.Contains(got, shown) {
		t.Fatalf("the showUrls setting: %q", got)
	}
}
