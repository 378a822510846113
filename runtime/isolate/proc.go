package isolate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// workerEnv is the worker's whole environment: nothing from the user's,
// only the runtime settings the confined process needs (no cgroup re-reads
// after the filesystem is gone, two threads for Lua and the collector, a
// one-goroutine trace on a fatal error).
var workerEnv = []string{"GODEBUG=updatemaxprocs=0", "GOMAXPROCS=2", "GOTRACEBACK=single"}

// Bounds of what the host keeps of a worker's stdout and stderr.
const (
	stdoutCapture = 4 << 10
	stderrCapture = 16 << 10
)

// frameResult is one message read from a worker, or why reading stopped.
type frameResult struct {
	msg *message
	err error
}

// proc is one started worker process and the host's ends of its pipes.
type proc struct {
	cmd     *exec.Cmd
	in      *os.File // host writes requests and replies here (worker fd 3)
	out     *os.File // host reads worker messages here (worker fd 4)
	writeMu sync.Mutex

	msgs   chan frameResult // closed when the worker's pipe ends
	exited chan struct{}    // closed once the worker is reaped
	state  *os.ProcessState

	stdout, stderr *capture
	killed         atomic.Bool
	killMu         sync.Mutex
	reaping        bool // set under killMu once the worker has exited
	// ready is set once the worker's ready message has been read.
	ready     bool
	closeOnce sync.Once
}

// spawn starts a worker: the running binary in worker mode, with an empty
// environment, no descriptors but its two protocol pipes, its own process
// group, and stdout and stderr going to bounded captures.
func spawn(extraArgs []string) (*proc, error) {
	if !pipeTransport {
		return nil, errors.New("the script isolate is not available on this platform")
	}
	exe, err := executable()
	if err != nil {
		return nil, fmt.Errorf("find the markii binary: %w", err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	cmd := exec.Command(exe, append([]string{workerArg}, extraArgs...)...)
	cmd.Env = workerEnv
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{reqR, respW}
	p := &proc{
		cmd:    cmd,
		in:     reqW,
		out:    respR,
		msgs:   make(chan frameResult, 64),
		exited: make(chan struct{}),
		stdout: &capture{max: stdoutCapture},
		stderr: &capture{max: stderrCapture},
	}
	cmd.Stdout = p.stdout
	cmd.Stderr = p.stderr
	cmd.SysProcAttr = sysProcAttr()
	err = cmd.Start()
	reqR.Close()
	respW.Close()
	if err != nil {
		reqW.Close()
		respR.Close()
		return nil, fmt.Errorf("start the script isolate: %w", err)
	}
	go p.read()
	go func() {
		// Until the worker is reaped its pid, and so its process group id,
		// cannot be reused: kill may signal the group only before that.
		awaitExit(cmd.Process.Pid)
		p.killMu.Lock()
		p.reaping = true
		p.killMu.Unlock()
		_ = cmd.Wait()
		p.state = cmd.ProcessState
		close(p.exited)
	}()
	return p, nil
}

// read turns the worker's frames into messages until the pipe ends or a
// frame breaks the protocol.
func (p *proc) read() {
	defer close(p.msgs)
	// Buffered, so that a frame's length and body arrive in one read.
	in := bufio.NewReaderSize(p.out, frameBuffer)
	for {
		body, err := readFrame(in, MaxFrame)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				p.msgs <- frameResult{err: err}
			}
			return
		}
		m, err := decodeMessage(body, true)
		if err != nil {
			p.msgs <- frameResult{err: err}
			return
		}
		p.msgs <- frameResult{msg: m}
	}
}

// awaitReady waits for the worker's first message, which must say it is
// confined and ready.
func (p *proc) awaitReady(ctx context.Context) error {
	if p.ready {
		return nil
	}
	t := time.NewTimer(startTimeout)
	defer t.Stop()
	select {
	case r, ok := <-p.msgs:
		return p.first(r, ok)
	case <-t.C:
		return fmt.Errorf("the script isolate did not start within %s", startTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// first judges the worker's first read (ok false: its messages ended
// before any), which must be a ready message with no run id.
func (p *proc) first(r frameResult, ok bool) error {
	if !ok {
		state := p.reap(exitGrace)
		return fmt.Errorf("the script isolate could not start (%s)%s", describeExit(state), firstLine(p.stderr.String()))
	}
	if r.err == nil && (r.msg.kind() != msgReady || r.msg.Run != 0) {
		r.err = protocolErrorf("first message is %s, not ready", r.msg.kind())
	}
	if r.err != nil {
		return fmt.Errorf("the script isolate broke the protocol at start: %w", r.err)
	}
	p.ready = true
	return nil
}

// send writes one message to the worker.
func (p *proc) send(m *message) error {
	m.V = ProtocolVersion
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	return writeFrame(p.in, m)
}

// kill ends the worker's process group. It is safe to call more than once
// and after the worker exited.
func (p *proc) kill() {
	p.killed.Store(true)
	p.killMu.Lock()
	if !p.reaping {
		killGroup(p.cmd.Process.Pid)
	}
	p.killMu.Unlock()
	// The process handle knows when it has been waited for and then does
	// not signal, so this is safe at any time.
	_ = p.cmd.Process.Kill()
}

// resident is the worker's resident size, read only while its pid cannot
// have been reused; 0 once it has exited.
func (p *proc) resident() int64 {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	if p.reaping {
		return 0
	}
	return residentBytes(p.cmd.Process.Pid)
}

// alive reports whether the worker has not exited.
func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// close kills and reaps the worker and releases every descriptor and
// goroutine the host holds for it.
func (p *proc) close() {
	p.closeOnce.Do(func() {
		p.kill()
		p.in.Close()
		<-p.exited
		p.out.Close()
		for range p.msgs {
		}
	})
}

// reap waits for the worker to exit on its own for up to grace, then kills
// it, and returns its exit state.
func (p *proc) reap(grace time.Duration) *os.ProcessState {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		p.kill()
		<-p.exited
	}
	return p.state
}

// capture keeps the first max bytes written to it and drops the rest.
type capture struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (c *capture) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		if len(b) > room {
			c.buf.Write(b[:room])
		} else {
			c.buf.Write(b)
		}
	}
	return len(b), nil
}

func (c *capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// exitUsage is the kernel's account of a finished worker.
type exitUsage struct {
	signaled bool
	cpu      time.Duration
}
