package isolate

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestMain dispatches worker mode: /proc/self/exe is this test binary, so
// the workers the tests start come back here.
func TestMain(m *testing.M) {
	if IsWorker() {
		for _, arg := range os.Args[2:] {
			if arg == exitAtOnceArg {
				os.Exit(0)
			}
			if strings.HasPrefix(arg, "forge-") {
				os.Exit(forgeWorker(strings.TrimPrefix(arg, "forge-")))
			}
		}
		// As markii's main does.
		debug.SetMemoryLimit(WorkerMemoryLimit)
		os.Exit(serveWorker(testRunner))
	}
	os.Exit(m.Run())
}

// testRunner is the worker's runner in tests: the real engine, except that
// a block whose language starts with "test-" runs a Go behaviour that no
// Lua script can reach, to exercise the host's side of the isolate.
func testRunner(ctx context.Context, req *script.Request, host script.Host, emit func(script.Outcome)) error {
	for i := 0; i < len(req.Blocks); i++ {
		b := req.Blocks[i]
		if !strings.HasPrefix(b.Lang, "test-") {
			j := i
			for j < len(req.Blocks) && !strings.HasPrefix(req.Blocks[j].Lang, "test-") {
				j++
			}
			sub := *req
			sub.Blocks = req.Blocks[i:j]
			if err := engine.Run(ctx, &sub, host, emit); err != nil {
				return err
			}
			i = j - 1
			continue
		}
		switch b.Lang {
		case "test-limits":
			v, _ := json.Marshal(req.Limits)
			emit(script.Outcome{Name: b.Name, Kind: value.Ok, Value: v})
		case "test-spin":
			// Busy in Go, deaf to the context: only the host can end it.
			for n := 0; ; n++ {
				_ = n * n
			}
		case "test-alloc":
			// Grows the heap a megabyte per millisecond, ignoring the context.
			var keep [][]byte
			for {
				chunk := make([]byte, 1<<20)
				for j := range chunk {
					chunk[j] = byte(j)
				}
				keep = append(keep, chunk)
				time.Sleep(time.Millisecond)
			}
		case "test-huge":
			// One allocation far past the kernel's data limit.
			huge := make([]byte, min(3<<30, math.MaxInt))
			huge[len(huge)-1] = 1
			emit(script.Outcome{Name: b.Name, Kind: value.Ok, Value: json.RawMessage(fmt.Sprint(len(huge)))})
		case "test-probe":
			v, _ := json.Marshal(probeConfinement())
			emit(script.Outcome{Name: b.Name, Kind: value.Ok, Value: v})
		case "test-deny-then-claim":
			// The host refuses; the worker then reports a different host.
			_, err := host.Fetch(ctx, script.FetchRequest{Method: "GET", URL: b.Source})
			emit(script.Outcome{Name: b.Name, Kind: value.CapabilityDenied, Capability: script.CapNet, Host: "forged.example", Detail: fmt.Sprint(err)})
		case "test-claim-unknown":
			// No request was made; the worker claims one was lost.
			emit(script.Outcome{Name: b.Name, Kind: value.OutcomeUnknown, Capability: script.CapNet, Host: "forged.example"})
		}
	}
	return nil
}

// forgeWorker is a worker that speaks the protocol until the run request
// arrives and then sends the forged message named by kind.
func forgeWorker(kind string) int {
	in := os.NewFile(3, "isolate-requests")
	out := os.NewFile(4, "isolate-responses")
	if err := confine(); err != nil {
		return exitConfine
	}
	w := &workerConn{out: out, pending: map[uint64]chan *reply{}, closed: make(chan struct{})}
	_ = w.send(&readyMsg{})
	body, err := readFrame(in, MaxFrame)
	if err != nil {
		return exitProtocol
	}
	run, req, err := runRequest(body)
	if err != nil {
		return exitProtocol
	}
	w.run.Store(run)
	name := req.Blocks[0].Name
	raw := func(v any) {
		b, _ := json.Marshal(v)
		head := make([]byte, 4)
		binary.BigEndian.PutUint32(head, uint32(len(b)))
		_, _ = out.Write(append(head, b...))
	}
	good := map[string]any{"name": name, "kind": "ok", "value": 7}
	switch kind {
	case "version":
		raw(map[string]any{"v": ProtocolVersion + 1, "run": run, "type": msgOutcome, "outcome": good})
	case "extrakey":
		raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgOutcome, "outcome": good, "token": "x"})
	case "nestedkey":
		raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgOutcome,
			"outcome": map[string]any{"name": name, "kind": "ok", "value": 7, "authority": "host"}})
	case "runid":
		raw(map[string]any{"v": ProtocolVersion, "run": run + 1, "type": msgOutcome, "outcome": good})
		_ = w.send(&doneMsg{})
	case "oversize":
		head := make([]byte, 4)
		binary.BigEndian.PutUint32(head, MaxFrame+1)
		_, _ = out.Write(append(head, make([]byte, 1024)...))
	case "wrongname":
		raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgOutcome,
			"outcome": map[string]any{"name": name + "-other", "kind": "ok", "value": 7}})
	case "direction":
		raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgRun, "req": req})
	case "deepvalue":
		raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgOutcome,
			"outcome": map[string]any{"name": name, "kind": "ok", "value": json.RawMessage(strings.Repeat("[", 100) + strings.Repeat("]", 100))}})
		_ = w.send(&doneMsg{})
	case "claimlimit":
		raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgOutcome,
			"outcome": map[string]any{"name": name, "kind": "limit", "limit": "patience"}})
		_ = w.send(&doneMsg{})
	case "callflood":
		// Many calls at once to a host that never answers them.
		for i := 1; i <= 20; i++ {
			raw(map[string]any{"v": ProtocolVersion, "run": run, "type": msgCall, "id": i,
				"call": map[string]any{"op": opFetch, "fetch": map[string]any{"method": "GET", "url": req.Blocks[0].Source}}})
		}
	case "stall":
		// Says nothing more: no heartbeat, no result.
	}
	time.Sleep(30 * time.Second)
	return exitOK
}

