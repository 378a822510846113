package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
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

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/state"
)

// homeEnv is the environment of the real binary in home.
func homeEnv(home string) []string {
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "PATH=" + os.Getenv("PATH")}
}

// markiiIn runs the real binary in home and returns its exit code and
// output.
func markiiIn(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(markiiBinary(t), args...)
	cmd.Env = homeEnv(home)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestAuditShowsATerminalRun: markii run on a terminal posts to a local
// server after the person allows it; markii audit then shows the run, the
// request with its decision and result, the effect's claim and the
// script's outcome, and never the query string's text or the body.
func TestAuditShowsATerminalRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts markii on a pseudo-terminal")
	}
	home := t.TempDir()
	var posts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id":1}`)
	}))
	t.Cleanup(srv.Close)
	note := writeNote(t, "```lua {name=send}\nreturn net.post(\""+srv.URL+"/submit?token=SECRET\", \"body-SECRET\").status\n```\n")
	// The note is signed by a key the reader trusts.
	key, pub := signingKey(t, t.TempDir(), "ed25519")
	trusted := &testEnv{home: home}
	trusted.trustKey(t, "alice@example.org", pub)
	if code, _, errs := markiiIn(t, home, "sign", note, "--key", key); code != 0 {
		t.Fatalf("sign: %s", errs)
	}
	r := startOnTerminal(t, home, note, "")
	r.waitFor("Allow?", 1)
	r.typeKeys("y\n")
	if out := r.finish(); !strings.Contains(out, "exit 0") || posts.Load() != 1 || !strings.Contains(out, "signed by alice@example.org") {
		t.Fatalf("the run: %d posts\n%s", posts.Load(), out)
	} else if q := strings.Join(strings.Fields(out[:strings.Index(out, "[y/N]")]), " "); !strings.HasPrefix(q, "Signed by alice@example.org. A signature grants nothing. This note's scripts") {
		// The question opens with the signature status.
		t.Fatalf("the question: %q", q)
	}
	code, out, errs := markiiIn(t, home, "audit")
	if code != 0 {
		t.Fatalf("audit: %d %s", code, errs)
	}
	for _, want := range []string{
		"run ", " manual ", "signed by alice@example.org", "granted 127.0.0.1",
		"claim ", "net POST 127.0.0.1/submit?⟨sha256:", "allowed → 201 (11 B out, 8 B in)",
		"settle ", `script "send": ok`, "end 1 scripts, 0 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("audit lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SECRET") {
		t.Fatalf("the query or body reached the listing:\n%s", out)
	}
	if code, out, _ := markiiIn(t, home, "audit", "--verify"); code != 0 || !strings.Contains(out, "whole") {
		t.Fatalf("verify: %d %s", code, out)
	}
	// render --run may not post: the worker asks, the host refuses and
	// records the request with why.
	markiiIn(t, home, "render", "--run", note)
	if posts.Load() != 1 {
		t.Fatalf("render --run posted: %d", posts.Load())
	}
	_, out, _ = markiiIn(t, home, "audit")
	if want := "net POST 127.0.0.1/submit?⟨sha256:"; strings.Count(out, want) != 2 || !strings.Contains(out, "denied: a POST request is only available on a manual run") {
		t.Fatalf("the refused POST of render --run is not in the trail:\n%s", out)
	}
	if n := strings.Count(out, "signed by alice@example.org"); n != 2 {
		t.Fatalf("render --run recorded the signature wrongly (%d runs signed):\n%s", n, out)
	}
	// --host and NOTE filter; --json is one record a line.
	if _, out, _ := markiiIn(t, home, "audit", "--host", "elsewhere.example"); strings.Contains(out, "POST") {
		t.Fatalf("--host kept another host:\n%s", out)
	}
	// --host names the host as the grant did, however it is spelled.
	for _, spelling := range []string{"127.0.0.1", "2130706433", "0x7f.0.0.1"} {
		if _, out, _ := markiiIn(t, home, "audit", "--host", spelling); strings.Count(out, "net POST 127.0.0.1/submit") != 2 {
			t.Fatalf("--host %s did not keep the POSTs to 127.0.0.1:\n%s", spelling, out)
		}
	}
	if code, _, errs := markiiIn(t, home, "audit", "--host", "not a host"); code != ExitUsage || !strings.Contains(errs, "--host") {
		t.Fatalf("--host 'not a host': %d %s", code, errs)
	}
	_, out, _ = markiiIn(t, home, "audit", "--json", note)
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var rec audit.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("--json line %q: %v", sc.Text(), err)
		}
		n++
	}
	if n != 10 {
		t.Fatalf("--json gave %d records:\n%s", n, out)
	}
	if code, _, errs := markiiIn(t, home, "audit", "--since", "-5m"); code != ExitUsage || !strings.Contains(errs, "--since") {
		t.Fatalf("--since -5m: %d %s", code, errs)
	}
}

