package isolate

import (
	"context"
	"sync"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// Pool starts the workers runs use. Each worker serves exactly one run and
// exits; after Prewarm, the pool keeps one confined worker idle and ready
// so a run does not wait for a process to start, and starts its
// replacement in the background after every run ends.
type Pool struct {
	// extraArgs follow the worker argument on the command line; tests use
	// them to select a worker behaviour.
	extraArgs []string

	mu       sync.Mutex
	warm     *proc
	keepWarm bool
	// starting is closed when the background start in flight ends; nil
	// when none is in flight.
	starting chan struct{}
	closed   bool
	bg       sync.WaitGroup
	// reapers tracks the workers of finished runs still being reaped.
	reapers sync.WaitGroup
}

// NewPool returns a pool that starts a worker per run. Call Prewarm to keep
// one ready.
func NewPool() *Pool { return &Pool{} }

// Prewarm makes the pool keep one idle worker ready from now on and starts
// it in the background.
func (p *Pool) Prewarm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.keepWarm = true
	p.refillLocked()
}

// refillLocked starts a background start if the pool keeps a worker warm
// and has none. p.mu is held.
func (p *Pool) refillLocked() {
	if !p.keepWarm || p.closed || p.warm != nil || p.starting != nil {
		return
	}
	done := make(chan struct{})
	p.starting = done
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		defer close(done)
		w, err := spawn(append([]string{warmUpArg}, p.extraArgs...))
		if err == nil {
			if err = w.awaitReady(context.Background()); err != nil {
				w.close()
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		p.starting = nil
		if err != nil {
			return
		}
		if p.closed || p.warm != nil {
			w.close()
			return
		}
		p.warm = w
	}()
}

// take hands out the warm worker if it is alive. If a start is already in
// flight it waits for that one, which is sooner than a new start;
// otherwise it starts a worker itself.
func (p *Pool) take(ctx context.Context) (*proc, error) {
	p.mu.Lock()
	if p.warm == nil && p.starting != nil {
		starting := p.starting
		p.mu.Unlock()
		select {
		case <-starting:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
	}
	w := p.warm
	p.warm = nil
	p.mu.Unlock()
	if w != nil {
		if w.alive() {
			return w, nil
		}
		w.close()
	}
	return spawn(p.extraArgs)
}

// Run runs req's scripts in a fresh confined worker under the host's
// wall-clock watchdog and streams one outcome per block to emit, in order,
// on the calling goroutine. Every capability the scripts use is performed
// by host in this process. Outcomes that reached the host before a worker
// was stopped are kept; the blocks after them get limit (timeout or memory)
// or crashed, decided from the host's own records. Run returns an error
// only when the isolate could not start or ctx ended the run; every block
// has its outcome either way.
func (p *Pool) Run(ctx context.Context, req *script.Request, host script.Host, emit func(script.Outcome)) error {
	w, err := p.take(ctx)
	// The replacement starts once this run is over, so that its start-up
	// does not compete with the run for the processor.
	defer func() {
		p.mu.Lock()
		p.refillLocked()
		p.mu.Unlock()
	}()
	if err != nil {
		for _, b := range req.Blocks {
			emit(script.Outcome{Name: b.Name, Kind: value.Crashed, Detail: err.Error()})
		}
		return err
	}
	return execute(ctx, w, req, host, emit, &p.reapers)
}

// Close retires the idle worker and waits for a background start and the
// reaping of finished runs' workers to end. Runs in progress are not
// affected.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	w := p.warm
	p.warm = nil
	p.mu.Unlock()
	if w != nil {
		w.close()
	}
	p.bg.Wait()
	p.reapers.Wait()
}

var defaultPool = NewPool()

// Run runs req through the default pool; see Pool.Run. It has the same
// signature as the in-process engine's Run, so callers can swap it in.
func Run(ctx context.Context, req *script.Request, host script.Host, emit func(script.Outcome)) error {
	return defaultPool.Run(ctx, req, host, emit)
}

// Prewarm keeps one confined worker of the default pool ready, so the next
// Run does not wait for a process start. The viewer calls it once.
func Prewarm() { defaultPool.Prewarm() }
