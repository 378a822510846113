package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestViewKeepsTheSettingsWidthCapAtEveryResize runs markii view with a
// maxWidth setting of 40 in a tmux pane that is then widened to 200
// columns: the note stays laid out at 40, the status bar takes the pane.
func TestViewKeepsTheSettingsWidthCapAtEveryResize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	config := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(config, "markii"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(config, "markii", "config.json"), []byte(`{"maxWidth": 40}`), 0o600); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(dir, "wide.mk.md")
	src := "# Wide\n\n" + strings.Repeat("Every word of this paragraph wraps at the cap. ", 12) + "\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	p := inTmux(t, dir, 80, 20, `exec "$MARKII" view `+shellQuote(note))
	// widest is the widest paragraph row and the status bar's length once
	// the pane shows the note at a width.
	widest := func(want string) (int, int) {
		t.Helper()
		var w, bar int
		p.waitFor(15*time.Second, "the note with "+strconv.Quote(want), p.capture, func(pane string) bool {
			rows := strings.Split(strings.TrimRight(pane, "\n"), "\n")
			bar = utf8.RuneCountInString(strings.TrimRight(rows[len(rows)-1], " "))
			w = 0
			if strings.Contains(pane, "wide.mk.md") && strings.Contains(pane, want) {
				for _, r := range rows[:len(rows)-1] {
					if strings.Contains(r, "wraps") {
						w = max(w, utf8.RuneCountInString(strings.TrimRight(r, " ")))
					}
				}
			}
			return w > 0 && bar > 0
		})
		return w, bar
	}
	if w, _ := widest("wraps"); w > 40 || w < 30 {
		stderr, _ := os.ReadFile(filepath.Join(dir, "stderr"))
		t.Fatalf("at 80 columns with maxWidth 40 the paragraph is %d columns wide:\n%s\n%s", w, p.capture(), stderr)
	}
	p.resize(200, 20)
	deadline := time.Now().Add(15 * time.Second)
	for {
		w, bar := widest("wraps")
		if bar > 150 {
			if w > 40 || w < 30 {
				t.Fatalf("after a resize to 200 columns with maxWidth 40 the paragraph is %d columns wide", w)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the status bar never took the 200-column pane (%d columns)", bar)
		}
		time.Sleep(30 * time.Millisecond)
	}
	p.keys("q")
}
