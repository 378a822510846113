package isolate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// workerArg is the hidden first argument that starts the binary in worker
// mode. It is not a command: the CLI never sees it.
const workerArg = "__markii-isolate-worker__"

// warmUpArg asks a worker that will wait idle to warm up before it says it
// is ready; a worker started for a run at once skips that.
const warmUpArg = "-warm-up"

// Worker exit codes. They are diagnostics only: the host classifies a run
// from its own records.
const (
	exitOK         = 0
	exitNotStarted = 64
	exitProtocol   = 65
	exitConfine    = 66
	exitMemory     = 67
)

const (
	// hangUpWait bounds how long a worker that sent "done" waits for the
	// host to end it before it exits by itself.
	hangUpWait        = 2 * time.Second
	heartbeatInterval = 100 * time.Millisecond
	heapPollInterval  = 5 * time.Millisecond
)

// Runner runs a request's scripts. engine.Run has this signature, and so
// does Run, so a caller can use either.
type Runner func(ctx context.Context, req *script.Request, host script.Host, emit func(script.Outcome)) error

// IsWorker reports whether this process was started as an isolate worker.
// main calls it before anything else.
func IsWorker() bool {
	return len(os.Args) >= 2 && os.Args[1] == workerArg
}

// WorkerMemoryLimit is the soft memory limit a worker runs under. The
// program sets it (the collector's settings are the program's to make)
// before it calls WorkerMain; the worker's heap monitor stays below it.
const WorkerMemoryLimit = 192 << 20

// WorkerMain serves one run as an isolate worker and exits. It confines the
// process before reading the request and never returns.
func WorkerMain() {
	os.Exit(serveWorker(engineRunner))
}

// serveWorker is the whole life of a worker: confine, announce readiness,
// read one run request, run it with every capability forwarded to the host,
// report, and return the exit code.
func serveWorker(run Runner) int {
	_ = os.Stdin.Close()
	inFile, out, code := openWorker()
	if code != exitOK {
		return code
	}
	if slices.Contains(os.Args[2:], warmUpArg) {
		warmUp(run)
	}
	w := &workerConn{out: out, pending: map[uint64]chan *reply{}, closed: make(chan struct{})}
	if err := w.send(&readyMsg{}); err != nil {
		return exitProtocol
	}
	// The first script's state is built while the request is on its way
	// (or, in a warm worker, while it waits).
	engine.Prepare()
	// Buffered, so that a frame's length and body arrive in one read.
	in := bufio.NewReaderSize(inFile, frameBuffer)
	stop := make(chan struct{})
	runID, r, code := w.readRequest(in, stop)
	if r == nil {
		return code
	}
	req := *r
	req.Limits = req.Limits.Clamp()
	lowerCPULimit(req.Limits.RunTime)
	w.run.Store(runID)

	go w.readReplies(in)
	go w.watchHeap(stop, heapBudget(req.Limits.Memory))

	ctx, cancel := context.WithTimeout(context.Background(), req.Limits.RunTime)
	defer cancel()
	runErr := run(ctx, &req, &forwardingHost{w: w}, func(o script.Outcome) {
		_ = w.send(&outcomeMsg{Outcome: &o})
	})
	return w.finish(runErr, stop)
}

// openWorker checks that the worker was started by markii (its request
// and response pipes are descriptors 3 and 4) and confines the process;
// code is exitOK or the exit code of the failure.
func openWorker() (in, out *os.File, code int) {
	in = os.NewFile(3, "isolate-requests")
	out = os.NewFile(4, "isolate-responses")
	if !isPipe(in) || !isPipe(out) {
		fmt.Fprintln(os.Stderr, "markii: the isolate worker mode is started by markii itself, not by hand")
		return nil, nil, exitNotStarted
	}
	if err := confine(); err != nil {
		fmt.Fprintln(os.Stderr, "markii worker: cannot confine the isolate:", err)
		return nil, nil, exitConfine
	}
	return in, out, exitOK
}

// readRequest reads and decodes the run request. The heartbeat (stopped
// by closing stop) starts as soon as the request is in: decoding a large
// one takes time, and the beats before it is decoded carry no run id.
// Without a request it returns the exit code: exitOK when the host retired
// an idle worker.
func (w *workerConn) readRequest(in *bufio.Reader, stop chan struct{}) (uint64, *script.Request, int) {
	body, err := readFrame(in, MaxRunFrame)
	if errors.Is(err, io.EOF) {
		return 0, nil, exitOK
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "markii worker:", err)
		return 0, nil, exitProtocol
	}
	go w.heartbeat(stop)
	runID, r, err := runRequest(body)
	if err != nil {
		fmt.Fprintln(os.Stderr, "markii worker:", err)
		return 0, nil, exitProtocol
	}
	return runID, r, exitOK
}

