package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// onTerminal runs the markii binary with args on a fresh cols×rows
// pseudo-terminal (stdin, stdout and stderr) with env added to a bare
// environment, and returns everything the terminal received once it ends.
func onTerminal(t *testing.T, cols, rows int, env []string, args ...string) string {
	t.Helper()
	ptm, pts := openPTY(t)
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(markiiBinary(t), args...)
	home := t.TempDir()
	cmd.Env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "COLORTERM=truecolor"}, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("markii %v: %v\n%s", args, err, out.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("markii %v did not end", args)
	}
	<-done
	mu.Lock()
	defer mu.Unlock()
	// The terminal turns each line feed into CR LF.
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

// fakePager writes a pager script to dir that copies what it reads to
// dir/name.out and its arguments to dir/name.args, then shows a line
// on the terminal saying it ran.
func fakePager(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >" + shellQuote(p+".args") + "\ncat >" + shellQuote(p+".out") + "\necho '" + name + " ran'\n"
	if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// paged returns what the fake pager name read, and whether it ran.
func paged(t *testing.T, dir, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name+".out"))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// TestRenderPagesLikeBat: with a terminal on stdout, render sends output
// taller than the screen through $MARKII_PAGER, else $PAGER, else
// less -RF, laid out at the terminal's width and color level; output that
// fits, --paging never, the paging setting and a pipe write directly;
// --paging always pages even what fits.
func TestRenderPagesLikeBat(t *testing.T) {
	if testing.Short() {
		t.Skip("starts markii on pseudo-terminals")
	}
	bin := markiiBinary(t)
	dir := t.TempDir()
	var long strings.Builder
	long.WriteString("# Long\n\n")
	for i := range 60 {
		long.WriteString("Paragraph " + strings.Repeat("word ", i%7+1) + "end.\n\n")
	}
	long.WriteString("---\n")
	longNote := writeNote(t, long.String())
	shortNote := writeNote(t, "# Short\n\nIt fits.\n")
	mp, pg := fakePager(t, dir, "markii-pager"), fakePager(t, dir, "pager")

	// What the same render gives a pipe at the terminal's width and level.
	want := func(note string) string {
		cmd := exec.Command(bin, "render", "--theme", "dark", "--width", "100", "--color", "truecolor", note)
		cmd.Env = []string{"HOME=" + t.TempDir()}
		b, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	wantLong := want(longNote)
	if !strings.Contains(wantLong, "\x1b[38;2;") || !strings.Contains(wantLong, strings.Repeat("─", 100)) {
		t.Fatalf("the reference is not truecolor at width 100:\n%s", wantLong)
	}
	reset := func() {
		for _, n := range []string{"markii-pager", "pager", "less"} {
			os.Remove(filepath.Join(dir, n+".out"))
			os.Remove(filepath.Join(dir, n+".args"))
		}
	}
	render := []string{"render", "--theme", "dark"}

	reset()
	screen := onTerminal(t, 100, 24, []string{"MARKII_PAGER=" + mp, "PAGER=" + pg}, append(render, longNote)...)
	if got, ok := paged(t, dir, "markii-pager"); !ok || got != wantLong {
		t.Errorf("$MARKII_PAGER read %q (ran %v), want the terminal's render:\n%s", got, ok, wantLong)
	}
	if _, ok := paged(t, dir, "pager"); ok || !strings.Contains(screen, "markii-pager ran") || strings.Contains(screen, "Paragraph") {
		t.Errorf("the output did not go through $MARKII_PAGER alone:\n%s", screen)
	}

	reset()
	screen = onTerminal(t, 100, 24, []string{"PAGER=" + pg}, append(render, longNote)...)
	if got, ok := paged(t, dir, "pager"); !ok || got != wantLong || !strings.Contains(screen, "pager ran") {
		t.Errorf("$PAGER read %q (ran %v):\n%s", got, ok, screen)
	}

	// Neither: less -RF, found on PATH.
	reset()
	fakePager(t, dir, "less")
	screen = onTerminal(t, 100, 24, []string{"PATH=" + dir + ":" + os.Getenv("PATH")}, append(render, longNote)...)
	args, _ := os.ReadFile(filepath.Join(dir, "less.args"))
	if got, ok := paged(t, dir, "less"); !ok || got != wantLong || string(args) != "-RF\n" {
		t.Errorf("less read %q (ran %v) with arguments %q, want -RF:\n%s", got, ok, args, screen)
	}

	// A bare `less` in $PAGER gets -RF too.
	reset()
	onTerminal(t, 100, 24, []string{"PAGER=" + filepath.Join(dir, "less")}, append(render, longNote)...)
	if args, _ := os.ReadFile(filepath.Join(dir, "less.args")); string(args) != "-RF\n" {
		t.Errorf("PAGER=less ran with arguments %q, want -RF", args)
	}

	// What fits is written as it is; always pages it anyway.
	reset()
	screen = onTerminal(t, 100, 24, []string{"PAGER=" + pg}, append(render, shortNote)...)
	if _, ok := paged(t, dir, "pager"); ok || screen != want(shortNote) {
		t.Errorf("a note that fits was paged or changed: %q, want %q", screen, want(shortNote))
	}
	reset()
	onTerminal(t, 100, 24, []string{"PAGER=" + pg}, append(render, "--paging", "always", shortNote)...)
	if got, ok := paged(t, dir, "pager"); !ok || got != want(shortNote) {
		t.Errorf("--paging always did not page a short note: %q (ran %v)", got, ok)
	}

	// never, by flag and by setting: the terminal gets the render itself.
	for _, c := range []struct {
		name     string
		settings string
		args     []string
	}{
		{"--paging never", "", []string{"--paging", "never"}},
		{"the paging setting", `{"paging": "never"}`, nil},
	} {
		reset()
		env := []string{"PAGER=" + pg}
		if c.settings != "" {
			cfg := t.TempDir()
			if err := os.MkdirAll(filepath.Join(cfg, "markii"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cfg, "markii", "config.json"), []byte(c.settings), 0o600); err != nil {
				t.Fatal(err)
			}
			env = append(env, "XDG_CONFIG_HOME="+cfg)
		}
		screen = onTerminal(t, 100, 24, env, append(append(render, c.args...), longNote)...)
		if _, ok := paged(t, dir, "pager"); ok || screen != wantLong {
			t.Errorf("%s: the output was paged or changed (%d bytes, want %d)", c.name, len(screen), len(wantLong))
		}
	}

	// A pipe is never paged, whatever the settings.
	reset()
	cmd := exec.Command(bin, "render", longNote)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PAGER=" + pg}
	out, err := cmd.Output()
	if _, ok := paged(t, dir, "pager"); err != nil || ok || strings.Contains(string(out), "\x1b") {
		t.Errorf("a pipe was paged or colored: %v %q", err, out)
	}
}

// TestRenderStopsWhenThePagerQuits: a reader who quits the pager after the
// first screen ends the render at once, with no error.
func TestRenderStopsWhenThePagerQuits(t *testing.T) {
	if testing.Short() {
		t.Skip("starts markii on a pseudo-terminal")
	}
	dir := t.TempDir()
	quitter := filepath.Join(dir, "quitter")
	if err := os.WriteFile(quitter, []byte("#!/bin/sh\nhead -c 100 >/dev/null\necho quit\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	var long strings.Builder
	for i := range 20000 {
		long.WriteString("Line " + strings.Repeat("x", i%50) + "\n\n")
	}
	screen := onTerminal(t, 80, 24, []string{"PAGER=" + quitter}, "render", "--theme", "dark", writeNote(t, long.String()))
	if strings.TrimSpace(screen) != "quit" {
		t.Errorf("the terminal shows more than the pager's line:\n%.2000s", screen)
	}
}