// TestAuditVerifyFindsAnEditedLine: changing one recorded status makes
// markii audit --verify fail and name the line after it.
func TestAuditVerifyFindsAnEditedLine(t *testing.T) {
	env := newTestEnv(t)
	l := audit.ForStore(env.state(t), audit.Options{})
	for i := 0; i < 4; i++ {
		if err := l.Append(false, audit.Record{Run: "r", Event: audit.EventRequest, Method: "GET", Host: "a.example", Status: 200 + i}); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, _ := env.run("audit", "--verify"); code != 0 || !strings.Contains(out, "4 records") {
		t.Fatalf("whole trail: %d %q", code, out)
	}
	path := filepath.Join(env.stateDir(t), audit.FileName)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"status":201`, `"status":500`, 1)), 0o600)
	code, out, errs := env.run("audit", "--verify")
	if code != 1 || !strings.Contains(out, "audit.jsonl line 3") || !strings.Contains(errs, "not whole") {
		t.Fatalf("edited trail: %d %q %q", code, out, errs)
	}
	// The listing still works and reports nothing damaged (the line parses).
	if code, out, _ := env.run("audit"); code != 0 || !strings.Contains(out, "500") {
		t.Fatalf("listing: %d %q", code, out)
	}
	// A torn line is skipped and reported, never fatal.
	os.WriteFile(path, append(data, []byte(`{"v":1,"run":"r","ev`)...), 0o600)
	code, out, errs = env.run("audit")
	if code != 0 || !strings.Contains(errs, "line 5") || strings.Count(out, "GET") != 4 {
		t.Fatalf("torn line: %d %q %q", code, out, errs)
	}
}

// TestAuditVerifyFindsAnEditedLastLine: the last record has none after it
// to carry its hash; markii audit --verify still finds an edit of it, and
// a run on the edited trail still runs and records.
func TestAuditVerifyFindsAnEditedLastLine(t *testing.T) {
	env := newTestEnv(t)
	l := audit.ForStore(env.state(t), audit.Options{})
	for i := 0; i < 3; i++ {
		if err := l.Append(false, audit.Record{Run: "r", Event: audit.EventRequest, Method: "GET", Host: "a.example", Status: 200 + i}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(env.stateDir(t), audit.FileName)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"status":202`, `"status":200`, 1)), 0o600)
	code, out, errs := env.run("audit", "--verify")
	if code != 1 || !strings.Contains(out, "audit.jsonl line 3") || !strings.Contains(errs, "not whole") {
		t.Fatalf("edited last line: %d %q %q", code, out, errs)
	}
	note := writeNote(t, "# n\n\n```lua {name=v}\nreturn 1\n```\n")
	if code, _, errs := env.run("run", note); code != 0 {
		t.Fatalf("a run on an edited trail: %d %s", code, errs)
	}
	if code, out, _ := env.run("audit", "--verify"); code != 1 || !strings.Contains(out, "audit.jsonl line 4") {
		t.Fatalf("after a run: %d %q", code, out)
	}
}

// TestAuditShowsHostileStringsInertly: a note's escapes, bidi controls
// and line breaks in a host or path are shown as code points, on one line.
func TestAuditShowsHostileStringsInertly(t *testing.T) {
	env := newTestEnv(t)
	l := audit.ForStore(env.state(t), audit.Options{})
	hostile := "evil\u202e.example\x1b[2J\nrun fake manual"
	l.Append(false, audit.Record{Run: "r", Event: audit.EventRun, Note: "file:///n", Trigger: "manual"},
		audit.Record{Run: "r", Event: audit.EventRequest, Method: "GET", Host: hostile, Path: "/\r\x07", Decision: audit.Denied, Reason: hostile})
	code, out, _ := env.run("audit")
	if code != 0 || strings.ContainsAny(out, "\x1b\x07\r\u202e") || strings.Count(out, "\n") != 2 {
		t.Fatalf("%d %q", code, out)
	}
	if !strings.Contains(out, "⟨U+202E⟩") || !strings.Contains(out, "⟨U+000A⟩") {
		t.Fatalf("invisible characters are not shown: %q", out)
	}
}

// TestConcurrentRunsLoseNoRecord: 40 markii run processes on one state
// directory write every record whole.
func TestConcurrentRunsLoseNoRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 40 markii processes")
	}
	home := t.TempDir()
	const procs = 40
	notes := make([]string, 4)
	for i := range notes {
		notes[i] = writeNote(t, fmt.Sprintf("```lua {name=v}\nreturn %d\n```\n", i))
	}
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmds[i] = exec.Command(markiiBinary(t), "run", notes[i%len(notes)])
		cmds[i].Env = homeEnv(home)
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	st := state.Open(filepath.Join(home, "state", "markii"), state.Options{})
	l := audit.ForStore(st, audit.Options{})
	recs, damaged, err := l.Read(nil)
	if err != nil || len(damaged) != 0 {
		t.Fatalf("damaged %v %v", damaged, err)
	}
	count := map[audit.Event]int{}
	runs := map[string]int{}
	for _, r := range recs {
		count[r.Event]++
		runs[r.Run]++
	}
	if count[audit.EventRun] != procs || count[audit.EventOutcome] != procs || count[audit.EventEnd] != procs || len(runs) != procs {
		t.Fatalf("records by event %v, %d runs", count, len(runs))
	}
	for id, n := range runs {
		if n != 3 {
			t.Fatalf("run %s has %d records", id, n)
		}
	}
	if problems, _, _ := l.Verify(); len(problems) != 0 {
		t.Fatalf("verify: %v", problems)
	}
}

// TestConcurrentRunsKeepEveryAuditRecord: 40 markii run processes at once
// on one state directory: every run's records are in the trail, whole,
// each run under its own id, and the chain (head included) verifies.
func TestConcurrentRunsKeepEveryAuditRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("builds markii and runs 40 processes")
	}
	bin := markiiBinary(t)
	home := t.TempDir()
	note := writeNote(t, "```lua {name=v}\nreturn 6 * 7\n```\n")
	const procs = 40
	errs := make(chan error, procs)
	var wg sync.WaitGroup
	for i := 0; i < procs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "run", note)
			cmd.Env = homeEnv(home)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	l := audit.ForStore(state.Open(filepath.Join(home, "state", "markii"), state.Options{}), audit.Options{})
	recs, damaged, err := l.Read(nil)
	if err != nil || len(damaged) != 0 {
		t.Fatalf("damaged %v, %v", damaged, err)
	}
	runs := map[string][]audit.Event{}
	for _, r := range recs {
		runs[r.Run] = append(runs[r.Run], r.Event)
	}
	if len(runs) != procs {
		t.Fatalf("%d runs in the trail, want %d", len(runs), procs)
	}
	for id, events := range runs {
		if fmt.Sprint(events) != "[run outcome end]" {
			t.Fatalf("run %s: %v", id, events)
		}
	}
	if problems, n, err := l.Verify(); err != nil || len(problems) != 0 || n != 3*procs {
		t.Fatalf("verify: %v, %d lines, %v", problems, n, err)
	}
}
