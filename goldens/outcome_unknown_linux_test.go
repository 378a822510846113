package goldens

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// screen collects what a child writes to its terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want.
func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q; it shows:\n%s", want, s.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLostPostIsOutcomeUnknownThroughTheBinary runs the real binary, whose
// scripts run in the real isolate: a POST whose connection closes after
// the server read its body is reported as outcome-unknown, never as a
// plain failure, and a later unattended run neither sends it again nor
// replaces the stored outcome-unknown; a manual run does.
func TestLostPostIsOutcomeUnknownThroughTheBinary(t *testing.T) {
	bin := markiiBinary(t)
	var bodies atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err == nil && bodies.Add(1) > 1 {
			// Only the first request loses its answer.
			w.Write([]byte("{}"))
			return
		}
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()

	home := t.TempDir()
	env := append(baseEnv(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "TERM=dumb")
	note := filepath.Join(t.TempDir(), "post.mk.md")
	src := "Sent: :value[sent]\n\n```lua {name=sent}\nnet.post(\"" + srv.URL + "/order\", \"{}\")\nreturn \"sent\"\n```\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}

	// The grant is given on the terminal, as a person would.
	control, term := openPty(t)
	defer control.Close()
	defer term.Close()
	var shown screen
	go io.Copy(&shown, control)
	var stdout bytes.Buffer
	cmd := exec.Command(bin, "run", "--json", note)
	cmd.Env = env
	cmd.Stdin, cmd.Stderr, cmd.Stdout = term, term, &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A run that stops hearing its terminal fails the test instead of
	// hanging it.
	stuck := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer stuck.Stop()
	shown.waitFor(t, "Allow?")
	if _, err := control.Write([]byte("y\r")); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 2 {
		t.Fatalf("markii run exited %d (%v), want 2; terminal:\n%s", code, err, shown.String())
	}
	var results []struct {
		Name, Outcome, Kind string
	}
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil {
		t.Fatalf("markii run --json wrote %q: %v", stdout.String(), err)
	}
	if len(results) != 1 || results[0].Kind != "outcome-unknown" ||
		!strings.Contains(results[0].Outcome, "outcome unknown: the request may have taken effect") {
		t.Fatalf("results %+v, want one outcome-unknown", results)
	}
	if n := bodies.Load(); n != 1 {
		t.Fatalf("the server read %d requests, want 1", n)
	}

	// An unattended run never sends the request again: an effectful
	// request needs a manual run.
	out, stderr, code := runMarkiiFull(bin, []string{"render", "--run", "--color", "none", note}, env, nil)
	if n := bodies.Load(); n != 1 {
		t.Fatalf("render --run sent the request again (%d requests); stderr %s", n, stderr)
	}
	if code != 2 || !strings.Contains(stderr, "tier-blocked") {
		t.Fatalf("render --run exited %d: %q %s", code, out, stderr)
	}
	// Nor does it overwrite what is stored: the note still says the
	// request may have taken effect, after that run and in what is
	// stored (export draws the stored values), until a run the user starts
	// replaces it.
	const unknown = "outcome unknown: the request may have taken effect"
	if !strings.Contains(string(out), unknown) {
		t.Fatalf("render --run drew %q, want the stored %q", out, unknown)
	}
	stored := []string{"export", "--format", "ansi", "--color", "never", "-o", "-", note}
	if out, stderr, code := runMarkiiFull(bin, stored, env, nil); code != 0 || !strings.Contains(string(out), unknown) {
		t.Fatalf("export after render --run exited %d, drew %q (%s), want %q", code, out, stderr, unknown)
	}
	if out, stderr, code := runMarkiiFull(bin, []string{"run", note}, env, nil); code != 0 || bodies.Load() != 2 {
		t.Fatalf("the manual run exited %d with %d requests: %s %s", code, bodies.Load(), out, stderr)
	}
	out, stderr, code = runMarkiiFull(bin, stored, env, nil)
	if code != 0 || !strings.Contains(string(out), "Sent: sent") || strings.Contains(string(out), unknown) {
		t.Fatalf("export after the manual run exited %d, drew %q (%s), want the new value", code, out, stderr)
	}
}
