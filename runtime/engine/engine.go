// Package engine runs a note's Lua scripts in curated gopher-lua states:
// no ambient power (no io, os, package, debug, load, metatables, raw
// access or garbage-collector control), every capability performed by a
// script.Host, every allocating builtin checked against the memory budget
// before it allocates, an instruction budget and a wall clock that pcall
// cannot swallow, and each outcome classified from records kept outside
// the interpreter, never from error text.
//
// In the product the engine runs inside the isolate's child process; the
// in-process path exists for tests and benchmarks.
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
	lua "github.com/yuin/gopher-lua"
)

const limitMemory = script.LimitMemory

// LaterValueSentence is the fixed message of a doc.value read of a script
// that runs later in the note.
const LaterValueSentence = "doc.value read a script that runs later in the note; a script can only read values of scripts above it"

// Run runs req's scripts in document order, each in a fresh curated Lua
// state, and calls emit once per script with its outcome.
func Run(ctx context.Context, req *script.Request, host script.Host, emit func(script.Outcome)) error {
	if req == nil {
		return errors.New("no run request")
	}
	if host == nil {
		host = DenyAll{}
	}
	limits := req.Limits.Clamp()
	dirs, truncated := CapDirectives(req.Directives, req.Truncated)
	earlier := map[string]json.RawMessage{}
	for i, b := range req.Blocks {
		if ctx.Err() != nil {
			emit(script.Outcome{Name: b.Name, Kind: value.LimitExceeded, Limit: script.LimitTimeout,
				Detail: "the run's time ran out before this script started"})
			continue
		}
		later := map[string]bool{}
		for _, nb := range req.Blocks[i+1:] {
			later[nb.Name] = true
		}
		// A state prepared ahead of time has its functions bound to its
		// own record, so that record becomes this script's.
		r := takePrepared()
		prebuilt := r.L
		*r = scriptRun{
			ctx: ctx, req: req, host: host, limits: limits, block: b,
			directives: dirs, truncated: truncated,
			earlier: earlier, later: later,
			prebuilt: prebuilt,
		}
		o := r.run()
		o.Name = b.Name
		emit(o)
		if o.Kind == value.Ok {
			earlier[b.Name] = o.Value
		}
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// scriptRun is one script's run. Its fields are the host-side records the
// outcome is classified from; no Lua value can reach them.
type scriptRun struct {
	ctx    context.Context
	req    *script.Request
	host   script.Host
	limits script.Limits
	block  script.Block

	directives []script.Directive
	truncated  bool
	earlier    map[string]json.RawMessage
	later      map[string]bool

	L     *lua.LState
	meter *meter
	// prebuilt is the curated state Prepare built for this record, if any;
	// it has run nothing.
	prebuilt *lua.LState
	mem      *memoryGuard
	// hostCtx bounds host calls by the script's wall clock.
	hostCtx context.Context

	// denial is the capability refusal that is propagating, if any; a
	// pcall that catches an error clears it.
	denial *script.Denial
	// unknown is the effectful request whose outcome was lost, if that
	// error is propagating; a pcall that catches it clears it.
	unknown *script.UnknownOutcome
	// netFailure is the failed network request whose error is
	// propagating, if any, and netHost the host it went to; a pcall that
	// catches the error clears it.
	netFailure *script.NetFailure
	netHost    string
	// laterRead is set while a later-script doc.value error propagates.
	laterRead string
	// poisoned is set when the interpreter panicked inside a builtin.
	poisoned bool

	ids     map[lua.LValue]int
	rng     *rand.Rand
	modules map[string]lua.LValue
	loading map[string]bool
}

// run executes the script and classifies its outcome.
func (r *scriptRun) run() (o script.Outcome) {
	r.meter = newMeter(r.limits.Instructions)
	sctx, cancel := context.WithTimeout(r.ctx, r.limits.ScriptTime)
	defer cancel()
	r.hostCtx = sctx
	stopWatch := context.AfterFunc(sctx, func() { r.meter.trip(script.LimitTimeout) })
	defer stopWatch()
	r.mem = startMemoryGuard(r.limits.Memory, r.meter)
	defer r.mem.close()
	defer func() {
		if p := recover(); p != nil {
			o = script.Outcome{Kind: value.Crashed, Detail: fmt.Sprintf("the interpreter failed: %v", p)}
		}
	}()

	if r.block.Src != "" && !r.req.Bundle {
		if r.prebuilt != nil {
			r.prebuilt.Close()
		}
		return scriptError(fmt.Sprintf("src=%q needs a bundle; a plain note cannot load script files", r.block.Src))
	}
	L := r.openState()
	defer L.Close()
	L.SetContext(r.meter)

	fn, err := compile(L, r.block.Source, chunkName(r.block.Name))
	if err != nil {
		return scriptError(err.Error())
	}
	L.Push(fn)
	perr := L.PCall(0, 1, nil)
	stopWatch()
	if o, over := r.overLimit(); over {
		return o
	}
	if perr != nil {
		return r.failure(perr)
	}
	raw, merr := marshal(L.Get(-1), r.limits.MarshalDepth, r.limits.MarshalNodes, r.limits.Memory, r.meter.charge)
	if o, over := r.overLimit(); over {
		return o
	}
	if merr != nil {
		return scriptError("the return " + merr.Error())
	}
	return script.Outcome{Kind: value.Ok, Value: raw}
}

// openState gives the run its interpreter, the prebuilt one when there
// is one, and fresh per-run state.
func (r *scriptRun) openState() *lua.LState {
	r.ids = map[lua.LValue]int{}
	r.rng = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), r.req.RunID))
	r.modules = map[string]lua.LValue{}
	r.loading = map[string]bool{}
	r.L = r.prebuilt
	if r.L == nil {
		r.L = newLuaState(r)
		r.installAPI()
	} else {
		r.setDocTruncated()
	}
	return r.L
}

