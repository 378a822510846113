package viewer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/internal/needs"
	"github.com/markii/markii/internal/procmem"
)

// viewMemoryNote is a realistic note of about size bytes, as a reader
// keeps one open: sections of paragraphs with emphasis, links and code,
// lists, tables, code blocks, quotes and details.
func viewMemoryNote(size int) []byte {
	rng := rand.New(rand.NewPCG(5, 6))
	words := strings.Fields("the of and to in is that for it as with was on be by this are from at or an which have not has but note terminal render layout width column value script sandbox grant table heading paragraph quickly carefully portable readable")
	word := func() string { return words[rng.IntN(len(words))] }
	var b strings.Builder
	b.WriteString("# Memory note\n\n")
	for sec := 1; b.Len() < size; sec++ {
		fmt.Fprintf(&b, "## Section %d %s\n\n", sec, word())
		for p := 0; p < 4; p++ {
			for s := 0; s < 50; s++ {
				switch rng.IntN(10) {
				case 0:
					fmt.Fprintf(&b, "**%s %s** ", word(), word())
				case 1:
					fmt.Fprintf(&b, "[%s](https://example.com/%s/%d) ", word(), word(), rng.IntN(1000))
				case 2:
					fmt.Fprintf(&b, "`%s()` ", word())
				default:
					b.WriteString(word() + " ")
				}
			}
			b.WriteString("\n\n")
		}
		switch sec % 5 {
		case 0:
			b.WriteString("- one " + word() + "\n- two " + word() + "\n  - nested " + word() + "\n\n")
		case 1:
			b.WriteString("| name | value |\n|---|---|\n| " + word() + " | " + word() + " |\n| " + word() + " | 42 |\n\n")
		case 2:
			b.WriteString("```go\nfunc sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n```\n\n")
		case 3:
			b.WriteString("> a quoted " + word() + " line\n\n")
		case 4:
			b.WriteString(":::details{title=\"More\"}\nHidden " + word() + ".\n:::\n\n")
		}
	}
	return []byte(b.String())
}

// peakMemory runs the viewer on a note (argv is its path), or the
// command argv, in a 120×40 tmux pane until the pane shows want and
// no longer shows "loading", pages to the end and back, and returns the
// process's peak resident memory (VmHWM) in bytes.
func peakMemory(t *testing.T, sock, home string, want string, argv ...string) int {
	t.Helper()
	if len(argv) == 1 {
		// The viewer: this test binary runs it on the note (see TestMain).
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		argv = []string{"env", "MARKII_VIEWER_CHILD=" + argv[0], self}
	}
	t.Helper()
	x := &tmux{t: t, socket: sock}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	tm := x.run
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = strconv.Quote(a)
	}
	cmd := fmt.Sprintf("exec env TERM=xterm-256color HOME=%q LESS= %s 2>/dev/null", home, strings.Join(quoted, " "))
	tm("new-session", "-d", "-s", "m", "-x", "120", "-y", "40", "sh", "-c", cmd)
	tm("set-option", "-s", "escape-time", "0")
	pid, err := strconv.Atoi(strings.TrimSpace(tm("display-message", "-p", "-t", "m", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	until := func(what string, ok func(pane string) bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Minute)
		for {
			p := tm("capture-pane", "-p", "-t", "m")
			if ok(p) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the pane never showed %s:\n%s", argv[len(argv)-1], what, p)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	until(strconv.Quote(want), func(p string) bool { return strings.Contains(p, want) })
	until("the whole note", func(p string) bool { return !strings.Contains(p, "loading") })
	tm("send-keys", "-t", "m", "G")
	until("the end of the note", func(p string) bool { return strings.Contains(p, "100%") || strings.Contains(p, "(END)") })
	tm("send-keys", "-t", "m", "g")
	until("the note's start", func(p string) bool { return strings.Contains(p, want) })
	peak, err := procmem.Peak(pid)
	if err != nil {
		t.Fatal(err)
	}
	tm("send-keys", "-t", "m", "q")
	return int(peak)
}

// TestViewerMemoryIsProportionalToTheNote reads the peak resident memory
// of the viewer on a long note and on a short one, and bounds what the
// long note adds per byte of it. With MARKII_VIEWER_PERF=1 the note is
// 10 MB and the viewer's whole peak must stay within 10× the note; less
// is measured on the same file for comparison.
func TestViewerMemoryIsProportionalToTheNote(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the viewer on a long note in a terminal")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to read the peak memory from")
	}
	needs.Tmux(t)
	perf := os.Getenv("MARKII_VIEWER_PERF") != ""
	size := 2 << 20
	if perf {
		size = 10 << 20
	}
	dir := t.TempDir()
	short, long := filepath.Join(dir, "short.mk.md"), filepath.Join(dir, "long.mk.md")
	if err := os.WriteFile(short, viewMemoryNote(4<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	src := viewMemoryNote(size)
	if err := os.WriteFile(long, src, 0o600); err != nil {
		t.Fatal(err)
	}
	base := peakMemory(t, filepath.Join(dir, "s1"), dir, "Memory note", short)
	peak := peakMemory(t, filepath.Join(dir, "s2"), dir, "Memory note", long)
	perByte := float64(peak-base) / float64(len(src))
	t.Logf("viewer: %.1f MB peak on a %.1f MB note, %.1f MB on a short one: %.1f bytes per byte of the note",
		float64(peak)/1e6, float64(len(src))/1e6, float64(base)/1e6, perByte)
	if _, err := exec.LookPath("less"); err == nil {
		less := peakMemory(t, filepath.Join(dir, "s3"), dir, "Memory note", "less", long)
		t.Logf("less on the same note: %.1f MB peak; markii/less %.1f", float64(less)/1e6, float64(peak)/float64(less))
	}
	// The viewer keeps the note's source, its page packed and its
	// targets, and the collector's room on top: about 8 bytes per byte.
	// A page held as spans and laid out from a whole parse took over 50
	// bytes per byte here, and a record for each link about 14.
	if perByte > 11 {
		t.Errorf("the long note adds %.1f bytes of peak memory per byte of it, over 11", perByte)
	}
	if perf && peak > 10*len(src) {
		t.Errorf("the viewer peaks at %d bytes on a %d-byte note, over 10×", peak, len(src))
	}
}