// recorder collects emitted outcomes and checks they arrive on one
// goroutine.
type recorder struct {
	mu  sync.Mutex
	out []script.Outcome
}

func (r *recorder) emit(o script.Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.out = append(r.out, o)
}

func (r *recorder) outcomes() []script.Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]script.Outcome(nil), r.out...)
}

// testHost is a capability broker at the isolate's boundary: it fetches
// from 127.0.0.1 servers it was told to allow, refuses every other host,
// and keeps bundle files and cache entries in memory.
type testHost struct {
	allowed map[string]bool
	client  *http.Client

	mu     sync.Mutex
	files  map[string][]byte
	cache  map[string]json.RawMessage
	cached map[string]time.Time
}

func newTestHost(allowed ...string) *testHost {
	h := &testHost{
		allowed: map[string]bool{},
		client:  &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}},
		files:   map[string][]byte{},
		cache:   map[string]json.RawMessage{},
		cached:  map[string]time.Time{},
	}
	for _, a := range allowed {
		h.allowed[a] = true
	}
	return h
}

func (h *testHost) Fetch(ctx context.Context, r script.FetchRequest) (script.FetchResponse, error) {
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, strings.NewReader(r.Body))
	if err != nil {
		return script.FetchResponse{}, err
	}
	if !h.allowed[req.URL.Host] {
		return script.FetchResponse{}, &script.Denial{Capability: script.CapNet, Host: req.URL.Hostname(), Reason: "network access to " + req.URL.Hostname() + " was not granted"}
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return script.FetchResponse{}, err
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return script.FetchResponse{Status: resp.StatusCode, Body: b.String()}, nil
}

func (h *testHost) BundleRead(_ context.Context, path string) ([]byte, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.files[path]
	return d, ok, nil
}

func (h *testHost) BundleExists(_ context.Context, path string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.files[path]
	return ok, nil
}

func (h *testHost) BundleWrite(_ context.Context, path string, data []byte) error {
	if !strings.HasPrefix(path, ".cache/") {
		return &script.Denial{Capability: script.CapBundle, Reason: "bundle writes go only to .cache/"}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.files[path] = data
	return nil
}

func (h *testHost) CacheGet(_ context.Context, key string) (json.RawMessage, time.Time, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.cache[key]
	return v, h.cached[key], ok, nil
}

func (h *testHost) CachePut(_ context.Context, key string, value json.RawMessage) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cache[key] = value
	h.cached[key] = time.Now()
	return nil
}

func (h *testHost) Require(_ context.Context, name string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	src, ok := h.files[name]
	if !ok {
		return "", fmt.Errorf("module %q not found", name)
	}
	return string(src), nil
}

// silentServer accepts connections on 127.0.0.1 and never answers.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			// Read the request and never answer; let go once the
			// client hangs up.
			go func() {
				_, _ = io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

func request(limits script.Limits, blocks ...script.Block) *script.Request {
	return &script.Request{Tier: script.TierManual, Blocks: blocks, Limits: limits}
}

func lua(name, src string) script.Block { return script.Block{Name: name, Lang: "lua", Source: src} }

func goBlock(name, lang string) script.Block { return script.Block{Name: name, Lang: lang} }

// runOn runs req on pool with host and returns the outcomes, the error and
// the time taken.
func runOn(t *testing.T, pool *Pool, req *script.Request, host script.Host) ([]script.Outcome, error, time.Duration) {
	t.Helper()
	if host == nil {
		host = newTestHost()
	}
	var rec recorder
	start := time.Now()
	err := pool.Run(context.Background(), req, host, rec.emit)
	took := time.Since(start)
	out := rec.outcomes()
	if len(out) != len(req.Blocks) {
		t.Fatalf("got %d outcomes for %d blocks: %+v", len(out), len(req.Blocks), out)
	}
	for i, o := range out {
		if o.Name != req.Blocks[i].Name {
			t.Fatalf("outcome %d is for %q, want %q", i, o.Name, req.Blocks[i].Name)
		}
	}
	return out, err, took
}
