package isolate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

const (
	// startTimeout bounds how long a worker may take to confine itself and
	// say it is ready.
	startTimeout = 5 * time.Second
	// heartbeatTimeout is the silence after which a worker is taken for
	// wedged and killed, when that comes before the run's deadline.
	heartbeatTimeout = 3 * time.Second
	// exitGrace is how long a worker that sent its last message may take to
	// exit on its own before it is killed.
	exitGrace = 500 * time.Millisecond
	// callDrain bounds how long the host waits, after a run settles, for
	// capability calls still in the host to notice their cancelled context.
	callDrain = time.Second
	// maxInFlight bounds the capability calls one worker may have waiting
	// in the host. The engine makes one at a time; a flood is a violation.
	maxInFlight = 8
	// rssInterval is how often the host reads the worker's resident size.
	rssInterval = 10 * time.Millisecond
)

var memoryEnding = ending{kind: value.LimitExceeded, limit: script.LimitMemory,
	detail: "the scripts used more memory than allowed and were stopped"}

// memoryKillRSS is the peak resident size above which a worker that died or
// fell silent is taken to have run out of memory: the heap size at which
// the worker reports a breach, plus room for the runtime and the binary.
func memoryKillRSS(l script.Limits) int64 {
	if raceBuild {
		// The race detector's shadow memory swells every worker.
		return math.MaxInt64
	}
	return int64(heapBudget(l.Memory)) + 32<<20
}

// lastRunID is the source of the monotonic run ids on the wire.
var lastRunID atomic.Uint64

// ending is how a run ended when it did not end by the worker's own "done":
// the kind given to every script that has no outcome yet.
type ending struct {
	kind   value.Kind
	limit  script.LimitKind
	detail string
}

// session is one run on one worker, seen from the host.
type session struct {
	p     *proc
	run   uint64
	req   script.Request
	host  script.Host
	emit  func(script.Outcome)
	limit script.Limits

	next int // index of the block whose outcome comes next
	// peakRSS is the largest resident size of the worker the host has
	// read from the kernel during the run.
	peakRSS int64
	// untrusted is set once the worker broke the protocol; nothing more it
	// sends is accepted.
	untrusted bool

	callCtx    context.Context
	cancelCall context.CancelFunc
	calls      sync.WaitGroup
	inFlight   atomic.Int32

	mu sync.Mutex
	// denials are the host's own refusals, by block.
	denials map[int]*script.Denial
	// lost are the effectful requests the host sent whose answer was
	// lost, by block.
	lost map[int]*script.UnknownOutcome
	// net is the last network request of each block that failed
	// otherwise (the network or the server), by block.
	net map[int]*netRecord
}

// netRecord is the host's record of a failed network request: the host it
// went to and how it failed.
type netRecord struct {
	host    string
	failure script.NetFailure
}

// execute runs req on the started worker p and emits exactly one outcome per
// block, settling once. The worker is killed and reaped in the background
// after the run settles, tracked by reapers, so a finished run does not
// wait for a process exit.
func execute(ctx context.Context, p *proc, req *script.Request, host script.Host, emit func(script.Outcome), reapers *sync.WaitGroup) error {
	s := &session{
		p:       p,
		run:     lastRunID.Add(1),
		req:     *req,
		host:    host,
		emit:    emit,
		limit:   req.Limits.Clamp(),
		denials: map[int]*script.Denial{},
		lost:    map[int]*script.UnknownOutcome{},
		net:     map[int]*netRecord{},
	}
	s.req.Limits = s.limit
	s.req.RunID = s.run
	s.callCtx, s.cancelCall = context.WithCancel(ctx)
	reapers.Add(1)
	defer func() {
		go func() {
			defer reapers.Done()
			p.close()
		}()
	}()
	defer s.cancelCall()

	if err := p.awaitReady(ctx); err != nil {
		s.settle(ending{kind: value.Crashed, detail: err.Error()})
		return err
	}
	if err := p.send(&message{Run: s.run, Body: &runMsg{Req: &s.req}}); err != nil {
		var big *FrameSizeError
		if errors.As(err, &big) {
			// Nothing was sent: the scripts are too large to hand over,
			// which is not the worker's fault.
			s.settle(ending{kind: value.ScriptError, detail: fmt.Sprintf(
				"the note's scripts are too large to run: they take %d bytes to hand to the sandbox, over its %d-byte cap", big.Size, big.Limit)})
			return nil
		}
		e := s.endFromExit(fmt.Errorf("the script isolate did not take the run: %w", err))
		s.settle(e)
		return nil
	}
	e, err := s.loop(ctx)
	s.settle(e)
	return err
}

