package viewer

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/gctune"
	"github.com/markii/markii/internal/needs"
	"github.com/markii/markii/theme"
)

// TestMain lets the test binary run the viewer on its own terminal, as a
// child of tmux, when MARKII_VIEWER_CHILD names a note.
func TestMain(m *testing.M) {
	if path := os.Getenv("MARKII_VIEWER_CHILD"); path != "" {
		os.Exit(childViewer(path))
	}
	os.Exit(m.Run())
}

func childViewer(path string) int {
	if at, ok := strings.CutPrefix(path, "@"); ok {
		// A name no shell line can carry is read from a file.
		b, err := os.ReadFile(at)
		if err != nil {
			fmt.Fprintf(os.Stderr, "markii: cannot read %s\n", at)
			return 1
		}
		path = string(b)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return childLibrary(path)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "markii: cannot read %s\n", path)
		return 1
	}
	load := func(p string) (*Note, error) {
		b, err := os.ReadFile(p)
		return &Note{Name: filepath.Base(p), Path: p, Source: b}, err
	}
	if os.Getenv("MARKII_VIEWER_CHILD_PANIC") != "" {
		load = func(string) (*Note, error) { panic("loader exploded") }
	}
	// As markii's cli does, the session runs under a memory limit fitted
	// to the note.
	memory, restore := gctune.ForViewer(len(src), os.Getenv)
	defer restore()
	_, err = Run(Options{
		Memory: memory,
		Note:   &Note{Name: filepath.Base(path), Path: path, Source: src, Watch: []string{path}},
		Level:  ansi.TrueColor,
		Theme:  theme.Dark,
		Load:   load,
		Watch:  true,
	}, os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "markii: %v\n", err)
		return 1
	}
	fmt.Fprintln(os.Stderr, "viewer closed")
	return 0
}

// childLibrary runs the viewer on a folder's list, as markii view DIR
// does.
func childLibrary(dir string) int {
	lib, err := ScanLibrary(dir, DefaultLibraryLimits)
	if err == nil {
		load := func(p string) (*Note, error) {
			b, err := os.ReadFile(p)
			return &Note{Name: filepath.Base(p), Path: p, Source: b}, err
		}
		_, err = Run(Options{Library: lib, Open: openFile(nil), Load: load, Level: ansi.TrueColor, Theme: theme.Dark}, os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "markii: %v\n", err)
		return 1
	}
	fmt.Fprintln(os.Stderr, "viewer closed")
	return 0
}

// probe plants terminal attacks everywhere a note carries text.
const probe = "---\ntitle: \"T\x1b]0;PWNED-title\x07\"\n---\n\n" +
	"# Heading \x1b[2J PWNED-h1 &#27;[31mPWNED-entity\n\n" +
	"Body \x1b]52;c;UFdORUQ=\x07 PWNED-osc52 and \u009b2J PWNED-c1 and \x9d0;PWNED-raw-c1\x9c and &#x9b;31m and BEL\x07 and BS\x08\x08.\n\n" +
	"A [link \x1b[5mPWNED-link](https://example.com/a\x1b]8;;evil\x07) and [note](./next.mk.md) and [js](javascript:alert(1)).\n\n" +
	":::details{title=\"Secret \x1b]0;PWNED-details\x07\"}\nHidden \x1b[8m PWNED-details-body &#x1b;]0;PWNED-ent&#7;\n:::\n\n" +
	"::::tabs\n:::tab{label=\"One \x1b[31mPWNED-tab\"}\nPanel one \x1b[H PWNED-panel1\n:::\n:::tab{label=\"Two\"}\nPanel two \x1bP+q544e\x1b\\ PWNED-dcs\n:::\n::::\n\n" +
	"| a \x1b[1m | b |\n|---|---|\n| PWNED-cell \x1b]0;x\x07 | &#155;2J |\n\n" +
	"```\ncode \x1b[2J PWNED-code\n\tTabbed\n```\n\n" +
	"## Tail\n\nThe end.\n"

// tmux drives one tmux server on a private socket.
type tmux struct {
	t      *testing.T
	socket string
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x *tmux) keys(ks ...string) {
	for _, k := range ks {
		x.run("send-keys", "-t", "v", k)
		pause := 15 * time.Millisecond
		if k == "Escape" {
			// A lone ESC is a key only once no other byte follows it
			// within the terminal reader's escape timeout (50 ms);
			// otherwise ESC t is alt+t.
			pause = 120 * time.Millisecond
		}
		time.Sleep(pause)
	}
}

