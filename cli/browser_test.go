package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The opener gets the URL as one argument, and nothing but a clean http or
// https URL is ever handed to it.
func TestOpenBrowserOnlyCleanWebLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "args")
	old := browserCommand
	t.Cleanup(func() { browserCommand = old })
	browserCommand = func(url string) *exec.Cmd {
		return exec.Command("sh", "-c", `printf '%s\n' "$@" >> "$0"`, log, url)
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "https://a.example/x y", "https://a.example/\x1b]52", "mailto:a@b"} {
		if err := openBrowser(bad); err == nil {
			t.Errorf("openBrowser(%q) was allowed", bad)
		}
	}
	if err := openBrowser("https://example.com/a?b=1;rm"); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for i := 0; i < 100; i++ {
		if got, _ = os.ReadFile(log); len(got) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if strings.TrimSpace(string(got)) != "https://example.com/a?b=1;rm" {
		t.Fatalf("the opener received %q", got)
	}
}