// loop serves the worker until the run ends and says how it ended. A zero
// ending means the worker finished and every block has its outcome.
func (s *session) loop(ctx context.Context) (ending, error) {
	deadline := time.NewTimer(s.limit.RunTime)
	defer deadline.Stop()
	silence := time.NewTimer(heartbeatTimeout)
	defer silence.Stop()
	rss := time.NewTicker(rssInterval)
	defer rss.Stop()
	for {
		select {
		case r, ok := <-s.p.msgs:
			if e, end := s.receive(r, ok, silence); end {
				return e, nil
			}
		case <-deadline.C:
			s.p.kill()
			return ending{kind: value.LimitExceeded, limit: script.LimitTimeout,
				detail: fmt.Sprintf("the scripts ran past the %s limit for the whole note and were stopped", s.limit.RunTime)}, nil
		case <-rss.C:
			// The host's own memory bound, beside the worker's monitor and
			// the kernel's data limit.
			if s.sampleRSS(); s.peakRSS >= memoryKillRSS(s.limit) {
				s.p.kill()
				return memoryEnding, nil
			}
		case <-silence.C:
			return s.silent(), nil
		case <-ctx.Done():
			s.p.kill()
			return ending{kind: value.Crashed, detail: "the run was cancelled"}, ctx.Err()
		}
	}
}

// receive acts on one read from the worker (ok false: its messages
// ended); a message of this run resets the silence timer. end reports that
// the run ended, as e says.
func (s *session) receive(r frameResult, ok bool, silence *time.Timer) (e ending, end bool) {
	if !ok {
		return s.endFromExit(nil), true
	}
	if r.err != nil {
		return s.violation(r.err), true
	}
	if !s.ours(r.msg) {
		// A message from another run is stale or forged: dropped.
		return ending{}, false
	}
	silence.Reset(heartbeatTimeout)
	return s.handle(r.msg)
}

// ours reports whether m belongs to this run. A worker beats with no run
// id while it decodes the request; a beat only keeps the watchdog's
// silence timer from firing, never its deadline.
func (s *session) ours(m *message) bool {
	return m.Run == s.run || (m.kind() == msgHeartbeat && m.Run == 0)
}

// silent ends a run whose worker fell silent. A worker starved by its own
// memory use falls silent before the kernel ends it; its peak size, from
// the kernel, says so.
func (s *session) silent() ending {
	s.sampleRSS()
	s.p.kill()
	if s.peakRSS >= memoryKillRSS(s.limit) {
		return memoryEnding
	}
	return ending{kind: value.Crashed, detail: "the script isolate stopped responding and was stopped"}
}

// handle acts on one message of this run from the worker; end reports
// that the run ended, as e says.
func (s *session) handle(m *message) (e ending, end bool) {
	switch b := m.Body.(type) {
	case *heartbeatMsg:
	case *outcomeMsg:
		if err := s.accept(b); err != nil {
			return s.violation(err), true
		}
	case *callMsg:
		if s.inFlight.Load() >= maxInFlight {
			return s.violation(protocolErrorf("more than %d capability calls at once", maxInFlight)), true
		}
		s.serve(b.ID, b.Call, s.next)
	case *breachMsg:
		if b.Limit != script.LimitMemory {
			return s.violation(protocolErrorf("breach of unknown limit %q", b.Limit)), true
		}
		s.p.kill()
		return memoryEnding, true
	case *doneMsg:
		if s.next < len(s.req.Blocks) {
			return ending{kind: value.Crashed, detail: "the script isolate finished without a result for this script"}, true
		}
		s.p.kill()
		return ending{}, true
	default:
		return s.violation(protocolErrorf("unexpected %s message during a run", m.kind())), true
	}
	return ending{}, false
}

