package cli

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/state"
)

// openPTY returns a new pseudo-terminal's controlling side and terminal
// side.
func openPTY(t *testing.T) (ptm, pts *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ptm, pts
}

// terminalRun is markii run on a pseudo-terminal, with what it has
// written so far.
type terminalRun struct {
	t   *testing.T
	ptm *os.File
	mu  sync.Mutex
	out bytes.Buffer
	cmd *exec.Cmd
}

// startOnTerminal starts the markii binary's run NOTE on a fresh
// pseudo-terminal after typeAhead was typed into it; its exit status
// follows as a line "exit N".
func startOnTerminal(t *testing.T, home, note, typeAhead string) *terminalRun {
	return startOnTerminalSized(t, home, note, typeAhead, 0)
}

// startOnTerminalSized is startOnTerminal on a terminal cols columns wide
// (0 leaves the size unset).
func startOnTerminalSized(t *testing.T, home, note, typeAhead string, cols int) *terminalRun {
	ptm, pts := openPTY(t)
	if cols > 0 {
		if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: uint16(cols)}); err != nil {
			t.Fatal(err)
		}
	}
	if typeAhead != "" {
		if _, err := ptm.Write([]byte(typeAhead)); err != nil {
			t.Fatal(err)
		}
	}
	r := &terminalRun{t: t, ptm: ptm}
	r.cmd = exec.Command("sh", "-c", `"$0" run "$1"; printf '\nexit %d\n' $?`, markiiBinary(t), note)
	r.cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "PATH=" + os.Getenv("PATH")}
	r.cmd.Stdin, r.cmd.Stdout, r.cmd.Stderr = pts, pts, pts
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { r.cmd.Process.Kill(); r.cmd.Wait() })
	return r
}

// waitFor waits until the terminal shows want n times.
func (r *terminalRun) waitFor(want string, n int) {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		got := strings.Count(r.out.String(), want)
		r.mu.Unlock()
		if got >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.t.Fatalf("the terminal never showed %q %d times:\n%s", want, n, r.out.String())
}

