package isolate

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// ProtocolVersion is the version of the wire protocol between the host and
// its worker. A message carrying any other version is refused.
const ProtocolVersion = 4

// MaxFrame is the largest JSON a message of either side may hold, in
// bytes, and the largest frame the host accepts from its worker. A frame
// announcing a larger body is refused before the body is read.
//
// A run request's scripts travel after its JSON as they are (see
// writeFrame), not as JSON strings, which make each control character
// six bytes long: so MaxRunFrame, the largest frame a worker accepts,
// carries every script of any note under the note cap, whatever bytes
// they hold, beside a request of MaxFrame.
const (
	MaxFrame    = 2*script.MaxNoteBytes + 1<<20
	MaxRunFrame = MaxFrame + script.MaxNoteBytes
)

// frameBuffer is the read buffer on each end of the wire: large enough
// that a typical frame's length and body come in one read, small next to
// MaxFrame (a larger frame's body is read straight into its own buffer).
const frameBuffer = 64 << 10

// Message kinds: the tag ("type") each message carries. Worker to host:
// ready, heartbeat, call, outcome, breach, done. Host to worker: run,
// reply. Each kind is one Go type below (see kinds).
const (
	msgReady     = "ready"
	msgHeartbeat = "hb"
	msgCall      = "call"
	msgOutcome   = "outcome"
	msgBreach    = "breach"
	msgDone      = "done"
	msgRun       = "run"
	msgReply     = "reply"
)

// message is one frame: the envelope every message carries (the protocol
// version and the run id) and its payload, whose Go type is the message's
// kind. On the wire the envelope's "v", "run" and "type" come first and
// the payload's fields follow in the same JSON object.
type message struct {
	V    int
	Run  uint64
	Body payload
}

// kind is the message's tag.
func (m *message) kind() string { return m.Body.kind() }

// payload is the body of one kind of message. Its JSON fields are the
// exact keys the kind allows beside the envelope's; those without
// omitempty are required.
type payload interface{ kind() string }

// readyMsg: the worker is confined and waits for its run.
type readyMsg struct{}

// heartbeatMsg: the worker is alive.
type heartbeatMsg struct{}

// callMsg: the worker asks the host to perform a capability call.
type callMsg struct {
	ID   uint64 `json:"id"`
	Call *call  `json:"call"`
}

// outcomeMsg: one script's outcome, as the worker sees it.
type outcomeMsg struct {
	Outcome *script.Outcome `json:"outcome"`
	// shape is the outcome's value measured while the frame was decoded
	// (never on the wire), so that the host reads the value's JSON once.
	shape valueShape
}

// breachMsg: the worker passed a limit it watches itself.
type breachMsg struct {
	Limit script.LimitKind `json:"limit"`
}

// doneMsg: the worker ran every script; Error is the run's own error.
type doneMsg struct {
	Error string `json:"error,omitempty"`
}

// runMsg: the host hands the worker a run.
type runMsg struct {
	Req *script.Request `json:"req"`
	// Sources are the byte lengths of the request's scripts, which follow
	// the message's JSON in its frame, in the order of its blocks (see
	// writeFrame); they are never kept after decoding.
	Sources []int `json:"sources,omitempty"`
}

// replyMsg: the host's answer to call ID.
type replyMsg struct {
	ID    uint64 `json:"id"`
	Reply *reply `json:"reply"`
}

func (*readyMsg) kind() string     { return msgReady }
func (*heartbeatMsg) kind() string { return msgHeartbeat }
func (*callMsg) kind() string      { return msgCall }
func (*outcomeMsg) kind() string   { return msgOutcome }
func (*breachMsg) kind() string    { return msgBreach }
func (*doneMsg) kind() string      { return msgDone }
func (*runMsg) kind() string       { return msgRun }
func (*replyMsg) kind() string     { return msgReply }

// kindInfo is what the protocol knows of a message kind: who sends it, a
// new payload to decode into, and its fields.
type kindInfo struct {
	fromWorker bool
	new        func() payload
	fields     *structFields
}