// sampleRSS records the worker's resident size if it is a new peak.
func (s *session) sampleRSS() {
	if n := s.p.resident(); n > s.peakRSS {
		s.peakRSS = n
	}
}

// violation ends a run whose worker broke the protocol: the worker is no
// longer trusted and nothing more it sent is accepted.
func (s *session) violation(err error) ending {
	s.p.kill()
	s.untrusted = true
	return ending{kind: value.Crashed, detail: "the script isolate sent an invalid message and was stopped: " + err.Error()}
}

// accept checks an outcome against the host's records and emits it.
func (s *session) accept(m *outcomeMsg) error {
	o := m.Outcome
	if o == nil || s.next >= len(s.req.Blocks) {
		return protocolErrorf("outcome for no pending script")
	}
	if o.Name != s.req.Blocks[s.next].Name {
		return protocolErrorf("outcome for %q while %q runs", o.Name, s.req.Blocks[s.next].Name)
	}
	s.mu.Lock()
	d, u, n := s.denials[s.next], s.lost[s.next], s.net[s.next]
	s.mu.Unlock()
	s.emit(reconcile(*o, &m.shape, hostRecords{denial: d, lost: u, net: n}, s.limit))
	s.next++
	return nil
}

// hostRecords are the host's own records of a block's failed calls: its
// first refusal, its first lost effectful request, and its last network
// request that failed otherwise.
type hostRecords struct {
	denial *script.Denial
	lost   *script.UnknownOutcome
	net    *netRecord
}

// reconcile checks an outcome against the host's records and its value,
// as measured when its frame was read (shape), against the run's marshal
// limits. A refusal the
// host made is described by the host's record, whatever the worker says
// about it; a refusal the engine made inside the worker (a response
// over the script's cap or budget, after the host recorded the request)
// has no host record and keeps the engine's own, which no script can
// reach; every capability decision itself (the tier, the grants, a
// bundle) is the host's. An unknown outcome stands only on the host's
// record of the request it sent and lost, and is described by that
// record; the worker cannot claim one. A script error the worker says a
// failed network request caused carries the host's record of that
// request (its host and how it failed), or nothing when the host holds
// none; it is offline when that record says the request never reached a
// server (NetFailure.FailedKind). A script that caught a refusal or a lost answer and then failed
// otherwise stays a script error, as it would in process. Kinds and
// limits outside the closed sets become script errors.
func reconcile(o script.Outcome, shape *valueShape, rec hostRecords, l script.Limits) script.Outcome {
	switch o.Kind {
	case value.Ok:
		return reconcileOk(o, shape, l)
	case value.Crashed:
		return script.Outcome{Name: o.Name, Kind: value.Crashed, Detail: o.Detail}
	case value.LimitExceeded:
		if slices.Contains(workerLimits[:], o.Limit) {
			return script.Outcome{Name: o.Name, Kind: o.Kind, Limit: o.Limit, Detail: o.Detail}
		}
	case value.CapabilityDenied, value.TierBlocked:
		return reconcileDenial(o, rec.denial)
	case value.OutcomeUnknown:
		if u := rec.lost; u != nil {
			return script.Outcome{Name: o.Name, Kind: value.OutcomeUnknown, Capability: script.CapNet, Host: u.Host, Detail: u.Reason,
				Net: script.NetFailureOf(u.Err)}
		}
	case value.ScriptError, value.Offline:
		return reconcileNet(o, rec.net)
	}
	return script.Outcome{Name: o.Name, Kind: value.ScriptError, Detail: o.Detail}
}

