package viewer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/render"
)

func TestJoinsZWJ(t *testing.T) {
	for name, want := range map[string]bool{
		"tmux 3.3a": true, "tmux 3.3": true, "tmux 3.4": true, "tmux 3.5a": true, "tmux next-3.6": true, "tmux 4.0": true,
		"tmux 3.2a": false, "tmux 2.9": false, "tmux": false, "tmux x.y": false, "XTerm(390)": false, "WezTerm 20240203": false, "": false,
	} {
		if got := joinsZWJ(name); got != want {
			t.Errorf("joinsZWJ(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestTmuxVersionDrawsZWJSequencesWhole: once the terminal says it is a
// tmux that joins ZWJ sequences, the renderer is told to count clusters
// and a ZWJ sequence is drawn whole; before, and in any other terminal,
// it is drawn as its first emoji.
func TestTmuxVersionDrawsZWJSequencesWhole(t *testing.T) {
	src := "Coders 👩‍💻 and astronauts 🧑‍🚀, thumbs 👍🏽.\n"
	m := newTest(t, src, 60, 10, nil)
	mustContain(t, m, "Coders 👩 and astronauts 🧑, thumbs 👍.")
	_, cmd := m.Update(tea.TerminalVersionMsg{Name: "XTerm(390)"})
	if cmd != nil || m.chrome.joined {
		t.Fatal("xterm was taken for a terminal that joins ZWJ sequences")
	}
	_, cmd = m.Update(tea.TerminalVersionMsg{Name: "tmux 3.3a"})
	if cmd == nil || cmd() != graphemeModeMsg {
		t.Fatal("tmux 3.3a did not switch the renderer to count clusters")
	}
	m.Update(cmd())
	if m.chrome.graphemes || !m.chrome.joined {
		t.Fatalf("after tmux's version: graphemes %v, joined %v", m.chrome.graphemes, m.chrome.joined)
	}
	mustContain(t, m, "Coders 👩‍💻 and astronauts 🧑‍🚀, thumbs 👍.")
}

// wideGraphemes is a note of every kind of wide grapheme.
const wideGraphemes = "# Wide graphemes\n\n" +
	"A family 👨‍👩‍👧‍👦 in a row, keycaps 1️⃣ 2️⃣ #️⃣ and ZWJ 👩‍💻 🧑‍🚀 sequences, an eye 👁️‍🗨️ and a flag 🏳️‍🌈.\n\n" +
	"Flags 🇺🇸 🇯🇵 🇩🇪, skin tones 👍🏽 👋🏿 👩🏽‍💻 and hearts ❤️ ❤ side by side with 日本語, café and क्षत्रिय.\n\n" +
	"| emoji | name |\n|---|---|\n| 👩‍💻 | technologist |\n| 1️⃣ | keycap one |\n| 🇺🇸 | flag |\n"

// TestEveryRowCountsAsTheLayout: in a terminal that counts cells code
// point by code point (xterm) and in one that joins ZWJ sequences (tmux
// 3.3 and later), every row of the screen takes, by that terminal's count
// and by the renderer's, exactly the cells render's line at that width
// takes, so nothing after a wide grapheme moves or is cut.
func TestEveryRowCountsAsTheLayout(t *testing.T) {
	for _, w := range []int{120, 60, 30} {
		for _, joined := range []bool{false, true} {
			for name, src := range map[string]string{"wide": wideGraphemes, "tour": string(fixtures.Tour)} {
				m := newTest(t, src, w, 60, nil)
				terminal, renderer := xansi.StringWidthWc, xansi.StringWidthWc
				if joined {
					m.Update(tea.TerminalVersionMsg{Name: "tmux 3.3a"})
					m.Update(graphemeModeMsg)
					terminal, renderer = ansi.JoinedWidth, xansi.StringWidth
				}
				want := strings.Split(xansi.Strip(string(render.RenderWith([]byte(src), m.reader.pageOptions(nil)))), "\n")
				got := rows(m)
				for i := 0; i < 59 && i < len(want); i++ {
					layout := ansi.Width(xansi.Truncate(want[i], w, ""))
					if tw, rw := terminal(got[i]), renderer(got[i]); tw != layout || rw != layout {
						t.Fatalf("%s at %d (joined %v), row %d: the terminal counts %d cells, the renderer %d, the layout %d:\n got %q\nwant %q", name, w, joined, i+1, tw, rw, layout, got[i], want[i])
					}
				}
			}
		}
	}
}