func (x *tmux) capture() string { return x.run("capture-pane", "-p", "-t", "v") }

// waitPane waits until the captured pane contains want.
func (x *tmux) waitPane(want string) string {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := x.capture()
		if strings.Contains(p, want) {
			return p
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("pane never showed %q:\n%s", want, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tabUntil presses Tab until the pane shows want, at most presses times,
// waiting after each press for the viewer to redraw: on a loaded machine
// a frame can come later than the next press would, and pressing again
// before it shows would move the focus past want.
func (x *tmux) tabUntil(want string, presses int) string {
	x.t.Helper()
	p := x.capture()
	for i := 0; i < presses && !strings.Contains(p, want); i++ {
		x.run("send-keys", "-t", "v", "Tab")
		p = x.waitChange(p)
	}
	if !strings.Contains(p, want) {
		x.t.Fatalf("%d presses of Tab never showed %q:\n%s", presses, want, p)
	}
	return p
}

// waitChange waits up to 5 seconds for the pane to differ from before and
// returns what it shows then.
func (x *tmux) waitChange(before string) string {
	x.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := x.capture()
		if p != before || time.Now().After(deadline) {
			return p
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone waits until the captured pane no longer contains text.
func (x *tmux) waitGone(text string) {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Contains(x.capture(), text) {
		if time.Now().After(deadline) {
			x.t.Fatalf("pane still shows %q:\n%s", text, x.capture())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startTmux runs the viewer on note in an 80x24 tmux pane, recording the
// raw bytes it writes with pipe-pane before it starts.
func startTmux(t *testing.T, note string, env ...string) (*tmux, string) {
	t.Helper()
	x, dir, open := startTmuxHeld(t, note, env...)
	open()
	return x, dir
}

// startTmuxHeld prepares the pane like startTmux but starts the viewer
// only when open is called, so keys can be typed ahead of it.
func startTmuxHeld(t *testing.T, note string, env ...string) (x *tmux, dir string, open func()) {
	t.Helper()
	needs.Tmux(t)
	dir = t.TempDir()
	x = &tmux{t: t, socket: filepath.Join(dir, "sock")}
	raw := filepath.Join(dir, "raw.bin")
	gate := filepath.Join(dir, "go")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := fmt.Sprintf("while [ ! -e %q ]; do sleep 0.02; done; exec env TERM=xterm-256color MARKII_VIEWER_CHILD=%q %s %q 2>%q",
		gate, note, strings.Join(env, " "), self, filepath.Join(dir, "stderr"))
	x.run("new-session", "-d", "-s", "v", "-x", "80", "-y", "24", "sh", "-c", cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", x.socket, "kill-server").Run() })
	x.run("set-option", "-t", "v", "remain-on-exit", "on")
	x.run("set-option", "-s", "escape-time", "0")
	x.run("pipe-pane", "-O", "-t", "v", "cat > "+raw)
	open = func() {
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return x, dir, open
}

// viewerSequence matches the escape sequences the viewer itself writes:
// CSI controls (cursor, erase, modes, SGR) and OSC 8 hyperlinks.
var (
	csiRe  = regexp.MustCompile(`^\x1b\[[0-9;?<=>]*[ -/]*[@-~]`)
	osc8Re = regexp.MustCompile(`^\x1b\]8;;([^\x07\x1b]*)(\x07|\x1b\\)`)
)

// checkRaw fails if the bytes written to the terminal hold anything but
// the viewer's own sequences: every ESC starts a CSI or an OSC 8 with an
// allowed URL, there are no C1 controls, and no probe marker is inside a
// sequence.
func checkRaw(t *testing.T, raw []byte) {
	t.Helper()
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == 0x1b:
			rest := raw[i:]
			if m := osc8Re.FindSubmatch(rest); m != nil {
				if u := string(m[1]); u != "" && !ansi.LinkAllowed(u) {
					t.Fatalf("hyperlink to a refused address %q at byte %d", u, i)
				}
				if bytes.Contains(m[0], []byte("PWNED")) {
					t.Fatalf("probe text inside a hyperlink: %q", m[0])
				}
				i += len(m[0])
				continue
			}
			if m := csiRe.Find(rest); m != nil {
				if bytes.Contains(m, []byte("PWNED")) {
					t.Fatalf("probe text inside a control sequence: %q", m)
				}
				i += len(m)
				continue
			}
			// The two-byte escapes a screen renderer needs: keypad modes
			// and reverse index (scrolling the region down a line).
			if len(rest) > 1 && (rest[1] == '=' || rest[1] == '>' || rest[1] == 'M') {
				i += 2
				continue
			}
			t.Fatalf("foreign escape sequence at byte %d: %q", i, rest[:min(len(rest), 24)])
		case c == '\r' || c == '\n' || c == '\b' || c == '\t':
			// The renderer moves the cursor with BS and, where the
			// terminal keeps hard tabs, with HT; a note's own BS and tabs
			// never reach it (the pane check shows "BS." whole).
			i++
		case c < 0x20 || c == 0x7f:
			t.Fatalf("control byte %#x at byte %d: %q", c, i, raw[max(i-20, 0):min(i+20, len(raw))])
		case c >= 0x80:
			r, n := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && n <= 1 {
				t.Fatalf("invalid UTF-8 byte %#x at byte %d", c, i)
			}
			if r >= 0x80 && r <= 0x9f {
				t.Fatalf("C1 control U+%04X at byte %d", r, i)
			}
			i += n
		default:
			i++
		}
	}
}

func TestRealTerminalProbe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "probe.mk.md")
	if err := os.WriteFile(note, []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "next.mk.md"), []byte("# Next note\n\nFollowed \x1b]0;PWNED-next\x07.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x, work := startTmux(t, note)
	x.waitPane("probe.mk.md")
	// Scroll through all of it, line by line and by page, and back.
	for i := 0; i < 40; i++ {
		x.keys("j")
	}
	x.keys("G", "g", "Space", "Space", "b", "C-d", "C-u", "End", "Home")
	// Open every tab and every detail.
	x.tabUntil("enter to open", 8)
	x.keys("Enter")
	x.waitPane("PWNED-details-body")
	x.tabUntil("tabs \"", 8)
	x.keys("Right")
	x.waitPane("Panel two")
	x.keys("Left")
	x.waitPane("Panel one")
	// Search, contents, help, fold, a note link and back.
	x.keys("/", "P", "W", "N", "E", "D", "Enter")
	x.waitPane("matches")
	x.keys("n", "N", "Escape", "Escape", "t", "Enter", "h")
	x.waitPane("table of contents")
	x.keys("Escape", "z", "Z", "Z")
	x.tabUntil("enter opens ./next.mk.md", 10)
	x.keys("Enter")
	x.waitPane("Next note")
	x.keys("BSpace")
	x.waitPane("probe.mk.md")
	pane := x.capture()
	// The captured screen holds the note's text, never its controls.
	if strings.Contains(pane, "\x1b") {
		t.Fatal("captured pane holds an escape")
	}
	if !strings.Contains(pane, "PWNED-h1") || !strings.Contains(pane, "PWNED-osc52") || !strings.Contains(pane, "BEL and BS.") {
		t.Fatalf("the probe's text is not on screen as text:\n%s", pane)
	}
	x.keys("q")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(x.run("list-panes", "-t", "v", "-F", "#{pane_dead}"), "1") {
		if time.Now().After(deadline) {
			t.Fatalf("q did not end the viewer:\n%s", x.capture())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	raw, err := os.ReadFile(filepath.Join(work, "raw.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 1000 {
		t.Fatalf("recorded only %d bytes", len(raw))
	}
	checkRaw(t, raw)
	for _, w := range [][]byte{[]byte("\x1b[?1049h"), []byte("\x1b[?1049l")} {
		if !bytes.Contains(raw, w) {
			t.Fatalf("raw output lacks %q (alternate screen on and off)", w)
		}
	}
	if i, j := bytes.LastIndex(raw, []byte("\x1b[?1049l")), bytes.LastIndex(raw, []byte("\x1b[?1049h")); i < j {
		t.Fatal("the alternate screen was not left last")
	}
	stderr, _ := os.ReadFile(filepath.Join(work, "stderr"))
	if strings.TrimSpace(string(stderr)) != "viewer closed" {
		t.Fatalf("stderr: %q", stderr)
	}
}

func TestRealTerminalRestoredAfterPanic(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	_, start := linkTree(t)
	x, work := startTmux(t, start, "MARKII_VIEWER_CHILD_PANIC=1")
	x.waitPane("start.mk.md")
	x.keys("G")
	x.tabUntil("enter opens ./roadmap.mk.md", 6)
	x.keys("Enter")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(x.run("list-panes", "-t", "v", "-F", "#{pane_dead}"), "1") {
		if time.Now().After(deadline) {
			t.Fatalf("the viewer did not end after the panic:\n%s", x.capture())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	raw, _ := os.ReadFile(filepath.Join(work, "raw.bin"))
	checkRaw(t, raw)
	if i, j := bytes.LastIndex(raw, []byte("\x1b[?1049l")), bytes.LastIndex(raw, []byte("\x1b[?1049h")); i < 0 || i < j {
		stderr, _ := os.ReadFile(filepath.Join(work, "stderr"))
		t.Fatalf("the terminal was not restored after the panic: %q\nstderr: %s\n%s", raw[max(len(raw)-200, 0):], stderr, x.run("list-panes", "-t", "v", "-F", "#{pane_dead} #{pane_dead_status} #{pane_dead_signal}"))
	}
	stderr, _ := os.ReadFile(filepath.Join(work, "stderr"))
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "markii: the viewer stopped after an internal error (loader exploded)") {
		t.Fatalf("stderr after the panic: %q", stderr)
	}
	if strings.Contains(string(stderr), "goroutine") {
		t.Fatal("a Go stack trace reached the user")
	}
}

// TestRealTerminalKeysArriveTogether sends keys the way a laggy link, a
// paste or typing ahead delivers them: several in one write. Each counts.
func TestRealTerminalKeysArriveTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "keys.mk.md")
	if err := os.WriteFile(note, []byte(longNote(10, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	x, _, open := startTmuxHeld(t, note)
	// Typed before the viewer runs: waiting in the terminal for it.
	x.run("send-keys", "-t", "v", "-l", "jj")
	open()
	x.waitPane("line 3/")
	x.run("send-keys", "-t", "v", "-l", "jj")
	x.waitPane("line 5/")
	x.run("send-keys", "-t", "v", "-l", "gjjj")
	x.waitPane("line 4/")
	// A bracketed paste outside the prompt is keys too.
	x.run("set-buffer", "jjj")
	x.run("paste-buffer", "-p", "-t", "v")
	x.waitPane("line 7/")
	// Top, search and Enter in one write.
	x.run("send-keys", "-t", "v", "-l", "g/needle\r")
	x.waitPane("1/1 matches")
	x.waitPane("The needle hides at the very end.")
	x.keys("Escape")
	x.waitGone("matches")
	// A paste into the open prompt is the query.
	x.run("send-keys", "-t", "v", "-l", "g/")
	x.run("set-buffer", "Paragraph 3.2")
	x.run("paste-buffer", "-p", "-t", "v")
	x.run("send-keys", "-t", "v", "Enter")
	x.waitPane("1/1 matches")
	x.waitPane("Paragraph 3.2 of the note")
	// Esc clears the search and then does nothing: it never quits.
	x.keys("Escape", "Escape", "Escape", "=")
	x.waitPane("keys.mk.md · lines")
	if dead := x.run("list-panes", "-t", "v", "-F", "#{pane_dead}"); strings.TrimSpace(dead) != "0" {
		t.Fatal("esc ended the viewer")
	}
	x.keys("q")
}

// TestRealTerminalHostileFileNames opens a note whose file name carries a
// window-title and a clipboard write, and follows a percent-encoded note
// link to another such file: the raw bytes written to the terminal hold
// only the viewer's own sequences.
func TestRealTerminalHostileFileNames(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	byName := filepath.Join(dir, "\x1b]0;PWN\x07\x1b]52;c;cm0gLXJm\x07x.mk.md")
	byLink := filepath.Join(dir, "\x1b]0;PWN\x07x.mk.md")
	start := filepath.Join(dir, "start.mk.md")
	for p, src := range map[string]string{
		byName: "# Hostile one\n\nOpened by its name.\n",
		byLink: "# Hostile two\n\nReached by a link.\n",
		start:  "# Start\n\nGo [n](%1B%5D0%3BPWN%07x.mk.md) now.\n",
	} {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(work string) {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(work, "raw.bin"))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"\x1b]0;", "\x1b]52;", "\x07"} {
			if bytes.Contains(raw, []byte(bad)) {
				t.Fatalf("the terminal received %q", bad)
			}
		}
		checkRaw(t, raw)
	}
	quit := func(x *tmux) {
		t.Helper()
		x.keys("q")
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(x.run("list-panes", "-t", "v", "-F", "#{pane_dead}"), "1") {
			if time.Now().After(deadline) {
				t.Fatalf("q did not end the viewer:\n%s", x.capture())
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
	}

	named := filepath.Join(dir, "name.txt")
	if err := os.WriteFile(named, []byte(byName), 0o644); err != nil {
		t.Fatal(err)
	}
	x, work := startTmux(t, "@"+named)
	p := x.waitPane("Hostile one")
	if !strings.Contains(p, "]0;PWN]52;c;cm0gLXJmx.mk.md") {
		t.Fatalf("the status bar does not show the name as inert text:\n%s", p)
	}
	quit(x)
	check(work)

	x, work = startTmux(t, start)
	x.waitPane("start.mk.md")
	x.tabUntil("enter opens", 4)
	x.keys("Enter")
	p = x.waitPane("Hostile two")
	// With the message beside it the name may lose its middle (never
	// the message), but what is shown of it is inert text.
	if !strings.Contains(p, "]0;PWNx.mk.md") && !strings.Contains(p, " ]0;P…k.md (backspace returns) · scripts of linked notes") {
		t.Fatalf("the status bar does not show the linked name as inert text:\n%s", p)
	}
	quit(x)
	check(work)
}

// TestRealTerminalSearchRevealsHiddenPanels searches, in a real terminal,
// for a word that exists only in a closed details block and lands on it
// with the block open; then for one only on an inactive tab, and lands on
// it with that tab active.
func TestRealTerminalSearchRevealsHiddenPanels(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "hidden.mk.md")
	if err := os.WriteFile(note, []byte(hiddenNote()), 0o644); err != nil {
		t.Fatal(err)
	}
	x, _ := startTmux(t, note)
	if p := x.waitPane("hidden.mk.md"); strings.Contains(p, "zebra") || strings.Contains(p, "giraffe") {
		t.Fatalf("the hidden words are on screen before the search:\n%s", p)
	}
	x.run("send-keys", "-t", "v", "-l", "/zebra\r")
	x.waitPane("1/1 matches")
	p := x.waitPane("Only the zebra lives in here.")
	if !strings.Contains(p, "▾ Closed") {
		t.Fatalf("the details block is not shown open:\n%s", p)
	}
	x.keys("Escape")
	x.waitGone("matches")
	x.run("send-keys", "-t", "v", "-l", "g/giraffe\r")
	x.waitPane("1/2 matches")
	p = x.waitPane("The giraffe waits on the other tab.")
	if !strings.Contains(p, "[Other]") || strings.Contains(p, "The shown panel.") {
		t.Fatalf("the other tab is not the active one:\n%s", p)
	}
	x.keys("q")
}

// TestRealTerminalBottomWhileALongNoteLoads presses G in a real terminal
// while a 10 MB note is still being laid out behind its first frame: once
// the whole note is there the viewer is at its end, 100%.
func TestRealTerminalBottomWhileALongNoteLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a terminal session on a 10 MB note")
	}
	dir := t.TempDir()
	note := filepath.Join(dir, "big.mk.md")
	src := append(bigNote(10<<20), "\nThe very last words of the note.\n"...)
	if err := os.WriteFile(note, src, 0o644); err != nil {
		t.Fatal(err)
	}
	x, _ := startTmux(t, note)
	p := x.waitPane("big.mk.md")
	x.keys("G")
	if !strings.Contains(p, "loading…") {
		t.Fatalf("the first frame did not come while the note was loading:\n%s", p)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		p = x.capture()
		if !strings.Contains(p, "loading…") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the note never finished loading:\n%s", p)
		}
		time.Sleep(50 * time.Millisecond)
	}
	p = x.waitPane("(end)")
	if !strings.Contains(p, " 100% (end)") || !strings.Contains(p, "The very last words of the note.") {
		t.Fatalf("G during the load did not end at the note's end:\n%s", p)
	}
	x.keys("q")
}