// finish reports the end of the run and waits, a short while, for the
// host to end the worker: exiting at once would have the process teardown
// compete with the host for the processor while it finishes the run.
func (w *workerConn) finish(runErr error, stop chan struct{}) int {
	done := &doneMsg{}
	if runErr != nil {
		done.Error = runErr.Error()
	}
	err := w.send(done)
	close(stop)
	if err != nil {
		return exitProtocol
	}
	t := time.NewTimer(hangUpWait)
	defer t.Stop()
	select {
	case <-w.closed:
	case <-t.C:
	}
	return exitOK
}

// runRequest decodes the worker's first frame, which must be a run
// request with a run id and limits within the ceiling.
func runRequest(frame []byte) (uint64, *script.Request, error) {
	m, err := decodeMessage(frame, false)
	if err != nil {
		return 0, nil, err
	}
	r, ok := m.Body.(*runMsg)
	if !ok || m.Run == 0 || r.Req == nil {
		return 0, nil, protocolErrorf("first message must be a run request with a run id")
	}
	if !withinCeiling(r.Req.Limits) {
		return 0, nil, protocolErrorf("run request limits are outside the ceiling")
	}
	return m.Run, r.Req, nil
}

// isPipe reports whether f is an open pipe, as the host's protocol
// descriptors are.
func isPipe(f *os.File) bool {
	if f == nil {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeNamedPipe != 0
}

// warmUp runs a fixed script once before the worker says it is ready, so
// the first-use costs of a fresh process (code pages, lazily built tables)
// are paid while the worker waits idle rather than during a run. No input
// from the host has been read yet.
func warmUp(run Runner) {
	req := &script.Request{
		Tier:   script.TierAuto,
		Blocks: []script.Block{{Name: "warm-up", Lang: "lua", Source: "local t = {} for i = 1, 10 do t[i] = i * i end return table.concat(t, ',')"}},
		Limits: script.Ceiling,
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var outcome script.Outcome
	_ = run(ctx, req, engine.DenyAll{}, func(o script.Outcome) { outcome = o })
	// The first use of each message type builds encoding/json's per-type
	// tables; build them now, on messages that go nowhere.
	var sink bytes.Buffer
	_ = writeFrame(&sink, &message{V: ProtocolVersion, Run: 1, Body: &runMsg{Req: req}})
	if body, err := readFrame(&sink, MaxRunFrame); err == nil {
		_, _ = decodeMessage(body, false)
	}
	_ = writeFrame(&sink, &message{V: ProtocolVersion, Run: 1, Body: &replyMsg{ID: 1, Reply: &reply{Fetch: &script.FetchResponse{Status: 200, Body: "{}"}}}})
	if body, err := readFrame(&sink, MaxRunFrame); err == nil {
		_, _ = decodeMessage(body, false)
	}
	_ = writeWorkerFrame(io.Discard, &message{Run: 1, Body: &outcomeMsg{Outcome: &outcome}})
	_ = writeWorkerFrame(io.Discard, &message{Run: 1, Body: &callMsg{ID: 1, Call: &call{Op: opFetch, Fetch: &script.FetchRequest{Method: "GET", URL: "https://example.com/"}}}})
	// Touch heap pages now and hand them back to the allocator, so the run
	// reuses memory this process has already faulted in (a page fault is
	// the largest cost of a fresh process's first allocations).
	prefault := make([]byte, prefaultBytes)
	for i := 0; i < len(prefault); i += 4096 {
		prefault[i] = 1
	}
	runtime.KeepAlive(prefault)
	runtime.GC()
}

// prefaultBytes is how much heap a warm worker touches before it waits:
// more than a typical run allocates.
const prefaultBytes = 2 << 20

// heapBudget is the heap size at which the worker reports a memory breach:
// twice the run's memory budget (Go values are larger than Lua's own
// accounting) plus room for the runtime, and always below the Go memory
// limit so the report comes before the kernel's limit.
func heapBudget(memory int64) uint64 {
	b := uint64(2*memory) + 16<<20
	if ceiling := uint64(WorkerMemoryLimit) * 3 / 4; b > ceiling {
		b = ceiling
	}
	return b
}

// workerConn is the worker's end of the wire.
type workerConn struct {
	run atomic.Uint64

	writeMu sync.Mutex
	out     io.Writer

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan *reply
	closed  chan struct{}
}

// send writes one message of this worker's run.
func (w *workerConn) send(p payload) error {
	m := &message{V: ProtocolVersion, Run: w.run.Load(), Body: p}
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	return writeWorkerFrame(w.out, m)
}

// readReplies delivers the host's replies to the calls waiting for them. A
// reply for another run is dropped; a malformed message ends the worker.
func (w *workerConn) readReplies(in io.Reader) {
	defer close(w.closed)
	for {
		body, err := readFrame(in, MaxRunFrame)
		if err != nil {
			return
		}
		m, err := decodeMessage(body, false)
		if err != nil {
			fmt.Fprintln(os.Stderr, "markii worker:", err)
			os.Exit(exitProtocol)
		}
		r, ok := m.Body.(*replyMsg)
		if !ok || m.Run != w.run.Load() {
			continue
		}
		w.mu.Lock()
		ch, ok := w.pending[r.ID]
		delete(w.pending, r.ID)
		w.mu.Unlock()
		if ok {
			ch <- r.Reply
		}
	}
}

func (w *workerConn) heartbeat(stop <-chan struct{}) {
	t := time.NewTicker(heartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if w.send(&heartbeatMsg{}) != nil {
				return
			}
		}
	}
}

// watchHeap reports a memory breach and ends the worker once the live heap
// passes budget, before the kernel's data limit kills it less cleanly.
func (w *workerConn) watchHeap(stop <-chan struct{}, budget uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	t := time.NewTicker(heapPollInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > budget {
				_ = w.send(&breachMsg{Limit: script.LimitMemory})
				os.Exit(exitMemory)
			}
		}
	}
}

