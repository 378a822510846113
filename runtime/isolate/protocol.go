package isolate

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
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

// Message types. Worker to host: ready, heartbeat, call, outcome, breach,
// done. Host to worker: run, reply.
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
// host does, all come from it.
var capabilities = map[string]capabilityOp{
	opFetch:        {script.CapNet, keySet{required: []string{"op", "fetch"}}, performFetch},
	opBundleRead:   {script.CapBundle, keySet{required: []string{"op"}, optional: []string{"path"}}, performBundleRead},
	opBundleExists: {script.CapBundle, keySet{required: []string{"op"}, optional: []string{"path"}}, performBundleExists},
	opBundleWrite:  {script.CapBundle, keySet{required: []string{"op"}, optional: []string{"path", "data"}}, performBundleWrite},
	opCacheGet:     {script.CapCache, keySet{required: []string{"op"}, optional: []string{"key"}}, performCacheGet},
	opCachePut:     {script.CapCache, keySet{required: []string{"op"}, optional: []string{"key", "value"}}, performCachePut},
	opRequire:      {script.CapRequire, keySet{required: []string{"op"}, optional: []string{"name"}}, performRequire},
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

// message is the one envelope every frame carries. Which fields may appear
// depends on Type and is checked against messageKeys before decoding.
type message struct {
	V       int              `json:"v"`
	Run     uint64           `json:"run"`
	Type    string           `json:"type"`
	ID      uint64           `json:"id,omitempty"`
	Req     *script.Request  `json:"req,omitempty"`
	Call    *call            `json:"call,omitempty"`
	Reply   *reply           `json:"reply,omitempty"`
	Outcome *script.Outcome  `json:"outcome,omitempty"`
	Limit   script.LimitKind `json:"limit,omitempty"`
	Error   string           `json:"error,omitempty"`
	// Sources are the byte lengths of a run request's scripts, which
	// follow the message's JSON in its frame, in the order of its blocks.
	Sources []int `json:"sources,omitempty"`
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

var envelope = []string{"v", "run", "type"}

// messageKeys is the exact key allowlist of every message type, by the
// direction it travels in.
var messageKeys = map[string]keySet{
	msgReady:     {required: envelope},
	msgHeartbeat: {required: envelope},
	msgCall:      {required: append([]string{"id", "call"}, envelope...)},
	msgOutcome:   {required: append([]string{"outcome"}, envelope...)},
	msgBreach:    {required: append([]string{"limit"}, envelope...)},
	msgDone:      {required: envelope, optional: []string{"error"}},
	msgRun:       {required: append([]string{"req"}, envelope...), optional: []string{"sources"}},
	msgReply:     {required: append([]string{"id", "reply"}, envelope...)},
}

var replyKeys = keySet{optional: []string{"failure", "net", "host", "error", "fetch", "data", "found", "value", "storedAt", "source"}}

var workerSends = map[string]bool{msgReady: true, msgHeartbeat: true, msgCall: true, msgOutcome: true, msgBreach: true, msgDone: true}
var hostSends = map[string]bool{msgRun: true, msgReply: true}

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

// workerMessage is a message as a worker writes it: the envelope and the
// payloads a worker sends, in message's field order, so it encodes to the
// same JSON. Encoding it does not make encoding/json prepare the request
// and reply types, which a cold worker would otherwise do before its first
// message.
type workerMessage struct {
	V       int              `json:"v"`
	Run     uint64           `json:"run"`
	Type    string           `json:"type"`
	ID      uint64           `json:"id,omitempty"`
	Call    *call            `json:"call,omitempty"`
	Outcome *script.Outcome  `json:"outcome,omitempty"`
	Limit   script.LimitKind `json:"limit,omitempty"`
	Error   string           `json:"error,omitempty"`
}

// writeFrame writes a host's message m as a 4-byte big-endian length and
// its JSON body. A run request's scripts follow the JSON as they are,
// their lengths in the message's sources: however many quotes or control
// characters they hold, they take their own size on the wire, so any
// note under the note cap can be handed over, and a request too large
// to send is refused before anything is copied.
func writeFrame(w io.Writer, m *message) error {
	if m.Req == nil || len(m.Req.Blocks) == 0 {
		return writeBody(w, m.Type, m, nil)
	}
	req := *m.Req
	req.Blocks = slices.Clone(req.Blocks)
	out := *m
	out.Req = &req
	out.Sources = make([]int, len(req.Blocks))
	sources := make([]string, len(req.Blocks))
	for i := range req.Blocks {
		sources[i] = req.Blocks[i].Source
		out.Sources[i] = len(sources[i])
		req.Blocks[i].Source = ""
	}
	return writeBody(w, m.Type, &out, sources)
}

// writeWorkerFrame writes a worker's message m like writeFrame. A host
// payload in m (a request or a reply) is an error: workers do not send
// them.
func writeWorkerFrame(w io.Writer, m *message) error {
	if m.Req != nil || m.Reply != nil {
		return protocolErrorf("a worker cannot send a %s message with a request or reply", m.Type)
	}
	return writeBody(w, m.Type, &workerMessage{V: m.V, Run: m.Run, Type: m.Type, ID: m.ID,
		Call: m.Call, Outcome: m.Outcome, Limit: m.Limit, Error: m.Error}, nil)
}

// writeBody encodes m after a 4-byte length, and then the raw strings of
// tail. HTML escaping is off: it would make each of <, > and & six bytes
// long for no reader's benefit.
func writeBody(w io.Writer, typ string, m any, tail []string) error {
	var buf bytes.Buffer
	buf.Write([]byte{0, 0, 0, 0})
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return err
	}
	frame := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	n := len(frame) - 4
	if n > MaxFrame {
		return &FrameSizeError{Type: typ, Size: n, Limit: MaxFrame}
	}
	for _, t := range tail {
		n += len(t)
	}
	if n > MaxRunFrame {
		return &FrameSizeError{Type: typ, Size: n, Limit: MaxRunFrame}
	}
	binary.BigEndian.PutUint32(frame, uint32(n))
	if _, err := w.Write(frame); err != nil {
		return err
	}
	for _, t := range tail {
		if _, err := io.WriteString(w, t); err != nil {
			return err
		}
	}
	return nil
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

// decodeMessage validates body as a message that the given sender may send:
// the exact key allowlist of its type (and of a call or reply inside it),
// the protocol version, and no unknown key anywhere in the typed payload.
func decodeMessage(frame []byte, fromWorker bool) (*message, error) {
	top, body, tail, err := splitFrame(frame)
	if err != nil {
		return nil, err
	}
	var typ string
	if raw, ok := top["type"]; !ok || json.Unmarshal(raw, &typ) != nil {
		return nil, protocolErrorf("message has no type")
	}
	allowed := hostSends
	if fromWorker {
		allowed = workerSends
	}
	if !allowed[typ] {
		return nil, protocolErrorf("message type %q is not allowed in this direction", typ)
	}
	if err := checkKeys(top, messageKeys[typ], typ); err != nil {
		return nil, err
	}
	var version int
	if err := json.Unmarshal(top["v"], &version); err != nil || version != ProtocolVersion {
		return nil, protocolErrorf("protocol version %s is not %d", top["v"], ProtocolVersion)
	}
	switch typ {
	case msgCall:
		var c map[string]json.RawMessage
		if err := json.Unmarshal(top["call"], &c); err != nil {
			return nil, protocolErrorf("call is not an object")
		}
		var op string
		if err := json.Unmarshal(c["op"], &op); err != nil {
			return nil, protocolErrorf("call has no operation")
		}
		capOp, ok := capabilities[op]
		if !ok {
			return nil, protocolErrorf("unknown call operation %q", op)
		}
		if err := checkKeys(c, capOp.keys, "call "+op); err != nil {
			return nil, err
		}
	case msgReply:
		var r map[string]json.RawMessage
		if err := json.Unmarshal(top["reply"], &r); err != nil {
			return nil, protocolErrorf("reply is not an object")
		}
		if err := checkKeys(r, replyKeys, "reply"); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var m message
	if err := dec.Decode(&m); err != nil {
		return nil, &ProtocolError{Reason: fmt.Sprintf("%s message does not decode: %v", typ, err), Err: err}
	}
	if dec.More() {
		return nil, protocolErrorf("trailing data after %s message", typ)
	}
	if err := attachSources(&m, tail); err != nil {
		return nil, err
	}
	return &m, nil
}

// splitFrame cuts a frame into its JSON message, of at most MaxFrame
// bytes and read as an object's keys, and the raw bytes after it.
func splitFrame(frame []byte) (top map[string]json.RawMessage, body, tail []byte, err error) {
	dec := json.NewDecoder(bytes.NewReader(frame))
	if err := dec.Decode(&top); err != nil || top == nil {
		return nil, nil, nil, protocolErrorf("message is not a JSON object")
	}
	end := int(dec.InputOffset())
	if end > MaxFrame {
		return nil, nil, nil, protocolErrorf("message JSON of %d bytes is over the %d-byte cap", end, MaxFrame)
	}
	return top, frame[:end], frame[end:], nil
}

// attachSources gives a run request's blocks their sources from the raw
// bytes after the JSON: one length per block, adding up to exactly the
// bytes there are. Any other message has nothing after its JSON.
func attachSources(m *message, tail []byte) error {
	if m.Type != msgRun || m.Req == nil {
		if len(tail) > 0 || m.Sources != nil {
			return protocolErrorf("trailing data after %s message", m.Type)
		}
		return nil
	}
	if len(m.Sources) != len(m.Req.Blocks) {
		return protocolErrorf("run message gives %d source lengths for %d blocks", len(m.Sources), len(m.Req.Blocks))
	}
	rest := tail
	for i, n := range m.Sources {
		if n < 0 || n > len(rest) {
			return protocolErrorf("run message source %d of %d bytes runs past the frame", i, n)
		}
		if m.Req.Blocks[i].Source != "" {
			return protocolErrorf("run message block %d carries its source twice", i)
		}
		m.Req.Blocks[i].Source = string(rest[:n])
		rest = rest[n:]
	}
	if len(rest) > 0 {
		return protocolErrorf("run message has %d bytes after its sources", len(rest))
	}
	m.Sources = nil
	return nil
}

func checkKeys(obj map[string]json.RawMessage, keys keySet, what string) error {
	for k := range obj {
		if !keys.allows(k) {
			return protocolErrorf("%s message has unexpected key %q", what, k)
		}
	}
	for _, k := range keys.required {
		if _, ok := obj[k]; !ok {
			return protocolErrorf("%s message lacks key %q", what, k)
		}
	}
	return nil
}

// withinCeiling reports whether every limit of l is set and no higher than
// the ceiling. The host clamps before sending, so a request outside the
// ceiling did not come from the host.
func withinCeiling(l script.Limits) bool {
	return l.Clamp() == l
}

// checkValue bounds a script value arriving from the worker by the run's
// marshal limits: nesting depth and number of JSON tokens (object keys
// count beside values, so the token cap is twice the node cap).
func checkValue(v json.RawMessage, l script.Limits) error {
	if len(v) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	depth, tokens := 0, 0
	maxTokens := 2*l.MarshalNodes + 2
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return protocolErrorf("script value is not valid JSON")
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			if depth > l.MarshalDepth+1 {
				return protocolErrorf("script value is nested deeper than %d", l.MarshalDepth)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
			continue
		}
		tokens++
		if tokens > maxTokens {
			return protocolErrorf("script value has more than %d nodes", l.MarshalNodes)
		}
	}
}
