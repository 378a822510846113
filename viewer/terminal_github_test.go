package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealTerminalGitHubReadme opens a README written for GitHub in a
// real terminal: an HTML details block opens with Enter and a word inside
// it is found with / while it is closed; a relative link to a .md file
// and a wikilink open their notes, and backspace returns.
func TestRealTerminalGitHubReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	for p, src := range map[string]string{
		readme: "<h1 align=\"center\">Project</h1>\n\n<details>\n<summary>Build steps</summary>\n\nOnly the okapi lives in here.\n\n</details>\n\n" +
			"Read [the guide](docs.md) or [[Usage notes|the usage notes]].\n",
		filepath.Join(dir, "docs.md"):        "# Docs page\n\nThe docs note.\n",
		filepath.Join(dir, "usage notes.md"): "# Usage\n\nThe usage note.\n",
	} {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x, _ := startTmux(t, readme)
	if p := x.waitPane("Build steps"); strings.Contains(p, "okapi") {
		t.Fatalf("the closed details block shows its body:\n%s", p)
	}
	// Enter on the focused details block opens it.
	for i := 0; i < 4 && !strings.Contains(x.capture(), "enter to open"); i++ {
		x.keys("Tab")
	}
	x.keys("Enter")
	x.waitPane("Only the okapi lives in here.")
	x.keys("Enter")
	x.waitGone("Only the okapi")
	// / finds the word inside the closed block and opens it.
	x.run("send-keys", "-t", "v", "-l", "/okapi\r")
	x.waitPane("1/1 matches")
	x.waitPane("Only the okapi lives in here.")
	x.keys("Escape")
	x.waitGone("matches")
	// The relative link, then the wikilink, each there and back.
	for _, want := range []string{"The docs note.", "The usage note."} {
		for i := 0; i < 6 && !strings.Contains(x.capture(), "enter opens "+map[string]string{"The docs note.": "docs.md", "The usage note.": "usage%20notes.md"}[want]); i++ {
			x.keys("Tab")
		}
		x.keys("Enter")
		x.waitPane(want)
		x.keys("BSpace")
		x.waitPane("Build steps")
	}
	x.keys("q")
}