func (r *terminalRun) typeKeys(s string) {
	r.t.Helper()
	if _, err := r.ptm.Write([]byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// finish waits for the run to end and returns what it wrote.
func (r *terminalRun) finish() string {
	r.t.Helper()
	r.waitFor("\nexit ", 1)
	r.cmd.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// TestPromptIgnoresTypedAhead: keys typed or pasted before a consent
// prompt is on the screen never answer it. `y⏎` typed before markii
// starts is discarded, and a pasted `n⏎y⏎` answers only the prompt that
// was showing; the hosts are not granted and the servers count no hits.
// The last run, answered after the prompt shows, is the control: the same
// setup does grant and reach the host.
func TestPromptIgnoresTypedAhead(t *testing.T) {
	if testing.Short() {
		t.Skip("starts markii on a pseudo-terminal")
	}
	home := t.TempDir()
	a, hitsA := countingServer(t)
	b, hitsB := countingServer(t)
	ub, _ := url.Parse(b.URL)
	bURL := "http://localhost:" + ub.Port()
	one := writeNote(t, "```lua {name=v}\nreturn net.fetch_json(\""+a.URL+"/x\").v\n```\n")
	two := writeNote(t, "```lua {name=v}\nreturn net.fetch_json(\""+a.URL+"/x\").v + net.fetch_json(\""+bURL+"/y\").v\n```\n")
	stored := func() map[string]grants.Record {
		all, _, err := grants.NewStore(state.Open(filepath.Join(home, "state", "markii"), state.Options{})).All()
		if err != nil {
			t.Fatal(err)
		}
		return all
	}

	// Typed before markii started; the prompt is then answered "no".
	r := startOnTerminal(t, home, one, "y\n")
	r.waitFor("Allow?", 1)
	r.typeKeys("\n")
	if out := r.finish(); !strings.Contains(out, "exit 2") || hitsA.Load() != 0 || len(stored()) != 0 {
		t.Fatalf("typed-ahead y answered the prompt: %d hits, grants %v\n%s", hitsA.Load(), stored(), out)
	}

	// Pasted while the first of two prompts showed.
	r = startOnTerminal(t, home, two, "")
	r.waitFor("Allow?", 1)
	r.typeKeys("n\ny\n")
	r.waitFor("Allow?", 2)
	r.typeKeys("\n")
	if out := r.finish(); !strings.Contains(out, "exit 2") || hitsA.Load()+hitsB.Load() != 0 || len(stored()) != 0 {
		t.Fatalf("a pasted answer reached the second prompt: %d+%d hits, grants %v\n%s", hitsA.Load(), hitsB.Load(), stored(), out)
	}

	// Control: an answer typed after the prompt shows is heard.
	r = startOnTerminal(t, home, one, "")
	r.waitFor("Allow?", 1)
	r.typeKeys("y\n")
	if out := r.finish(); !strings.Contains(out, "exit 0") || hitsA.Load() != 1 || len(stored()) != 1 {
		t.Fatalf("control: a real yes was not heard: %d hits, grants %v\n%s", hitsA.Load(), stored(), out)
	}
}

// TestPromptOneQuestionForBuiltAddresses is the weather note's pattern with
// its host replaced by a local server: the script writes the host and
// builds the rest of the address while it runs. One question is asked; it
// names the host, says what happens to requests to other hosts, and is
// wrapped at word boundaries to the terminal's 40 columns. A yes sends
// exactly one request and stores the grant; a no sends none and stores
// nothing. A note whose address is built entirely at run time asks
// nothing and says the request cannot be granted.
func TestPromptOneQuestionForBuiltAddresses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts markii on a pseudo-terminal")
	}
	srv, hits := countingServer(t)
	weather := writeNote(t, "```lua {name=temp}\nlocal params = {\"latitude=52.5\", \"current=temperature_2m\"}\n"+
		"local url = \""+srv.URL+"/v1/forecast?\" .. table.concat(params, \"&\")\nreturn net.fetch_json(url).v\n```\n")
	stored := func(home string) map[string]grants.Record {
		all, _, err := grants.NewStore(state.Open(filepath.Join(home, "state", "markii"), state.Options{})).All()
		if err != nil {
			t.Fatal(err)
		}
		return all
	}

	home := t.TempDir()
	r := startOnTerminalSized(t, home, weather, "", 40)
	r.waitFor("[y/N]", 1)
	r.typeKeys("y\n")
	out := r.finish()
	if !strings.Contains(out, "exit 0") || hits.Load() != 1 || strings.Count(out, "[y/N]") != 1 {
		t.Fatalf("yes: %d requests\n%s", hits.Load(), out)
	}
	var rec grants.Record
	for _, v := range stored(home) {
		rec = v
	}
	if len(stored(home)) != 1 || len(rec.AllowedHosts) != 1 || rec.AllowedHosts[0] != "127.0.0.1" {
		t.Fatalf("stored %v", stored(home))
	}
	question := out[:strings.Index(out, "[y/N]")]
	for _, row := range strings.Split(strings.ReplaceAll(question, "\r", ""), "\n") {
		if len([]rune(row)) > 40 {
			t.Fatalf("a row wider than the terminal: %q\n%s", row, question)
		}
	}
	for _, want := range []string{"127.0.0.1", "any other host is denied"} {
		if !strings.Contains(strings.Join(strings.Fields(question), " "), want) {
			t.Fatalf("the question lacks %q:\n%s", want, question)
		}
	}
	// The question opens with the note's signature status (this note is
	// unsigned), then asks.
	words := append([]string{"Unsigned."}, strings.Fields(grants.Question([]string{"127.0.0.1"}, true, false))...)
	if got := strings.Fields(question); strings.Join(got, " ") != strings.Join(words, " ") {
		t.Fatalf("the question's words were split or lost:\n%q\nwant\n%q", got, words)
	}

	home = t.TempDir()
	r = startOnTerminalSized(t, home, weather, "", 40)
	r.waitFor("[y/N]", 1)
	r.typeKeys("n\n")
	out = r.finish()
	if hits.Load() != 1 || len(stored(home)) != 0 || strings.Count(out, "[y/N]") != 1 {
		t.Fatalf("no: %d requests, grants %v\n%s", hits.Load(), stored(home), out)
	}

	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	built := writeNote(t, "```lua {name=temp}\nreturn net.fetch_json(\"http://127.0.0.1\" .. \":"+port+"/x\").v\n```\n")
	r = startOnTerminalSized(t, home, built, "", 80)
	out = r.finish()
	if strings.Contains(out, "[y/N]") || hits.Load() != 1 || !strings.Contains(out, "cannot be granted") {
		t.Fatalf("built address: %d requests\n%s", hits.Load(), out)
	}
}

// runMarkiiHome runs the markii binary with args and home as its home,
// stdin closed, and returns its standard output, standard error and exit
// code (markiiIn's results in the order this file's tests read them).
func runMarkiiHome(t *testing.T, home string, args ...string) (string, string, int) {
	t.Helper()
	code, out, errOut := markiiIn(t, home, args...)
	return out, errOut, code
}

// TestOfflineRunSaysSo: a granted host that cannot be reached (a closed
// port on 127.0.0.1, a name that does not resolve) is reported as offline
// with the host and the cause, without --verbose, in run, run --json and
// render --run; the value an earlier run stored is kept and shown stale.
func TestOfflineRunSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts markii on a pseudo-terminal")
	}
	home := t.TempDir()
	srv, _ := countingServer(t)
	note := writeNote(t, "Value: :value[v].\n\n```lua {name=v}\nreturn net.fetch_json(\""+srv.URL+"/x\").v\n```\n")
	r := startOnTerminal(t, home, note, "")
	r.waitFor("[y/N]", 1)
	r.typeKeys("y\n")
	if out := r.finish(); !strings.Contains(out, "v: ok") || !strings.Contains(out, "exit 0") {
		t.Fatalf("first run:\n%s", out)
	}
	srv.Close()

	out, errOut, code := runMarkiiHome(t, home, "run", note)
	if !strings.Contains(out, "v: offline: 127.0.0.1 refused the connection (kept 7, stale)") || code == 0 || strings.Contains(out+errOut, "script error") {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = runMarkiiHome(t, home, "run", "--json", note)
	if !strings.Contains(out, `"kind": "offline"`) || !strings.Contains(out, `"outcome": "offline: 127.0.0.1 refused the connection"`) || !strings.Contains(out, `"stale": 7`) {
		t.Fatalf("run --json:\n%s", out)
	}
	out, errOut, _ = runMarkiiHome(t, home, "render", "--run", "--color", "never", note)
	if !strings.Contains(out, "Value: 7 (stale, offline).") || !strings.Contains(errOut, `script "v" failed (offline: 127.0.0.1 refused the connection)`) {
		t.Fatalf("render --run:\n%s\nstderr:\n%s", out, errOut)
	}

	gh := writeNote(t, "```lua {name=stars}\nreturn net.fetch_json(\"https://api.github.invalid/repos/x\").stargazers_count\n```\n")
	r = startOnTerminal(t, home, gh, "")
	r.waitFor("[y/N]", 1)
	r.typeKeys("y\n")
	if out := r.finish(); !strings.Contains(out, "stars: offline: api.github.invalid could not be resolved") {
		t.Fatalf("unresolvable host:\n%s", out)
	}
}
