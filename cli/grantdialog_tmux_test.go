package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/grants"
)

// TestGrantDialogInTmux opens the weather note's pattern (its host a local
// server) in markii view at 120×40, 80×24 and 20×5 and presses r. Where
// the question fits, the dialog's rows are the question's words, whole and
// in order after the signature line, the host is on screen in full and the status bar says a
// question waits; y grants it and the request goes out. At 20×5 the dialog
// says the terminal is too small, y is refused (no request), and after a
// resize to 80×24 the question shows and y is heard.
func TestGrantDialogInTmux(t *testing.T) {
	srv, hits := countingServer(t)
	src := "# Weather\n\nNow: :value[temp].\n\n```lua {name=temp}\nlocal params = {\"latitude=52.5\", \"current=temperature_2m\"}\n" +
		"local url = \"" + srv.URL + "/v1/forecast?\" .. table.concat(params, \"&\")\nreturn net.fetch_json(url).v\n```\n"
	// The dialog opens with the note's signature status (this note is
	// unsigned), then the question.
	words := []string{"Unsigned."}
	for _, l := range grants.QuestionLines(grants.Question([]string{"127.0.0.1"}, true, false)) {
		words = append(words, strings.Fields(l)...)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}, {20, 5}} {
		dir := t.TempDir()
		note := filepath.Join(dir, "weather.mk.md")
		if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		before := hits.Load()
		p := inTmux(t, dir, size[0], size[1], `exec "$MARKII" view `+shellQuote(note))
		p.wait("Now: {temp}")
		p.keys("r")
		if size[0] < 80 {
			p.wait("Too small for the")
			time.Sleep(300 * time.Millisecond)
			p.keys("y")
			time.Sleep(300 * time.Millisecond)
			if hits.Load() != before || !strings.Contains(p.capture(), "Too small") {
				t.Fatalf("%v: y was taken for a question not on screen:\n%s", size, p.capture())
			}
			p.resize(80, 24)
		}
		screen := p.wait("Allow?")
		if !strings.Contains(screen, "waiting for your answer: 1 question") || !strings.Contains(screen, "y allow    n or esc deny") {
			t.Fatalf("%v:\n%s", size, screen)
		}
		var got []string
		for _, row := range strings.Split(screen, "\n") {
			i, j := strings.Index(row, "│ "), strings.LastIndex(row, " │")
			if i < 0 || j <= i {
				continue
			}
			if inner := strings.TrimSpace(row[i+len("│ ") : j]); inner != "y allow    n or esc deny" {
				got = append(got, strings.Fields(inner)...)
			}
		}
		if strings.Join(got, " ") != strings.Join(words, " ") {
			t.Fatalf("%v: the dialog's words are not the question's, whole and in order:\n%s", size, screen)
		}
		time.Sleep(200 * time.Millisecond)
		p.keys("y")
		p.wait("Now: 7.")
		if hits.Load() != before+1 {
			t.Fatalf("%v: %d requests after y", size, hits.Load()-before)
		}
		p.keys("q")
		if got := p.exited(); got != "exit 0" {
			t.Fatalf("%v: after q: %q", size, got)
		}
	}
}
