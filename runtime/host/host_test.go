package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/value"
)

// server is a real HTTP server on 127.0.0.1 that counts every request.
type server struct {
	*httptest.Server
	n atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.n.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) port() string {
	_, p, _ := net.SplitHostPort(s.Listener.Addr().String())
	return p
}

func jsonHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}
}

// person answers grant prompts as scripted and records the questions.
type person struct {
	allow map[string]bool
	asked []string
}

func (p *person) Ask(q string) (bool, error) {
	p.asked = append(p.asked, q)
	return p.allow[q], nil
}

// note is a note's scripts and the device state they run against.
type note struct {
	t      *testing.T
	st     *state.Store
	doc    string
	blocks []script.Block
}

func newNote(t *testing.T, blocks ...script.Block) *note {
	dir := t.TempDir()
	return &note{t: t, st: state.Open(dir, state.Options{}), doc: state.DocumentKey(dir + "/n.mk.md"), blocks: blocks}
}

func (n *note) closure() grants.Closure {
	var c grants.Closure
	for _, b := range n.blocks {
		c.Scripts = append(c.Scripts, grants.Script{Name: b.Name, Lang: b.Lang, Code: b.Source})
	}
	return c
}

// run does what markii run (manual) and a scheduled or auto tick do:
// prepare grants for the trigger, build the host, run the engine in
// process.
func (n *note) run(trigger script.Trigger, p grants.Prompter) (map[string]script.Outcome, *Host) {
	n.t.Helper()
	ctx := context.Background()
	prep, err := grants.Prepare(ctx, script.TierOf(trigger), p, grants.NewStore(n.st), n.doc, n.closure(), grants.Declared{}, nil)
	if err != nil {
		n.t.Fatal(err)
	}
	h := New(Options{Trigger: trigger, Hosts: prep.Decision.Hosts, Client: netclient.New(netclient.Options{Version: "test"})})
	out := map[string]script.Outcome{}
	req := &script.Request{Tier: h.Tier(), Blocks: n.blocks}
	if err := engine.Run(ctx, req, h, func(o script.Outcome) { out[o.Name] = o }); err != nil {
		n.t.Fatal(err)
	}
	return out, h
}

func lua(name, code string) script.Block { return script.Block{Name: name, Lang: "lua", Source: code} }

func TestGrantedAndDeclinedHosts(t *testing.T) {
	good := newServer(t, jsonHandler(`{"stars":42}`))
	bad := newServer(t, jsonHandler(`{"stolen":true}`))
	n := newNote(t,
		lua("stars", fmt.Sprintf(`return net.fetch_json("http://127.0.0.1:%s/repo").stars`, good.port())),
		lua("leak", fmt.Sprintf(`return net.fetch_json("http://localhost:%s/collect?d=secret")`, bad.port())),
	)
	p := &person{allow: map[string]bool{grants.HostQuestion("127.0.0.1"): true}}
	out, h := n.run(script.Manual, p)
	if len(p.asked) != 2 || p.asked[1] != grants.HostQuestion("localhost") {
		t.Fatalf("asked %q", p.asked)
	}
	if out["stars"].Kind != value.Ok || string(out["stars"].Value) != "42" {
		t.Fatalf("stars: %+v", out["stars"])
	}
	if o := out["leak"]; o.Kind != value.CapabilityDenied || o.Capability != script.CapNet || o.Host != "localhost" {
		t.Fatalf("leak: %+v", o)
	}
	if d := h.Denials(); len(d) != 1 || d[0].Host != "localhost" || d[0].Capability != script.CapNet {
		t.Fatalf("denial records %+v", d)
	}
	// Auto and scheduled ticks reuse the manual grant for this exact code
	// and never ask.
	silent := &person{}
	for i := 0; i < 3; i++ {
		for _, trig := range []script.Trigger{script.Auto, script.Scheduled} {
			out, _ = n.run(trig, silent)
			if out["stars"].Kind != value.Ok || out["leak"].Kind != value.CapabilityDenied {
				t.Fatalf("%s tick: %+v", trig, out)
			}
		}
	}
	if len(silent.asked) != 0 {
		t.Fatalf("an unattended run asked %q", silent.asked)
	}
	if bad.n.Load() != 0 {
		t.Fatalf("the declined host's server saw %d requests", bad.n.Load())
	}
	if good.n.Load() != 7 {
		t.Fatalf("the granted host's server saw %d requests, want 7", good.n.Load())
	}
}