// overLimit is the outcome of a run that went over one of its limits.
func (r *scriptRun) overLimit() (script.Outcome, bool) {
	k := r.meter.breach()
	if k == "" {
		return script.Outcome{}, false
	}
	return script.Outcome{Kind: value.LimitExceeded, Limit: k, Detail: limitMessage(k)}, true
}

// failure classifies a script that ended in an error, from the records.
func (r *scriptRun) failure(err error) script.Outcome {
	msg := err.Error()
	if ae, ok := err.(*lua.ApiError); ok && ae.Object != nil {
		msg = ae.Object.String()
	}
	switch {
	case r.denial != nil:
		d := r.denial
		kind := value.CapabilityDenied
		if d.TierBlocked {
			kind = value.TierBlocked
		}
		detail := d.Reason
		if r.req.Tier == script.TierAuto {
			detail += " (requires manual run: this capability is only available on a manual run)"
		}
		return script.Outcome{Kind: kind, Capability: d.Capability, Host: d.Host, Reason: d.Why, Detail: detail, Net: script.NetFailureOf(d.Err)}
	case r.unknown != nil:
		return script.Outcome{Kind: value.OutcomeUnknown, Capability: script.CapNet, Host: r.unknown.Host, Detail: r.unknown.Reason,
			Net: script.NetFailureOf(r.unknown.Err)}
	case r.netFailure != nil:
		return script.Outcome{Kind: r.netFailure.FailedKind(), Capability: script.CapNet, Host: r.netHost, Detail: msg, Net: r.netFailure}
	case r.laterRead != "":
		return scriptError(r.laterRead)
	case r.poisoned:
		return scriptError("the interpreter failed inside a builtin: " + msg)
	}
	return scriptError(msg)
}

func scriptError(detail string) script.Outcome {
	return script.Outcome{Kind: value.ScriptError, Detail: detail}
}

func chunkName(name string) string {
	if name == "" {
		return "script"
	}
	return name
}

// compile turns source text into a function, refusing bytecode, naming
// Lua 5.3+ constructs, and turning a compiler panic into an error.
func compile(L *lua.LState, src, name string) (fn *lua.LFunction, err error) {
	if strings.HasPrefix(src, "\x1b") {
		return nil, errors.New("precompiled Lua is not accepted; scripts must be source text")
	}
	defer func() {
		if p := recover(); p != nil {
			fn, err = nil, fmt.Errorf("the script could not be compiled: %v", p)
		}
	}()
	fn, err = L.Load(strings.NewReader(src), name)
	if err != nil {
		if d := dialectError(src); d != "" {
			return nil, errors.New(d)
		}
		var ae *lua.ApiError
		if errors.As(err, &ae) && ae.Object != nil {
			return nil, errors.New(ae.Object.String())
		}
		return nil, err
	}
	return fn, nil
}

// deny records a refusal host-side and raises an error whose text carries
// no authority.
func (r *scriptRun) deny(d *script.Denial) {
	r.denial = d
	r.L.RaiseError("%s", d.Reason)
}

// DenyAll is a Host that refuses every capability.
type DenyAll struct{}

func denyAll(c script.Capability, host, what string) *script.Denial {
	return &script.Denial{Capability: c, Host: host, Reason: what + " was not granted"}
}

// Fetch refuses.
func (DenyAll) Fetch(_ context.Context, r script.FetchRequest) (script.FetchResponse, error) {
	h := netclient.HostOf(r.URL)
	return script.FetchResponse{}, denyAll(script.CapNet, h, "network access to "+h)
}

// BundleRead refuses.
func (DenyAll) BundleRead(context.Context, string) ([]byte, bool, error) {
	return nil, false, denyAll(script.CapBundle, "", "bundle read access")
}

// BundleExists refuses.
func (DenyAll) BundleExists(context.Context, string) (bool, error) {
	return false, denyAll(script.CapBundle, "", "bundle read access")
}

// BundleWrite refuses.
func (DenyAll) BundleWrite(context.Context, string, []byte) error {
	return denyAll(script.CapBundle, "", "bundle write access")
}

// CacheGet refuses.
func (DenyAll) CacheGet(context.Context, string) (json.RawMessage, time.Time, bool, error) {
	return nil, time.Time{}, false, denyAll(script.CapCache, "", "the script cache")
}

// CachePut refuses.
func (DenyAll) CachePut(context.Context, string, json.RawMessage) error {
	return denyAll(script.CapCache, "", "the script cache")
}

// Require refuses.
func (DenyAll) Require(_ context.Context, name string) (string, error) {
	return "", denyAll(script.CapRequire, "", fmt.Sprintf("loading module %q", name))
}
