package audit

import (
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/state"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func newLog(t *testing.T, o Options) (*Log, string) {
	t.Helper()
	dir := t.TempDir()
	return ForStore(state.Open(dir, state.Options{}), o), dir
}

func TestAppendRead(t *testing.T) {
	l, dir := newLog(t, Options{})
	host := "api.example.org"
	path, query := SplitURL("https://" + host + "/v1/items?token=SECRET&x=1")
	if path != "/v1/items" || !strings.HasPrefix(query, "sha256:") || strings.Contains(query, "SECRET") {
		t.Fatalf("SplitURL: %q %q", path, query)
	}
	recs := []Record{
		{Run: "r1", Event: EventRun, Note: "file:///n.mk.md", Trigger: "manual", Signature: "trusted", Signer: "alice"},
		{Run: "r1", Event: EventRequest, Method: "GET", Host: host, Path: path, Query: query, Decision: Allowed, Status: 200, BytesIn: 12},
		{Run: "r1", Event: EventEnd},
	}
	if err := l.Append(true, recs...); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("trail mode: %v %v", fi, err)
	}
	got, damaged, err := l.Read(nil)
	if err != nil || len(damaged) != 0 || len(got) != 3 {
		t.Fatalf("read %d records, damaged %v, err %v", len(got), damaged, err)
	}
	if got[1].Host != host || got[1].Status != 200 || got[1].Prev == "" || got[0].Prev != "" {
		t.Fatalf("record: %+v", got[1])
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if bytes.Contains(raw, []byte("SECRET")) {
		t.Fatal("the query string reached the trail")
	}
	if problems, n, err := l.Verify(); err != nil || len(problems) != 0 || n != 3 {
		t.Fatalf("verify: %v %d %v", problems, n, err)
	}
}

