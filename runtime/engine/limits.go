package engine

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/markii/markii/runtime/script"
)

// closedChan is returned by meter.Done once a limit has been breached;
// it is made on first use.
func closedChan() chan struct{} {
	closedOnce.Do(func() {
		closed = make(chan struct{})
		close(closed)
	})
	return closed
}

var (
	closedOnce sync.Once
	closed     chan struct{}
)

// meter is the context a curated Lua state runs under. gopher-lua calls
// Done exactly once before every VM instruction, so Done counts
// instructions. Once any limit is breached (instructions here, wall clock
// and memory from other goroutines) Done returns a closed channel for every
// later instruction, so no pcall loop can swallow the breach. The breach is
// recorded here, on the host side, where no Lua value can see or clear it.
type meter struct {
	n     int64 // instructions so far; touched only by the VM goroutine
	limit int64

	tripped atomic.Bool
	mu      sync.Mutex
	kind    script.LimitKind
}

func newMeter(limit int64) *meter { return &meter{limit: limit} }

// trip records the first breach; later ones are ignored.
func (m *meter) trip(k script.LimitKind) {
	m.mu.Lock()
	if m.kind == "" {
		m.kind = k
	}
	m.mu.Unlock()
	m.tripped.Store(true)
}

// breach returns the recorded limit, or "" when none was breached.
func (m *meter) breach() script.LimitKind {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.kind
}

// charge adds n units of work done inside a Go builtin to the instruction
// count and reports whether the script may go on.
func (m *meter) charge(n int64) bool {
	if n > m.limit-m.n {
		n = m.limit - m.n + 1 // past the limit without overflowing
	}
	m.n += n
	if m.n > m.limit {
		m.trip(script.LimitInstructions)
	}
	return !m.tripped.Load()
}

// Deadline implements context.Context; the wall clock is enforced by trip.
func (m *meter) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done counts one instruction.
func (m *meter) Done() <-chan struct{} {
	m.n++
	if m.n > m.limit {
		m.trip(script.LimitInstructions)
	}
	if m.tripped.Load() {
		return closedChan()
	}
	return nil
}

// Err is the error gopher-lua raises after Done fired. Its text carries no
// authority: classification reads breach().
func (m *meter) Err() error {
	if !m.tripped.Load() {
		return nil
	}
	return limitError(m.breach())
}

// Value implements context.Context.
func (m *meter) Value(any) any { return nil }

var _ context.Context = (*meter)(nil)

type limitError script.LimitKind

func (e limitError) Error() string { return limitMessage(script.LimitKind(e)) }

func limitMessage(k script.LimitKind) string {
	switch k {
	case script.LimitInstructions:
		return "the script ran out of its instruction budget"
	case script.LimitTimeout:
		return "the script ran out of time"
	case script.LimitMemory:
		return "the script ran out of memory"
	}
	return "the script hit a limit"
}

// heapMetric is the heap metric the memory monitor polls: live objects
// plus those not yet swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

func readMetric(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// heapBytes reads the bytes of live and not-yet-swept heap objects.
func heapBytes() int64 { return readMetric(heapMetric) }

// memoryGuard tracks one script's heap growth against the memory budget.
// In the isolate the process holds little else, so heap growth since the
// script started is the script's; the isolate's RLIMIT_DATA is the hard
// backstop for a single allocation that outruns the poll.
//
// The poll is a timer that re-arms itself rather than a goroutine with a
// ticker: a short script ends before the first poll and never wakes another
// thread.
type memoryGuard struct {
	budget   int64
	baseline int64
	m        *meter

	mu      sync.Mutex
	stopped bool
	timer   *time.Timer
}

// pollInterval is how often the monitor samples the heap.
const pollInterval = 5 * time.Millisecond

func startMemoryGuard(budget int64, m *meter) *memoryGuard {
	g := &memoryGuard{budget: budget, baseline: baseline(), m: m}
	g.mu.Lock()
	g.timer = time.AfterFunc(pollInterval, g.poll)
	g.mu.Unlock()
	return g
}

// collectAbove is the heap size above which a script's start collects
// garbage first, so that a large heap left by earlier work is measured
// as it really is. A small heap (the usual case in the isolate) is taken as
// it stands, which costs nothing.
const collectAbove = 4 << 20

func baseline() int64 {
	h := heapBytes()
	if h <= collectAbove {
		return h
	}
	runtime.GC()
	return heapBytes()
}

// poll samples the heap once and re-arms itself unless the guard was
// closed or the budget is spent. Holding the lock while sampling means that
// once close returns, no poll runs and none is pending.
func (g *memoryGuard) poll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	if !g.fits(0) {
		g.m.trip(script.LimitMemory)
		return
	}
	g.timer.Reset(pollInterval)
}

// fits reports whether n more bytes stay within the budget. Only when the
// cheap reading says no does it collect garbage and look again, so garbage
// never counts against a script.
func (g *memoryGuard) fits(n int64) bool {
	if n > g.budget {
		return false
	}
	if heapBytes()-g.baseline+n <= g.budget {
		return true
	}
	runtime.GC()
	return heapBytes()-g.baseline+n <= g.budget
}

func (g *memoryGuard) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	g.timer.Stop()
}