// call sends one capability request and waits for its reply.
func (w *workerConn) call(ctx context.Context, c *call) (*reply, error) {
	ch := make(chan *reply, 1)
	w.mu.Lock()
	w.nextID++
	id := w.nextID
	w.pending[id] = ch
	w.mu.Unlock()
	forget := func() {
		w.mu.Lock()
		delete(w.pending, id)
		w.mu.Unlock()
	}
	if err := w.send(&callMsg{ID: id, Call: c}); err != nil {
		forget()
		return nil, fmt.Errorf("the host did not take the request: %w", err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	case <-w.closed:
		forget()
		return nil, errors.New("the host closed the connection")
	}
}

// forwardingHost is the worker's script.Host: every capability is a request
// to the host process, which holds the grants, the network and the files.
type forwardingHost struct {
	w *workerConn
}

func (h *forwardingHost) do(ctx context.Context, c *call) (*reply, error) {
	r, err := h.w.call(ctx, c)
	if err != nil {
		return nil, err
	}
	switch r.Failure {
	case value.CapabilityDenied, value.TierBlocked:
		return nil, &script.Denial{Capability: capabilityOf(c.Op), Host: r.Host, TierBlocked: r.Failure == value.TierBlocked, Reason: r.Error}
	case value.OutcomeUnknown:
		return nil, &script.UnknownOutcome{Host: r.Host, Reason: r.Error}
	}
	if r.Net != nil {
		return nil, &netclient.Error{Kind: r.Net.Kind, Sent: r.Net.Sent, Cause: r.Net.Cause, Host: r.Host, Msg: r.Error}
	}
	if r.Error != "" {
		return nil, errors.New(r.Error)
	}
	return r, nil
}

// Fetch asks the host to make a network request.
func (h *forwardingHost) Fetch(ctx context.Context, req script.FetchRequest) (script.FetchResponse, error) {
	r, err := h.do(ctx, &call{Op: opFetch, Fetch: &req})
	if err != nil {
		return script.FetchResponse{}, err
	}
	if r.Fetch == nil {
		return script.FetchResponse{}, errors.New("the host sent no response")
	}
	return *r.Fetch, nil
}

// BundleRead asks the host for a bundle file.
func (h *forwardingHost) BundleRead(ctx context.Context, path string) ([]byte, bool, error) {
	r, err := h.do(ctx, &call{Op: opBundleRead, Path: path})
	if err != nil {
		return nil, false, err
	}
	return r.Data, r.Found, nil
}

// BundleExists asks the host whether a bundle file exists.
func (h *forwardingHost) BundleExists(ctx context.Context, path string) (bool, error) {
	r, err := h.do(ctx, &call{Op: opBundleExists, Path: path})
	if err != nil {
		return false, err
	}
	return r.Found, nil
}

// BundleWrite asks the host to write a bundle file.
func (h *forwardingHost) BundleWrite(ctx context.Context, path string, data []byte) error {
	_, err := h.do(ctx, &call{Op: opBundleWrite, Path: path, Data: data})
	return err
}

// CacheGet asks the host for a cached value.
func (h *forwardingHost) CacheGet(ctx context.Context, key string) (json.RawMessage, time.Time, bool, error) {
	r, err := h.do(ctx, &call{Op: opCacheGet, Key: key})
	if err != nil || !r.Found {
		return nil, time.Time{}, false, err
	}
	var at time.Time
	if r.StoredAt != nil {
		at = *r.StoredAt
	}
	return r.Value, at, true, nil
}

// CachePut asks the host to store a cached value.
func (h *forwardingHost) CachePut(ctx context.Context, key string, value json.RawMessage) error {
	_, err := h.do(ctx, &call{Op: opCachePut, Key: key, Value: value})
	return err
}

// Require asks the host for a module's source.
func (h *forwardingHost) Require(ctx context.Context, name string) (string, error) {
	r, err := h.do(ctx, &call{Op: opRequire, Name: name})
	if err != nil {
		return "", err
	}
	return r.Source, nil
}
