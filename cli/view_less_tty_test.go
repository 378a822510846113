package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/internal/procmem"
)

// TestViewKeysSearchAndEscapeInTerminal uses markii view in tmux as a
// less user does: two j in one write move the line counter by two, a
// search for a word that is only inside a closed details block lands on
// it with the block open, and Esc twice after the search leaves the
// viewer running; q ends it.
func TestViewKeysSearchAndEscapeInTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# Keys\n\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "Paragraph %d of the note.\n\n", i)
	}
	b.WriteString(":::details{title=\"Closed\"}\nOnly the zebra lives in here.\n:::\n\nThe end.\n")
	note := filepath.Join(dir, "keys.mk.md")
	if err := os.WriteFile(note, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	p := viewInTmux(t, dir, note)
	if pane := p.wait("line 1/"); strings.Contains(pane, "zebra") {
		t.Fatalf("the closed block's text is on screen before the search:\n%s", pane)
	}
	p.text("jj")
	p.wait("line 3/")
	p.text("jj")
	p.wait("line 5/")

	p.text("/zebra\r")
	p.wait("1/1 matches")
	if pane := p.wait("Only the zebra lives in here."); !strings.Contains(pane, "▾ Closed") {
		t.Fatalf("the search did not open the details block:\n%s", pane)
	}
	// A lone ESC is a key once no byte follows it within the terminal
	// reader's escape timeout, so each is sent on its own.
	for range 2 {
		p.keys("Escape")
		time.Sleep(150 * time.Millisecond)
	}
	p.waitFor(20*time.Second, "the search closed", p.capture, func(s string) bool { return !strings.Contains(s, "matches") })
	p.keys("=")
	p.wait("keys.mk.md · lines")
	if !p.running() {
		t.Fatal("Esc twice after a search ended the viewer")
	}
	p.keys("q")
	if got := p.exited(); got != "exit 0" {
		t.Fatalf("stderr and exit after q: %q", got)
	}
}

// TestViewLongNoteInTerminal opens a 10 MB note in markii view in tmux
// and presses G while it is still loading: once the whole note is there
// the viewer is at its end, 100%. It then reads the viewer's peak
// resident memory (VmHWM): at most 10× the note.
func TestViewLongNoteInTerminal(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to read the peak memory from")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "big.mk.md")
	src := longProse(10<<20) + "\nThe very last words of the note.\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "pid")
	p := inTmux(t, dir, 120, 40, "echo $$ >"+shellQuote(pidFile)+`; exec "$MARKII" view `+shellQuote(note))
	first := p.wait("big.mk.md")
	p.keys("G")
	if !strings.Contains(first, "loading…") {
		t.Fatalf("the first frame did not come while the note was loading:\n%s", first)
	}
	p.waitFor(3*time.Minute, "the whole note", p.capture, func(s string) bool { return !strings.Contains(s, "loading…") })
	if pane := p.wait("(end)"); !strings.Contains(pane, " 100% (end)") || !strings.Contains(pane, "The very last words of the note.") {
		t.Fatalf("G during the load did not end at the note's end:\n%s", pane)
	}
	pid, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pidN, err := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err != nil {
		t.Fatal(err)
	}
	peak, err := procmem.Peak(pidN)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("markii view: %.1f MB peak resident on a %.1f MB note (%.1f×)", float64(peak)/1e6, float64(len(src))/1e6, float64(peak)/float64(len(src)))
	// The viewer keeps the note's source and its page packed; a page held
	// as spans took about 50× the note.
	if peak > 10*int64(len(src)) {
		t.Errorf("markii view peaks at %d bytes on a %d-byte note, over 10×", peak, len(src))
	}
	p.keys("q")
	if got := p.exited(); got != "exit 0" {
		t.Fatalf("stderr and exit after q: %q", got)
	}
}

// longProse is a note of about size bytes of sections of plain
// paragraphs with some inline markup, as a long document has.
func longProse(size int) string {
	words := strings.Fields("the of and to in is that for it as with was on be by this are from at or an which have not note terminal render layout width column value script table heading paragraph")
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString("# Long note\n\n")
	for sec, w := 1, 0; b.Len() < size; sec++ {
		fmt.Fprintf(&b, "## Section %d\n\n", sec)
		for range 6 {
			for s := 0; s < 60; s++ {
				word := words[w%len(words)]
				w += 7
				switch s % 15 {
				case 3:
					b.WriteString("**" + word + "** ")
				case 9:
					b.WriteString("`" + word + "` ")
				default:
					b.WriteString(word + " ")
				}
			}
			b.WriteString("\n\n")
		}
	}
	return b.String()
}