func TestFirstUnattendedRunsReachNothing(t *testing.T) {
	srv := newServer(t, jsonHandler(`1`))
	n := newNote(t, lua("a", fmt.Sprintf(`return net.fetch_json("http://127.0.0.1:%s/")`, srv.port())))
	p := &person{allow: map[string]bool{grants.HostQuestion("127.0.0.1"): true}}
	for _, trig := range []script.Trigger{script.Scheduled, script.Auto, script.Scheduled} {
		out, _ := n.run(trig, p)
		if o := out["a"]; o.Kind != value.CapabilityDenied || o.Host != "127.0.0.1" {
			t.Fatalf("%s: %+v", trig, o)
		}
	}
	if len(p.asked) != 0 || srv.n.Load() != 0 {
		t.Fatalf("asked %q, server count %d", p.asked, srv.n.Load())
	}
}

func TestScriptSwappedAfterGrant(t *testing.T) {
	srv := newServer(t, jsonHandler(`{"v":1}`))
	url := fmt.Sprintf("http://127.0.0.1:%s/", srv.port())
	n := newNote(t, lua("a", `return net.fetch_json("`+url+`").v`))
	p := &person{allow: map[string]bool{grants.HostQuestion("127.0.0.1"): true}}
	if out, _ := n.run(script.Manual, p); out["a"].Kind != value.Ok {
		t.Fatalf("manual: %+v", out["a"])
	}
	if out, _ := n.run(script.Scheduled, p); out["a"].Kind != value.Ok {
		t.Fatalf("tick before the swap: %+v", out["a"])
	}
	before := srv.n.Load()
	swaps := []string{
		`return net.fetch_json("` + url + `?user=" .. "me").v`,
		`return net.fetch_json("` + url + `").v `,
		`-- comment
return net.fetch_json("` + url + `").v`,
	}
	for _, code := range swaps {
		n.blocks = []script.Block{lua("a", code)}
		out, _ := n.run(script.Scheduled, p)
		if o := out["a"]; o.Kind != value.CapabilityDenied {
			t.Fatalf("swapped %q: %+v", code, o)
		}
	}
	n.blocks = []script.Block{lua("b", `return net.fetch_json("`+url+`").v`)}
	if out, _ := n.run(script.Auto, p); out["b"].Kind != value.CapabilityDenied {
		t.Fatalf("renamed: %+v", out["b"])
	}
	if srv.n.Load() != before || len(p.asked) != 1 {
		t.Fatalf("after the swap the server saw %d more requests; asked %q", srv.n.Load()-before, p.asked)
	}
}

func TestTierBlocksEffects(t *testing.T) {
	srv := newServer(t, jsonHandler(`{}`))
	post := fmt.Sprintf(`return net.post("http://127.0.0.1:%s/p", "{}").status`, srv.port())
	n := newNote(t, lua("p", post))
	p := &person{allow: map[string]bool{grants.HostQuestion("127.0.0.1"): true}}
	out, _ := n.run(script.Manual, p)
	if out["p"].Kind != value.Ok || string(out["p"].Value) != "200" {
		t.Fatalf("manual post: %+v", out["p"])
	}
	if srv.n.Load() != 1 {
		t.Fatalf("server count %d", srv.n.Load())
	}
	for _, trig := range []script.Trigger{script.Auto, script.Scheduled} {
		out, _ = n.run(trig, p)
		if out["p"].Kind != value.TierBlocked {
			t.Fatalf("%s: %+v", trig, out)
		}
	}
	if srv.n.Load() != 1 {
		t.Fatalf("an auto-tier POST reached the server (%d requests)", srv.n.Load())
	}
	// The host refuses on its own too, whatever the caller does.
	h := New(Options{Trigger: script.Auto, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{})})
	for _, m := range []string{"POST", "PATCH"} {
		_, err := h.Fetch(context.Background(), script.FetchRequest{Method: m, URL: fmt.Sprintf("http://127.0.0.1:%s/p", srv.port())})
		var d *script.Denial
		if !errors.As(err, &d) || !d.TierBlocked || d.Host != "127.0.0.1" {
			t.Fatalf("%s at auto: %v", m, err)
		}
	}
	if err := h.BundleWrite(context.Background(), ".cache/x", []byte("y")); err == nil {
		t.Fatal("bundle.write at auto was allowed")
	}
	if srv.n.Load() != 1 {
		t.Fatalf("server count %d", srv.n.Load())
	}
}