// workerLimits are the limits a worker may report going over.
var workerLimits = [...]script.LimitKind{script.LimitInstructions, script.LimitTimeout, script.LimitMemory}

// reconcileOk keeps a value within the run's marshal limits, as measured
// when its frame was read; any other is a script error.
func reconcileOk(o script.Outcome, shape *valueShape, l script.Limits) script.Outcome {
	if err := shape.check(l); err != nil {
		return script.Outcome{Name: o.Name, Kind: value.ScriptError, Detail: err.Error()}
	}
	return script.Outcome{Name: o.Name, Kind: value.Ok, Value: o.Value}
}

// reconcileNet is a script error the worker says a failed network request
// caused: offline or not is the host's record's to say (FailedKind), and
// without that record, or without the worker's claim, it is a plain
// script error.
func reconcileNet(o script.Outcome, n *netRecord) script.Outcome {
	if o.Net == nil || n == nil {
		return script.Outcome{Name: o.Name, Kind: value.ScriptError, Detail: o.Detail}
	}
	f := n.failure
	return script.Outcome{Name: o.Name, Kind: f.FailedKind(), Capability: script.CapNet, Host: n.host, Detail: o.Detail, Net: &f}
}

// reconcileDenial describes a refusal by the host's record d when there is
// one, else by the engine's own.
func reconcileDenial(o script.Outcome, d *script.Denial) script.Outcome {
	out := script.Outcome{Name: o.Name, Kind: o.Kind, Capability: o.Capability, Host: o.Host, Reason: o.Reason, Detail: o.Detail}
	if d != nil {
		out.Kind = value.CapabilityDenied
		if d.TierBlocked {
			out.Kind = value.TierBlocked
		}
		out.Capability = d.Capability
		out.Host = d.Host
		out.Reason = d.Why
		out.Net = script.NetFailureOf(d.Err)
	}
	return out
}

// serve performs one capability call in the host, records a refusal, and
// replies. It runs beside the loop so a call that never returns cannot hold
// up the watchdog.
func (s *session) serve(id uint64, c *call, block int) {
	s.calls.Add(1)
	s.inFlight.Add(1)
	go func() {
		defer s.calls.Done()
		defer s.inFlight.Add(-1)
		rep, err := s.perform(c)
		if err != nil {
			rep = s.record(block, c, err)
		}
		err = s.p.send(&message{Run: s.run, Body: &replyMsg{ID: id, Reply: rep}})
		var big *FrameSizeError
		if errors.As(err, &big) {
			// Too large to frame: the script gets an error instead.
			rep = &reply{Error: fmt.Sprintf("the result is larger than the %d bytes a script can be handed", MaxFrame)}
			_ = s.p.send(&message{Run: s.run, Body: &replyMsg{ID: id, Reply: rep}})
		}
	}()
}

// record keeps the host's own account of a failed call for block (a
// refusal, an effectful request whose answer was lost, or a network
// request that failed otherwise) and returns the reply that tells the
// worker the failure's kind.
func (s *session) record(block int, c *call, err error) *reply {
	var (
		d  *script.Denial
		u  *script.UnknownOutcome
		ne *netclient.Error
	)
	// The host names the host it tried; the URL's is worked out here only
	// when it does not.
	hostOr := func(named string) string {
		if named == "" && c.Fetch != nil {
			return netclient.HostOf(c.Fetch.URL)
		}
		return named
	}
	switch {
	case errors.As(err, &d):
		rec := d.Record(capabilityOf(c.Op), hostOr(d.Host))
		s.mu.Lock()
		if s.denials[block] == nil {
			s.denials[block] = &rec
		}
		s.mu.Unlock()
		kind := value.CapabilityDenied
		if d.TierBlocked {
			kind = value.TierBlocked
		}
		return &reply{Failure: kind, Host: rec.Host, Error: d.Reason}
	case errors.As(err, &u):
		rec := *u
		rec.Host = hostOr(rec.Host)
		s.mu.Lock()
		if s.lost[block] == nil {
			s.lost[block] = &rec
		}
		s.mu.Unlock()
		return &reply{Failure: value.OutcomeUnknown, Host: rec.Host, Error: u.Reason}
	case c.Op == opFetch && errors.As(err, &ne):
		rec := &netRecord{host: hostOr(ne.Host), failure: script.NetFailure{Kind: ne.Kind, Sent: ne.Sent, Cause: ne.Cause}}
		s.mu.Lock()
		s.net[block] = rec
		s.mu.Unlock()
		return &reply{Net: &rec.failure, Host: rec.host, Error: err.Error()}
	}
	return &reply{Error: err.Error()}
}

