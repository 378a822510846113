package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRealTerminalGitHubReadme opens a docs folder written for GitHub in
// a real terminal, as markii view DIR does: the list has README.md first,
// and in it an HTML details block opens with Enter and a word inside it
// is found with / while it is closed; a relative link to a .md file and
// a wikilink open their notes, and backspace returns; a table too wide
// for the pane scrolls sideways with → and ← while the prose stays put.
func TestRealTerminalGitHubReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	for p, src := range map[string]string{
		"README.md": "<h1 align=\"center\">Project</h1>\n\n<details>\n<summary>Build steps</summary>\n\nOnly the okapi lives in here.\n\n</details>\n\n" +
			"Read [the guide](docs.md) or [[Usage notes|the usage notes]].\n\n" +
			"## Releases\n\nThe table of releases stays a grid.\n\n" +
			"| Version | Codename | Released | Supported until | Architecture | Checksum |\n|---|---|---|---|---|---|\n" +
			"| v1.0.0 | Albatross | 2024-01-15 | 2025-01-15 | amd64-and-arm64 | sha256-aa11bb22 |\n" +
			"| v2.0.0 | Cormorant | 2025-02-20 | 2026-02-20 | riscv64-and-ppc64 | sha256-cc33dd44 |\n",
		"docs.md":        "# Docs page\n\nThe docs note.\n",
		"usage notes.md": "# Usage\n\nThe usage note.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x, _ := startTmux(t, dir)
	// The folder's list, README first; enter opens it.
	list := x.waitPane("3 notes")
	if i, j := strings.Index(list, "README.md"), strings.Index(list, "docs.md"); i < 0 || j < 0 || i > j {
		t.Fatalf("README.md is not listed first:\n%s", list)
	}
	x.keys("Enter")
	if p := x.waitPane("Build steps"); strings.Contains(p, "okapi") {
		t.Fatalf("the closed details block shows its body:\n%s", p)
	}
	// Enter on the focused details block opens it.
	x.tabUntil("enter to open", 4)
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
	// (The status bar may cut a long address: its start names the link.)
	for _, c := range []struct{ url, want string }{{"docs.md", "The docs note."}, {"usage%20no", "The usage note."}} {
		x.tabUntil("enter opens "+c.url, 6)
		x.keys("Enter")
		x.waitPane(c.want)
		x.keys("BSpace")
		x.waitPane("Build steps")
	}
	x.keys("Escape")
	// The table is wider than the 80-column pane: its grid runs off the
	// right edge, words whole, and → brings the far columns in.
	x.keys("G")
	p := x.waitPane("cols 1-80/")
	for _, w := range []string{"│ Version │", "Albatross", "The table of releases stays a grid."} {
		if !strings.Contains(p, w) {
			t.Fatalf("the unscrolled screen lacks %q:\n%s", w, p)
		}
	}
	if strings.Contains(p, "sha256-aa11bb22") {
		t.Fatalf("the table fits the pane; it cannot show scrolling:\n%s", p)
	}
	widest, _ := strconv.Atoi(regexp.MustCompile(`cols 1-80/(\d+)`).FindStringSubmatch(p)[1])
	x.keys("Right")
	// Half the screen, or to the table's right edge.
	off := min(40, widest-80)
	p = x.waitPane(fmt.Sprintf("cols %d-%d/%d", off+1, off+80, widest))
	for _, w := range []string{"sha256-aa11bb22", "riscv64-and-ppc64", "The table of releases stays a grid."} {
		if !strings.Contains(p, w) {
			t.Fatalf("after → the screen lacks %q:\n%s", w, p)
		}
	}
	if strings.Contains(p, "│ Version │") {
		t.Fatalf("→ did not move the table:\n%s", p)
	}
	x.keys("Left")
	x.waitPane("cols 1-80/")
	x.waitPane("│ Version │")
	x.keys("q")
}
