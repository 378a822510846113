package viewer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/internal/needs"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// renderedText is render's text of src at width w, one string a line, as
// a terminal that counts cells by code point is to show it (ansi.CellSafe:
// the same cells, a ZWJ sequence as its first emoji). It is laid out as
// the viewer lays a page out, a table or code block wider than the screen
// at its own width (scrollWidth) and cut to the screen, as the viewer
// shows it before it is scrolled sideways.
// safe is ansi.CellSafe, or ansi.CellSafeJoined for a tmux that joins ZWJ
// sequences.
func renderedText(src []byte, w int, safe func(string) string) []string {
	out := render.RenderWith(src, render.Options{Width: w, Level: ansi.TrueColor, Theme: theme.Dark, Now: time.Now(), ScrollWidth: scrollWidth})
	lines := strings.Split(xansi.Strip(string(out)), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(safe(xansi.Truncate(l, w, "")), " ")
	}
	return lines
}

// tmuxCellBytes is the most bytes of text a tmux cell holds (UTF8_SIZE in
// tmux 3.3).
const tmuxCellBytes = 21

// tmuxCells is s as tmux stores it: each cluster cut to tmuxCellBytes,
// between code points.
func tmuxCells(s string) string {
	var b strings.Builder
	for rest := s; rest != ""; {
		cluster, _ := xansi.FirstGraphemeCluster(rest, xansi.GraphemeWidth)
		if cluster == "" {
			break
		}
		rest = rest[len(cluster):]
		for len(cluster) > tmuxCellBytes {
			_, n := utf8.DecodeLastRuneInString(cluster)
			cluster = cluster[:len(cluster)-n]
		}
		b.WriteString(cluster)
	}
	return b.String()
}

// tmuxJoinsZWJ reports whether the tmux the tests run joins ZWJ sequences
// into one cell (3.3 and later), as the viewer learns from its version.
func tmuxJoinsZWJ(t *testing.T) bool {
	out, err := exec.Command("tmux", "-V").Output()
	if err != nil {
		t.Fatalf("tmux -V: %v", err)
	}
	return joinsZWJ(strings.TrimSpace(string(out)))
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
// layout gave it, nothing cut or shifted. In a tmux that joins ZWJ
// sequences (3.3 and later) they are on the screen whole; a skin tone
// loses its modifier, a keycap and an emoji-style ❤️ their variation
// selector (a space after them takes their second cell), and 👁️‍🗨️-like
// sequences of narrow code points keep their first; elsewhere a ZWJ
// sequence is its first emoji too.
func TestRealTerminalScreenMatchesRender(t *testing.T) {
	if testing.Short() {
		t.Skip("starts terminal sessions")
	}
	wide := []byte("# Wide graphemes\n\n" +
		"A family 👨‍👩‍👧‍👦 in a row, keycaps 1️⃣ 2️⃣ #️⃣ and ZWJ 👩‍💻 🧑‍🚀 sequences.\n\n" +
		"An eye 👁️‍🗨️, a rainbow flag 🏳️‍🌈 and a coder with a skin tone 👩🏽‍💻 in a row.\n\n" +
		"Flags 🇺🇸 🇯🇵 🇩🇪, skin tones 👍🏽 👋🏿 and hearts ❤️ ❤ side by side with 日本語 and café.\n\n" +
		"| emoji | name |\n|---|---|\n| 👩‍💻 | technologist |\n| 1️⃣ | keycap one |\n| 🇺🇸 | flag |\n\n" +
		"- 👍🏽 a list item that wraps around the end of the line at sixty columns or so\n")
	const rows = 49
	needs.Tmux(t)
	safe, joined := ansi.CellSafe, tmuxJoinsZWJ(t)
	if joined {
		safe = ansi.CellSafeJoined
	}
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
				want := renderedText(c.src, w, safe)
				if joined {
					// tmux keeps at most tmuxCellBytes of a cell's text:
					// it drops the rest of a longer sequence itself.
					for i, l := range want {
						want[i] = tmuxCells(l)
					}
				}
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
				if pane := x.capture(); joined && c.name == "wide" {
					for _, zwj := range []string{"👩‍💻", "🧑‍🚀"} {
						if !strings.Contains(pane, zwj) {
							t.Fatalf("tmux %s joins ZWJ sequences, but %q is not whole on the screen:\n%s", x.run("-V"), zwj, pane)
						}
					}
				}
				x.keys("q")
			})
		}
	}
}