func TestRedirectDenialNamesTheHostAttempted(t *testing.T) {
	other := newServer(t, jsonHandler(`1`))
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+other.port()+"/", http.StatusFound)
	})
	h := New(Options{Trigger: script.Manual, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{})})
	_, err := h.Fetch(context.Background(), script.FetchRequest{Method: "GET", URL: "http://127.0.0.1:" + srv.port() + "/"})
	var d *script.Denial
	if !errors.As(err, &d) || d.Host != "localhost" || d.Capability != script.CapNet {
		t.Fatalf("got %v", err)
	}
	if other.n.Load() != 0 {
		t.Fatal("the redirect target was contacted")
	}
}

func TestOutcomeUnknownIsReported(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		hj, _, _ := w.(http.Hijacker).Hijack()
		hj.Close()
	})
	h := New(Options{Trigger: script.Manual, Hosts: []string{"127.0.0.1"}, Client: netclient.New(netclient.Options{})})
	_, err := h.Fetch(context.Background(), script.FetchRequest{Method: "POST", URL: "http://127.0.0.1:" + srv.port() + "/", Body: "x"})
	var u *script.UnknownOutcome
	if !errors.As(err, &u) || u.Host != "127.0.0.1" {
		t.Fatalf("got %T %v", err, err)
	}
	if srv.n.Load() != 1 || len(h.Diagnostics()) != 1 || !strings.Contains(h.Diagnostics()[0], "not retried") {
		t.Fatalf("count %d diagnostics %q", srv.n.Load(), h.Diagnostics())
	}
}

func TestNoBundleNoPacks(t *testing.T) {
	h := New(Options{Trigger: script.Manual})
	ctx := context.Background()
	var d *script.Denial
	if _, _, err := h.BundleRead(ctx, "assets/x"); !errors.As(err, &d) || d.Capability != script.CapBundle {
		t.Fatalf("read: %v", err)
	}
	if _, err := h.Require(ctx, "ana/http"); !errors.As(err, &d) || d.Capability != script.CapRequire {
		t.Fatalf("pack require: %v", err)
	}
	if _, err := h.Require(ctx, "scripts/util"); !errors.As(err, &d) || d.Capability != script.CapRequire {
		t.Fatalf("bundle require: %v", err)
	}
	if _, err := h.Fetch(ctx, script.FetchRequest{Method: "GET", URL: "http://127.0.0.1/"}); !errors.As(err, &d) {
		t.Fatalf("fetch without a client: %v", err)
	}
	if len(h.Denials()) != 4 {
		t.Fatalf("records %+v", h.Denials())
	}
}

func TestCachePersistence(t *testing.T) {
	dir := t.TempDir()
	st := state.Open(dir, state.Options{})
	doc := "file:///n.mk.md"
	now := time.UnixMilli(1_700_000_000_000)
	c, err := LoadCache(st, doc, now)
	if err != nil {
		t.Fatal(err)
	}
	h := New(Options{Trigger: script.Auto, Cache: c, Now: func() time.Time { return now }})
	if err := h.CachePut(context.Background(), "k", json.RawMessage(`{"a": 1}`)); err != nil {
		t.Fatal(err)
	}
	if err := SaveCache(st, doc, c); err != nil {
		t.Fatal(err)
	}
	c2, _ := LoadCache(state.Open(dir, state.Options{}), doc, now.Add(time.Minute))
	v, at, ok := c2.Get("k")
	if !ok || string(v) != `{"a":1}` || !at.Equal(now) {
		t.Fatalf("%s %v %v", v, at, ok)
	}
	// Entries with untrustworthy timestamps are misses.
	raw := json.RawMessage(`{"neg":{"value":1,"storedAtMs":-5},"frac":{"value":1,"storedAtMs":1.5},
		"future":{"value":1,"storedAtMs":99999999999999},"str":{"value":1,"storedAtMs":"1"},
		"bad":{"value":"x"},"ok":{"value":[1],"storedAtMs":5}}`)
	d := DecodeCache(raw, now)
	for _, k := range []string{"neg", "frac", "future", "str", "bad"} {
		if _, _, ok := d.Get(k); ok {
			t.Errorf("%s was served", k)
		}
	}
	if _, _, ok := d.Get("ok"); !ok {
		t.Error("a good entry was dropped")
	}
}