// kinds is the one table of message kinds, built on first use (a process
// that runs no script never needs it).
func kinds() map[string]kindInfo {
	kindsOnce.Do(func() {
		kindsTable = buildKinds()
	})
	return kindsTable
}

var (
	kindsOnce  sync.Once
	kindsTable map[string]kindInfo
)

// buildKinds is the table of message kinds, each with its fields.
func buildKinds() map[string]kindInfo {
	kinds := map[string]kindInfo{
		msgReady:     {fromWorker: true, new: func() payload { return &readyMsg{} }},
		msgHeartbeat: {fromWorker: true, new: func() payload { return &heartbeatMsg{} }},
		msgCall:      {fromWorker: true, new: func() payload { return &callMsg{} }},
		msgOutcome:   {fromWorker: true, new: func() payload { return &outcomeMsg{} }},
		msgBreach:    {fromWorker: true, new: func() payload { return &breachMsg{} }},
		msgDone:      {fromWorker: true, new: func() payload { return &doneMsg{} }},
		msgRun:       {new: func() payload { return &runMsg{} }},
		msgReply:     {new: func() payload { return &replyMsg{} }},
	}
	for k, info := range kinds {
		info.fields = fieldsOf(info.new())
		kinds[k] = info
	}
	return kinds
}

// Capability operations a worker can ask the host to perform.
const (
	opFetch        = "fetch"
	opBundleRead   = "bundleRead"
	opBundleExists = "bundleExists"
	opBundleWrite  = "bundleWrite"
	opCacheGet     = "cacheGet"
	opCachePut     = "cachePut"
	opRequire      = "require"
)

// capabilityOp is one capability call a worker can make: the capability
// it uses, the keys its call carries, and how the host performs it.
type capabilityOp struct {
	capability script.Capability
	keys       keySet
	perform    func(ctx context.Context, h script.Host, c *call) (*reply, error)
}

// capabilities is the one table of capability calls: the wire's key
// allowlist of each call, the capability a refusal names, and what the
// host does, all come from it. It is built on first use.
func capabilities() map[string]capabilityOp {
	capabilitiesOnce.Do(func() {
		capabilitiesTable = buildCapabilities()
	})
	return capabilitiesTable
}

var (
	capabilitiesOnce  sync.Once
	capabilitiesTable map[string]capabilityOp
)

func buildCapabilities() map[string]capabilityOp {
	return map[string]capabilityOp{
		opFetch:        {script.CapNet, keySet{required: []string{"op", "fetch"}}, performFetch},
		opBundleRead:   {script.CapBundle, keySet{required: []string{"op"}, optional: []string{"path"}}, performBundleRead},
		opBundleExists: {script.CapBundle, keySet{required: []string{"op"}, optional: []string{"path"}}, performBundleExists},
		opBundleWrite:  {script.CapBundle, keySet{required: []string{"op"}, optional: []string{"path", "data"}}, performBundleWrite},
		opCacheGet:     {script.CapCache, keySet{required: []string{"op"}, optional: []string{"key"}}, performCacheGet},
		opCachePut:     {script.CapCache, keySet{required: []string{"op"}, optional: []string{"key", "value"}}, performCachePut},
		opRequire:      {script.CapRequire, keySet{required: []string{"op"}, optional: []string{"name"}}, performRequire},
	}
}

func performFetch(ctx context.Context, h script.Host, c *call) (*reply, error) {
	if c.Fetch == nil {
		return nil, errors.New("a network request needs a method and a URL")
	}
	r, err := h.Fetch(ctx, *c.Fetch)
	if err != nil {
		return nil, err
	}
	return &reply{Fetch: &r}, nil
}

func performBundleRead(ctx context.Context, h script.Host, c *call) (*reply, error) {
	data, found, err := h.BundleRead(ctx, c.Path)
	if err != nil {
		return nil, err
	}
	return &reply{Data: data, Found: found}, nil
}

func performBundleExists(ctx context.Context, h script.Host, c *call) (*reply, error) {
	found, err := h.BundleExists(ctx, c.Path)
	if err != nil {
		return nil, err
	}
	return &reply{Found: found}, nil
}