// capabilityOf names the capability a call operation uses.
func capabilityOf(op string) script.Capability {
	return capabilities()[op].capability
}

func (s *session) perform(c *call) (*reply, error) {
	op, ok := capabilities()[c.Op]
	if !ok {
		return nil, fmt.Errorf("unknown capability %q", c.Op)
	}
	return op.perform(s.callCtx, s.host, c)
}

// settle gives every block still without an outcome the run's ending, after
// keeping the outcomes that reached the host before the worker was stopped,
// and then releases the worker and the calls still in flight.
func (s *session) settle(e ending) {
	if e.kind != "" {
		s.p.kill()
		s.drain()
	}
	s.cancelCall()
	waitTimeout(&s.calls, callDrain)
	for ; s.next < len(s.req.Blocks); s.next++ {
		s.emit(script.Outcome{Name: s.req.Blocks[s.next].Name, Kind: e.kind, Limit: e.limit, Detail: e.detail})
	}
}

// drain reads what the killed worker wrote before it died and keeps the
// outcomes among it.
func (s *session) drain() {
	for r := range s.p.msgs {
		if r.err != nil || s.untrusted {
			continue
		}
		if o, ok := r.msg.Body.(*outcomeMsg); ok && r.msg.Run == s.run {
			if s.accept(o) != nil {
				s.untrusted = true
			}
		}
	}
}

// endFromExit classifies a worker whose pipe closed without "done", from
// the kernel's account of it: a CPU-time kill is a timeout, an
// out-of-memory death or a large resident size sampled during the run is a
// memory breach, anything else is a crash. (The kernel's own peak in the
// exit status cannot be used: a child started by vfork and exec inherits
// its parent's peak.)
func (s *session) endFromExit(cause error) ending {
	state := s.p.reap(exitGrace)
	killedByHost := s.p.killed.Load()
	stderr := s.p.stderr.String()
	detail := "the script isolate stopped unexpectedly (" + describeExit(state) + ")" + firstLine(stderr)
	if cause != nil {
		detail = cause.Error()
	}
	if state != nil && !killedByHost {
		usage := exitUsageOf(state)
		cpuLimit := time.Duration(cpuSeconds(s.limit.RunTime)) * time.Second
		switch {
		case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "stack exceeds") ||
			s.peakRSS >= memoryKillRSS(s.limit):
			return memoryEnding
		case usage.signaled && usage.cpu >= cpuLimit-cpuLimit/10:
			return ending{kind: value.LimitExceeded, limit: script.LimitTimeout,
				detail: "the scripts used more processor time than allowed and were stopped"}
		}
	}
	return ending{kind: value.Crashed, detail: detail}
}

// cpuSeconds is the RLIMIT_CPU a worker sets for a run of the given length:
// the run's wall-clock limit rounded up, plus a second.
func cpuSeconds(runTime time.Duration) int64 {
	return int64((runTime+time.Second-1)/time.Second) + 1
}

func describeExit(state *os.ProcessState) string {
	if state == nil {
		return "no exit status"
	}
	return state.String()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return ": " + s
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