// TestCacheSizeIsExact checks the running size against the encoding.
func TestCacheSizeIsExact(t *testing.T) {
	c := NewMemoryCache()
	now := time.UnixMilli(1_700_000_000_000)
	for i, v := range []string{`1`, `"<&>"`, `{"a": [1, 2]}`, `"\u00e9"`, `null`} {
		if err := c.Put(fmt.Sprintf("k<%d>é", i%3), json.RawMessage(v), now); err != nil {
			t.Fatal(err)
		}
		enc := encode(c.entries)
		if len(enc) != c.size || !json.Valid(enc) {
			t.Fatalf("size %d, encoding %d bytes: %s", c.size, len(enc), enc)
		}
	}
}

// TestOversizeCacheWriteKeepsEarlierEntries: a cache write that would take
// the note's cache over the cap is refused; the earlier entries, on disk
// and in memory, stay as they were.
func TestOversizeCacheWriteKeepsEarlierEntries(t *testing.T) {
	dir := t.TempDir()
	st := state.Open(dir, state.Options{})
	doc := "file:///n.mk.md"
	now := time.UnixMilli(1_700_000_000_000)
	first := NewMemoryCache()
	first.Put("a", json.RawMessage(`1`), now)
	first.Put("b", json.RawMessage(`"two"`), now)
	if err := SaveCache(st, doc, first); err != nil {
		t.Fatal(err)
	}
	entry := entryPath(t, dir)
	before, _ := os.ReadFile(entry)

	c, _ := LoadCache(st, doc, now)
	h := New(Options{Trigger: script.Auto, Cache: c, Now: func() time.Time { return now }})
	big := json.RawMessage(`"` + strings.Repeat("x", MaxCacheSnapshotBytes) + `"`)
	err := h.CachePut(context.Background(), "big", big)
	var over *state.OverCapError
	if !errors.As(err, &over) || over.Limit != MaxCacheSnapshotBytes {
		t.Fatalf("oversize write: %v", err)
	}
	if diags := h.Diagnostics(); len(diags) != 1 || !strings.Contains(diags[0], `"big" was not cached`) {
		t.Fatalf("diagnostics %q", diags)
	}
	if _, _, ok := c.Get("a"); !ok {
		t.Fatal("an earlier entry was dropped from memory")
	}
	if err := SaveCache(st, doc, c); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(entry); string(after) != string(before) {
		t.Fatalf("the stored cache changed:\n%s\n%s", before, after)
	}
	// Two runs whose writes fit alone but not together: the second save
	// is refused whole and the first run's entries stay byte-identical.
	half := json.RawMessage(`"` + strings.Repeat("y", MaxCacheSnapshotBytes*2/3) + `"`)
	r1, _ := LoadCache(st, doc, now)
	r2, _ := LoadCache(st, doc, now)
	if err := r1.Put("h1", half, now); err != nil {
		t.Fatal(err)
	}
	if err := r2.Put("h2", half, now); err != nil {
		t.Fatal(err)
	}
	if err := SaveCache(st, doc, r1); err != nil {
		t.Fatal(err)
	}
	before, _ = os.ReadFile(entry)
	if err := SaveCache(st, doc, r2); !errors.As(err, &over) {
		t.Fatalf("merged oversize save: %v", err)
	}
	if after, _ := os.ReadFile(entry); string(after) != string(before) {
		t.Fatal("a refused save changed the stored cache")
	}
}

// entryPath is the one entry file under dir/notes.
func entryPath(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "notes", "*.json"))
	if len(m) != 1 {
		t.Fatalf("entry files %v", m)
	}
	return m[0]
}