func performBundleWrite(ctx context.Context, h script.Host, c *call) (*reply, error) {
	return &reply{}, h.BundleWrite(ctx, c.Path, c.Data)
}

func performCacheGet(ctx context.Context, h script.Host, c *call) (*reply, error) {
	v, at, found, err := h.CacheGet(ctx, c.Key)
	if err != nil || !found {
		return &reply{}, err
	}
	return &reply{Found: true, Value: v, StoredAt: &at}, nil
}

func performCachePut(ctx context.Context, h script.Host, c *call) (*reply, error) {
	return &reply{}, h.CachePut(ctx, c.Key, c.Value)
}

func performRequire(ctx context.Context, h script.Host, c *call) (*reply, error) {
	src, err := h.Require(ctx, c.Name)
	if err != nil {
		return nil, err
	}
	return &reply{Source: src}, nil
}

// call is a capability request from the worker.
type call struct {
	Op    string               `json:"op"`
	Fetch *script.FetchRequest `json:"fetch,omitempty"`
	Path  string               `json:"path,omitempty"`
	Data  []byte               `json:"data,omitempty"`
	Key   string               `json:"key,omitempty"`
	Value json.RawMessage      `json:"value,omitempty"`
	Name  string               `json:"name,omitempty"`
}

// reply is the host's answer to a call. A failed call carries Error, the
// message the script sees, and Failure, the typed kind of failure when it
// is one the script's outcome depends on: capability-denied,
// tier-blocked or outcome-unknown (empty for any other error); Net says
// how a network request that failed otherwise failed, and Host names the
// host a failed network request went to. The outcome the host finally
// reports is decided by its own records, not by this message.
type reply struct {
	Failure  value.Kind            `json:"failure,omitempty"`
	Net      *script.NetFailure    `json:"net,omitempty"`
	Host     string                `json:"host,omitempty"`
	Error    string                `json:"error,omitempty"`
	Fetch    *script.FetchResponse `json:"fetch,omitempty"`
	Data     []byte                `json:"data,omitempty"`
	Found    bool                  `json:"found,omitempty"`
	Value    json.RawMessage       `json:"value,omitempty"`
	StoredAt *time.Time            `json:"storedAt,omitempty"`
	Source   string                `json:"source,omitempty"`
}

// keySet lists the keys an object must have and the keys it may have.
type keySet struct {
	required []string
	optional []string
}

func (k keySet) allows(key string) bool {
	for _, s := range k.required {
		if s == key {
			return true
		}
	}
	for _, s := range k.optional {
		if s == key {
			return true
		}
	}
	return false
}

// ProtocolError is a message that broke the wire protocol. The side that
// receives one stops trusting its peer and fails closed.
type ProtocolError struct {
	Reason string
	// Err is the decoder's error the violation was found by, if any.
	Err error
}

func (e *ProtocolError) Error() string { return "isolate protocol violation: " + e.Reason }

// Unwrap returns the decoder's error (nil when there is none).
func (e *ProtocolError) Unwrap() error { return e.Err }

func protocolErrorf(format string, args ...any) error {
	return &ProtocolError{Reason: fmt.Sprintf(format, args...)}
}

// FrameSizeError is an outgoing message over its cap; it is not sent.
type FrameSizeError struct {
	Type  string
	Size  int
	Limit int
}

func (e *FrameSizeError) Error() string {
	return fmt.Sprintf("the %s message is %d bytes, over the %d-byte cap", e.Type, e.Size, e.Limit)
}

// readFrame reads one frame body, refusing a length over limit (MaxFrame
// from a worker, MaxRunFrame from the host) before reading the body.
func readFrame(r io.Reader, limit int) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n == 0 || int64(n) > int64(limit) {
		return nil, protocolErrorf("frame of %d bytes is outside 1..%d", n, limit)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// withinCeiling reports whether every limit of l is set and no higher than
// the ceiling. The host clamps before sending, so a request outside the
// ceiling did not come from the host.
func withinCeiling(l script.Limits) bool {
	return l.Clamp() == l
}