// TestHostileStrings: a note's strings cannot split a record or add a
// field to it.
func TestHostileStrings(t *testing.T) {
	l, dir := newLog(t, Options{})
	forged := `x","decision":"allowed","v":1}` + "\n" + `{"v":1,"run":"forged","event":"request","decision":"allowed","prev":""}`
	hostile := []string{
		forged,
		"evil.example\r\n\x1b[2J\x1b]0;title\x07",
		"\u202eexe.txt\u2066\u2069\u200b",
		"\u2028\u2029\x85\x00",
		string([]byte{0xff, 0xfe, '\n'}),
		strings.Repeat("A\n", 5000),
	}
	for _, h := range hostile {
		if err := l.Append(false, Record{Run: "r", Event: EventRequest, Host: h, Path: "/" + h, Reason: h, Script: h}); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if n := bytes.Count(raw, []byte{'\n'}); n != len(hostile) {
		t.Fatalf("%d lines for %d records", n, len(hostile))
	}
	for _, c := range []byte{'\r', 0x1b, 0x07, 0} {
		if bytes.IndexByte(raw, c) >= 0 {
			t.Fatalf("a raw control byte %#x reached the trail", c)
		}
	}
	got, damaged, err := l.Read(nil)
	if err != nil || len(damaged) != 0 || len(got) != len(hostile) {
		t.Fatalf("read %d, damaged %v, %v", len(got), damaged, err)
	}
	for i, r := range got {
		if r.Run != "r" || r.Decision != "" {
			t.Fatalf("record %d was forged: %+v", i, r)
		}
	}
	if got[0].Host != forged {
		t.Fatalf("a hostile host did not round-trip: %q", got[0].Host)
	}
	if len(got[5].Host) > maxField+len("…") {
		t.Fatalf("a field was not bounded: %d bytes", len(got[5].Host))
	}
	if problems, _, _ := l.Verify(); len(problems) != 0 {
		t.Fatal(problems)
	}
}

func appendN(t *testing.T, l *Log, run string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := l.Append(false, Record{Run: run, Event: EventRequest, Method: "GET", Host: "h.example", Status: 200 + i}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifyFindsEdits(t *testing.T) {
	l, dir := newLog(t, Options{})
	appendN(t, l, "r", 5)
	path := filepath.Join(dir, FileName)
	orig, _ := os.ReadFile(path)
	origHead, _ := os.ReadFile(filepath.Join(dir, HeadName))

	edited := bytes.Replace(orig, []byte(`"status":202`), []byte(`"status":299`), 1)
	write(t, path, edited)
	problems, _, _ := l.Verify()
	if len(problems) != 1 || problems[0].Line != 4 {
		t.Fatalf("edited line 3: %v", problems)
	}

	lines := bytes.SplitAfter(orig, []byte{'\n'})
	removed := bytes.Join(append(append([][]byte{}, lines[:2]...), lines[3:]...), nil)
	write(t, path, removed)
	// The chain breaks at line 3, and the file is shorter than its head.
	if problems, _, _ := l.Verify(); len(problems) != 2 || problems[0].Line != 3 || !strings.Contains(problems[1].Why, "shorter") {
		t.Fatalf("removed line 3: %v", problems)
	}

	// A torn last line: the next append starts a new line, the torn one is
	// reported, and the chain goes on.
	write(t, path, append(append([]byte{}, orig...), []byte(`{"v":1,"run":"torn","ev`)...))
	appendN(t, l, "after", 2)
	problems, n, _ := l.Verify()
	if len(problems) != 1 || problems[0].Line != 6 || n != 8 {
		t.Fatalf("torn line: %v (%d lines)", problems, n)
	}
	recs, damaged, err := l.Read(nil)
	if err != nil || len(recs) != 7 || len(damaged) != 1 {
		t.Fatalf("read after tear: %d %v %v", len(recs), damaged, err)
	}

	write(t, path, orig)
	write(t, filepath.Join(dir, HeadName), origHead)
	if problems, _, _ := l.Verify(); len(problems) != 0 {
		t.Fatalf("original: %v", problems)
	}
}

// TestVerifyFindsAnEditedLastLine: the last line has no record after it
// to carry its hash; the chain head does, so an edit of it is found at
// once, and stays found after later appends.
func TestVerifyFindsAnEditedLastLine(t *testing.T) {
	l, dir := newLog(t, Options{})
	appendN(t, l, "r", 3)
	path := filepath.Join(dir, FileName)
	orig, _ := os.ReadFile(path)
	if problems, n, err := l.Verify(); err != nil || len(problems) != 0 || n != 3 {
		t.Fatalf("whole trail: %v %d %v", problems, n, err)
	}
	// Same length, so only the hash can tell.
	edited := bytes.Replace(orig, []byte(`"status":202`), []byte(`"status":299`), 1)
	if len(edited) != len(orig) || bytes.Equal(edited, orig) {
		t.Fatal("the edit did not apply")
	}
	write(t, path, edited)
	problems, _, _ := l.Verify()
	if len(problems) != 1 || problems[0].Line != 3 || !strings.Contains(problems[0].Why, "changed") {
		t.Fatalf("an edited last line: %v", problems)
	}
	// A record appended after the edit chains to what markii wrote, so
	// the edit is still found, now by the record after it.
	appendN(t, l, "later", 1)
	problems, _, _ = l.Verify()
	if len(problems) != 1 || problems[0].Line != 4 {
		t.Fatalf("after a later append: %v", problems)
	}

	// The last line removed.
	write(t, path, orig)
	l2, dir2 := newLog(t, Options{})
	appendN(t, l2, "r", 3)
	p2 := filepath.Join(dir2, FileName)
	data, _ := os.ReadFile(p2)
	lines := bytes.SplitAfter(data, []byte{'\n'})
	write(t, p2, bytes.Join(lines[:2], nil))
	if problems, _, _ := l2.Verify(); len(problems) != 1 || !strings.Contains(problems[0].Why, "shorter") {
		t.Fatalf("a removed last line: %v", problems)
	}
	// A line added by hand at the end, chained correctly, is still not
	// one markii wrote.
	write(t, p2, data)
	forged := fmt.Sprintf(`{"v":1,"time":"2026-01-01T00:00:00Z","run":"x","event":"end","prev":%q}`+"\n", lineHash(bytes.TrimSuffix(lines[2], []byte{'\n'})))
	write(t, p2, append(append([]byte{}, data...), forged...))
	if problems, _, _ := l2.Verify(); len(problems) != 1 || !strings.Contains(problems[0].Why, "goes on past") {
		t.Fatalf("a line added by hand: %v", problems)
	}
	// A damaged head is reported, and the next append goes on from the
	// trail itself.
	write(t, p2, data)
	write(t, filepath.Join(dir2, HeadName), []byte("{garbage"))
	if problems, _, _ := l2.Verify(); len(problems) != 1 || !strings.Contains(problems[0].String(), HeadName) {
		t.Fatalf("a damaged head: %v", problems)
	}
	appendN(t, l2, "after", 1)
	if problems, n, _ := l2.Verify(); len(problems) != 0 || n != 4 {
		t.Fatalf("after the head was restored: %v (%d lines)", problems, n)
	}
}

// TestDamagedLineIsNotFatal: a garbage line in the trail is skipped and
// reported by Read and Verify; appends go on.
func TestDamagedLineIsNotFatal(t *testing.T) {
	l, dir := newLog(t, Options{})
	appendN(t, l, "r", 2)
	path := filepath.Join(dir, FileName)
	data, _ := os.ReadFile(path)
	write(t, path, append(data, "not json at all\n"...))
	appendN(t, l, "r2", 2)
	recs, damaged, err := l.Read(nil)
	if err != nil || len(recs) != 4 || len(damaged) != 1 || damaged[0].Line != 3 {
		t.Fatalf("read: %d records, damaged %v, %v", len(recs), damaged, err)
	}
	problems, _, err := l.Verify()
	if err != nil || len(problems) != 1 || problems[0].Line != 3 {
		t.Fatalf("verify: %v %v", problems, err)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRotation(t *testing.T) {
	l, dir := newLog(t, Options{MaxBytes: 2000, Keep: 2})
	appendN(t, l, "r", 60)
	files := l.Files()
	if len(files) != 3 {
		t.Fatalf("files %v", files)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "audit*.jsonl"))
	if len(names) != 3 {
		t.Fatalf("kept %v", names)
	}
	if problems, _, err := l.Verify(); err != nil || len(problems) != 0 {
		t.Fatalf("verify across rotated files: %v %v", problems, err)
	}
	recs, _, _ := l.Read(nil)
	if len(recs) == 0 || recs[len(recs)-1].Status != 259 {
		t.Fatalf("newest record lost: %d records", len(recs))
	}
}

// TestRotationRenames: a full trail is renamed, not copied or rewritten:
// the rotated file is the very file the records were written to.
func TestRotationRenames(t *testing.T) {
	l, dir := newLog(t, Options{MaxBytes: 1000, Keep: 2})
	appendN(t, l, "r", 1)
	before, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		appendN(t, l, "r", 1)
		if _, err := os.Stat(filepath.Join(dir, "audit.1.jsonl")); err == nil {
			break
		}
	}
	after, err := os.Stat(filepath.Join(dir, "audit.1.jsonl"))
	if err != nil {
		t.Fatal("the trail never rotated")
	}
	if !os.SameFile(before, after) {
		t.Fatal("rotation wrote a new file instead of renaming the full one")
	}
	if problems, _, err := l.Verify(); err != nil || len(problems) != 0 {
		t.Fatalf("verify across the rotation: %v %v", problems, err)
	}
}

func TestRefusesLinkAndPipe(t *testing.T) {
	l, dir := newLog(t, Options{})
	target := filepath.Join(t.TempDir(), "elsewhere")
	write(t, target, nil)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(false, Record{Run: "r", Event: EventEnd}); err == nil {
		t.Fatal("appended through a symbolic link")
	}
	if data, _ := os.ReadFile(target); len(data) != 0 {
		t.Fatal("the link's target was written")
	}
}

func TestLedger(t *testing.T) {
	l, _ := newLog(t, Options{})
	id := EffectID("file:///n", "key", "POST", "https://x.example/a", []byte("body"), 0)
	if id == EffectID("file:///n", "key", "POST", "https://x.example/a", []byte("body"), 1) {
		t.Fatal("the second identical request of a run has the same id")
	}
	claim := Record{Run: "r1", Effect: id, Method: "POST", Host: "x.example"}
	if err := l.Claim(claim, true); err != nil {
		t.Fatal(err)
	}
	if err := l.Settle(Record{Run: "r1", Effect: id, Failure: FailUnknown}, false); err != nil {
		t.Fatal(err)
	}
	var ce *ClaimedError
	claim.Run = "r2"
	if err := l.Claim(claim, false); !errors.As(err, &ce) || ce.Claim.Run != "r1" {
		t.Fatalf("a repeated claim was not refused: %v", err)
	}
	open, _ := l.OpenClaims()
	if _, ok := open[id]; !ok || len(open) != 1 {
		t.Fatalf("open claims %v", open)
	}
	claim.Run = "r3"
	if err := l.Claim(claim, true); err != nil {
		t.Fatalf("a run by hand could not claim again: %v", err)
	}
	if err := l.Settle(Record{Run: "r3", Effect: id, Status: 201}, true); err != nil {
		t.Fatal(err)
	}
	if open, _ := l.OpenClaims(); len(open) != 0 {
		t.Fatalf("a known outcome left the claim open: %v", open)
	}
	claim.Run = "r4"
	if err := l.Claim(claim, false); err != nil {
		t.Fatalf("a settled effect was refused: %v", err)
	}
	recs, _, _ := l.Read(func(r Record) bool { return r.Event == EventClaim })
	if len(recs) != 3 || !strings.Contains(recs[1].Reason, "by hand") {
		t.Fatalf("claims: %+v", recs)
	}
}

const helperEnv = "MARKII_AUDIT_HELPER"

// TestMain lets the concurrency test run this test binary as a helper
// process that appends records to a shared state directory.
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		id := os.Getenv(helperEnv + "_ID")
		l := ForStore(state.Open(dir, state.Options{LockWait: time.Minute}), Options{})
		for i := 0; i < 25; i++ {
			r := Record{Run: id, Event: EventRequest, Host: strings.Repeat("h", 100*i), Status: i}
			if err := l.Append(i%5 == 0, r); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestConcurrentProcesses: 40 processes appending at once lose no record
// and tear no line.
func TestConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	const procs = 40
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^$")
		cmds[i].Env = append(os.Environ(), helperEnv+"="+dir, helperEnv+"_ID=p"+strconv.Itoa(i))
		var stderr bytes.Buffer
		cmds[i].Stderr = &stderr
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("helper %d: %v %s", i, err, c.Stderr)
		}
	}
	l := ForStore(state.Open(dir, state.Options{}), Options{})
	recs, damaged, err := l.Read(nil)
	if err != nil || len(damaged) != 0 {
		t.Fatalf("damaged %v, %v", damaged, err)
	}
	if len(recs) != procs*25 {
		t.Fatalf("%d records, want %d", len(recs), procs*25)
	}
	per := map[string][]int{}
	for _, r := range recs {
		per[r.Run] = append(per[r.Run], r.Status)
	}
	for run, statuses := range per {
		if len(statuses) != 25 || !sort.IntsAreSorted(statuses) {
			t.Fatalf("%s: %v", run, statuses)
		}
	}
	if problems, _, _ := l.Verify(); len(problems) != 0 {
		t.Fatalf("verify: %v", problems)
	}
}

// TestAppendNeverReadsTheTrail: an append takes the previous record's
// hash from the chain head and writes through a write-only handle; the
// trail's contents are never read on the run path. The trail here is
// 100 MB of zero bytes (a sparse file) under a head that describes it: had
// any of it been read, the append would have taken its end for a torn
// line (adding a line feed) and chained to the hash of what it read.
func TestAppendNeverReadsTheTrail(t *testing.T) {
	l, dir := newLog(t, Options{})
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	const size = 100 << 20
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	const want = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	if err := l.writeHead(head{Size: size, Hash: want}); err != nil {
		t.Fatal(err)
	}
	appendN(t, l, "r", 3)
	g, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	fi, _ := g.Stat()
	rest := make([]byte, fi.Size()-size)
	if _, err := g.ReadAt(rest, size); err != nil {
		t.Fatal(err)
	}
	if len(rest) == 0 || rest[0] != '{' {
		t.Fatalf("the append read the trail: it wrote %q first", rest[:min(len(rest), 1)])
	}
	var first Record
	if err := json.Unmarshal(rest[:bytes.IndexByte(rest, '\n')], &first); err != nil || first.Prev != want {
		t.Fatalf("the first record chains to %q, not the head's hash (%v)", first.Prev, err)
	}
	h, ok := l.readHead()
	if !ok || h.Size != fi.Size() {
		t.Fatalf("head %+v after appends, file %d bytes", h, fi.Size())
	}
}
