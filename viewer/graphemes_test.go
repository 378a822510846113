package viewer

import (
	"testing"

	tea "charm.land/bubbletea/v2"
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
