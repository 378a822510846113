package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// renderedText is render's text of src at width w, one string a line, as
// a terminal that counts cells by code point is to show it (ansi.CellSafe:
// the same cells, a ZWJ sequence as its first emoji). It is laid out as
// the viewer lays a page out, a table or code block wider than the screen
// at its own width (scrollWidth) and cut to the screen, as the viewer
// shows it before it is scrolled sideways.
func renderedText(src []byte, w int) []string {
	out := render.RenderWith(src, render.Options{Width: w, Level: ansi.TrueColor, Theme: theme.Dark, Now: time.Now(), ScrollWidth: scrollWidth})
	lines := strings.Split(xansi.Strip(string(out)), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(ansi.CellSafe(xansi.Truncate(l, w, "")), " ")
	}
	return lines
}

// screenMismatch compares the body rows of a captured pane with want and
// describes the first row that differs ("" when none does).
func screenMismatch(pane string, want []string, rows int) string {
	got := strings.Split(pane, "\n")
	for i := 0; i < rows; i++ {
		g, w := "", ""
		if i < len(got) {
			g = strings.TrimRight(got[i], " ")
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("row %d:\n got %q\nwant %q", i+1, g, w)
		}
	}
	return ""
}

// TestRealTerminalScreenMatchesRender shows notes with wide graphemes in
// tmux (which has no grapheme mode) at 120 and 60 columns and holds the
// screen, row by row, to render's text: every cluster in the cells the
// layout gave it, nothing cut or shifted.
func TestRealTerminalScreenMatchesRender(t *testing.T) {
	if testing.Short() {
		t.Skip("starts terminal sessions")
	}
	wide := []byte("# Wide graphemes\n\n" +
		"A family 👨‍👩‍👧‍👦 in a row, keycaps 1️⃣ 2️⃣ #️⃣ and ZWJ 👩‍💻 🧑‍🚀 sequences.\n\n" +
		"Flags 🇺🇸 🇯🇵 🇩🇪, skin tones 👍🏽 👋🏿 and hearts ❤️ ❤ side by side with 日本語 and café.\n\n" +
		"| emoji | name |\n|---|---|\n| 👩‍💻 | technologist |\n| 1️⃣ | keycap one |\n| 🇺🇸 | flag |\n\n" +
		"- 👍🏽 a list item that wraps around the end of the line at sixty columns or so\n")
	const rows = 49
	for _, c := range []struct {
		name string
		src  []byte
	}{{"tour", fixtures.Tour}, {"wide", wide}} {
		for _, w := range []int{120, 60} {
			t.Run(fmt.Sprintf("%s at %d", c.name, w), func(t *testing.T) {
				dir := t.TempDir()
				note := filepath.Join(dir, c.name+".mk.md")
				if err := os.WriteFile(note, c.src, 0o644); err != nil {
					t.Fatal(err)
				}
				x, _ := startTmux(t, note)
				x.waitPane(c.name + ".mk.md")
				x.run("resize-window", "-t", "v", "-x", fmt.Sprint(w), "-y", fmt.Sprint(rows+1))
				want := renderedText(c.src, w)
				deadline := time.Now().Add(10 * time.Second)
				for {
					pane := x.capture()
					diff := screenMismatch(pane, want, rows)
					if diff == "" {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("the screen differs from render's text at %d columns, %s\nscreen:\n%s", w, diff, pane)
					}
					time.Sleep(50 * time.Millisecond)
				}
				x.keys("q")
			})
		}
	}
}
