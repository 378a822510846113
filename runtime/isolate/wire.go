package isolate

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/markii/markii/runtime/script"
)

// writeFrame writes m as a 4-byte big-endian length and its JSON: the
// envelope's "v", "run" and "type", then the payload's fields, in one
// object. A run request's scripts follow the JSON as they are, their
// lengths in the message's sources: however many quotes or control
// characters they hold, they take their own size on the wire, so any note
// under the note cap can be handed over, and a request too large to send
// is refused before anything is copied.
func writeFrame(w io.Writer, m *message) error {
	body, tail := m.Body, []string(nil)
	if r, ok := body.(*runMsg); ok && r.Req != nil && len(r.Req.Blocks) > 0 {
		body, tail = withSourcesAfter(r)
	}
	var buf bytes.Buffer
	buf.Write([]byte{0, 0, 0, 0})
	buf.WriteString(`{"v":`)
	buf.WriteString(strconv.Itoa(m.V))
	buf.WriteString(`,"run":`)
	buf.WriteString(strconv.FormatUint(m.Run, 10))
	buf.WriteString(`,"type":"`)
	buf.WriteString(m.kind())
	buf.WriteByte('"')
	head := buf.Len()
	// HTML escaping is off: it would make each of <, > and & six bytes
	// long for no reader's benefit.
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return err
	}
	// The payload encodes as {…}\n: its fields join the envelope's.
	payload := bytes.TrimSuffix(buf.Bytes()[head:], []byte("\n"))
	if len(payload) > 2 {
		payload[0] = ','
		buf.Truncate(head + len(payload))
	} else {
		buf.Truncate(head)
		buf.WriteByte('}')
	}
	return writeBody(w, m.kind(), buf.Bytes(), tail)
}

// withSourcesAfter is a run message whose scripts are taken out of its
// JSON, to follow it raw, with their lengths in Sources.
func withSourcesAfter(r *runMsg) (*runMsg, []string) {
	req := *r.Req
	req.Blocks = slices.Clone(req.Blocks)
	out := &runMsg{Req: &req, Sources: make([]int, len(req.Blocks))}
	tail := make([]string, len(req.Blocks))
	for i := range req.Blocks {
		tail[i] = req.Blocks[i].Source
		out.Sources[i] = len(tail[i])
		req.Blocks[i].Source = ""
	}
	return out, tail
}

// writeBody fills in frame's length (its first four bytes) and writes it,
// then the raw strings of tail.
func writeBody(w io.Writer, typ string, frame []byte, tail []string) error {
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

// writeWorkerFrame writes a worker's message m like writeFrame. A message
// of a kind only the host sends (a run request or a reply) is an error.
func writeWorkerFrame(w io.Writer, m *message) error {
	if !kinds()[m.kind()].fromWorker {
		return protocolErrorf("a worker cannot send a %s message", m.kind())
	}
	return writeFrame(w, m)
}

// decodeMessage reads frame as a message that the given sender may send,
// in one pass over its JSON: the envelope's keys, then each key of the
// payload's own type (its exact allowlist) decoded into its field, and
// strictly below that (no unknown key anywhere). A call is checked
// against its operation's keys, and a script value is measured (see
// valueShape) as it is read. The protocol version must be this one, and
// after the JSON comes nothing but a run request's sources.
func decodeMessage(frame []byte, fromWorker bool) (*message, error) {
	d := &frameDecoder{src: frame}
	m, err := d.message(fromWorker)
	if err != nil {
		return nil, err
	}
	end := d.at
	if end > MaxFrame {
		return nil, protocolErrorf("message JSON of %d bytes is over the %d-byte cap", end, MaxFrame)
	}
	if err := attachSources(m, frame[end:]); err != nil {
		return nil, err
	}
	return m, nil
}

// frameDecoder reads one frame's JSON. It walks the objects it decodes
// key by key itself and hands each value's bytes to encoding/json, so a
// frame is read once and no token is made for a key or a scalar.
type frameDecoder struct {
	src []byte
	at  int
}

// message reads the top-level object. Keys that come before "type" (which
// a well-behaved sender never writes) are kept raw until the kind is
// known.
func (d *frameDecoder) message(fromWorker bool) (*message, error) {
	e := &envelopeState{fromWorker: fromWorker}
	err := d.each("message", func(key string) error { return d.envelopeKey(e, key) })
	if err != nil {
		return nil, err
	}
	return e.finish()
}

// each reads a JSON object, calling read for each key with the decoder at
// the key's value, which read must consume.
func (d *frameDecoder) each(what string, read func(key string) error) error {
	if !d.consume('{') {
		return protocolErrorf("%s is not a JSON object", what)
	}
	if d.consume('}') {
		return nil
	}
	for {
		key, err := d.key(what)
		if err != nil {
			return err
		}
		if err := read(key); err != nil {
			return err
		}
		if d.consume('}') {
			return nil
		}
		if !d.consume(',') {
			return protocolErrorf("%s is not a JSON object", what)
		}
	}
}

// consume skips white space and then c, reporting whether c was there.
func (d *frameDecoder) consume(c byte) bool {
	for d.at < len(d.src) && isJSONSpace(d.src[d.at]) {
		d.at++
	}
	if d.at < len(d.src) && d.src[d.at] == c {
		d.at++
		return true
	}
	return false
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// wireKeys are the keys of every object the decoder reads key by key,
// so that a key it knows costs no allocation; built on first use.
func wireKeys() map[string]string {
	wireKeysOnce.Do(func() {
		keys := map[string]string{"v": "v", "run": "run", "type": "type"}
		f := wireFields()
		tables := []*structFields{f.call, f.reply, f.outcome}
		for _, info := range kinds() {
			tables = append(tables, info.fields)
		}
		for _, t := range tables {
			for k := range t.index {
				keys[k] = k
			}
		}
		wireKeysTable = keys
	})
	return wireKeysTable
}

var (
	wireKeysOnce  sync.Once
	wireKeysTable map[string]string
)

// key reads an object's next key and the colon after it.
func (d *frameDecoder) key(what string) (string, error) {
	raw, err := d.next()
	if err != nil || len(raw) < 2 || raw[0] != '"' || !d.consume(':') {
		return "", protocolErrorf("%s is not a JSON object", what)
	}
	if k, ok := wireKeys()[string(raw[1:len(raw)-1])]; ok {
		return k, nil
	}
	var key string
	if err := json.Unmarshal(raw, &key); err != nil {
		return "", protocolErrorf("%s is not a JSON object", what)
	}
	return key, nil
}

// next returns the bytes of the next JSON value (after white space) and
// moves past them. It finds only where the value ends: whoever decodes
// the bytes checks that they are JSON.
func (d *frameDecoder) next() ([]byte, error) {
	for d.at < len(d.src) && isJSONSpace(d.src[d.at]) {
		d.at++
	}
	start := d.at
	if start >= len(d.src) {
		return nil, io.ErrUnexpectedEOF
	}
	switch d.src[start] {
	case '"':
		d.at = stringEnd(d.src, start)
	case '{', '[':
		d.at = nestedEnd(d.src, start)
	default:
		for d.at < len(d.src) && !endsScalar(d.src[d.at]) {
			d.at++
		}
	}
	if d.at < 0 {
		d.at = len(d.src)
		return nil, io.ErrUnexpectedEOF
	}
	return d.src[start:d.at], nil
}

// endsScalar reports whether c ends a number or a literal.
func endsScalar(c byte) bool {
	return isJSONSpace(c) || c == ',' || c == ':' || c == ']' || c == '}'
}

// stringEnd returns the offset after the string that starts at src[i],
// or -1 when it does not end.
func stringEnd(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// nestedEnd returns the offset after the object or array that starts at
// src[i], or -1 when it does not end.
func nestedEnd(src []byte, i int) int {
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '"':
			if i = stringEnd(src, i); i < 0 {
				return -1
			}
			i--
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// envelopeState is a message while its top-level keys are read.
type envelopeState struct {
	m          message
	info       kindInfo
	seen       seenSet
	pending    []rawField
	fromWorker bool
}

// envelopeKey reads the value of one top-level key.
func (d *frameDecoder) envelopeKey(e *envelopeState, key string) error {
	if bit, ok := envelopeBit(key); ok && !e.seen.add(bit) {
		return protocolErrorf("message has key %q twice", key)
	}
	switch {
	case key == "v":
		return d.decode(&e.m.V, "message")
	case key == "run":
		return d.decode(&e.m.Run, "message")
	case key == "type":
		return d.typeKey(e)
	case e.m.Body == nil:
		var raw json.RawMessage
		err := d.decode(&raw, "message")
		e.pending = append(e.pending, rawField{key, raw})
		return err
	}
	if err := e.keyOnce(key); err != nil {
		return err
	}
	return d.field(e.m.Body, e.info.fields, key)
}

// typeKey reads the message's kind, then the payload keys held back
// because they came before it.
func (d *frameDecoder) typeKey(e *envelopeState) error {
	info, err := d.kind(&e.m, e.fromWorker)
	e.info = info
	for _, f := range e.pending {
		if err == nil {
			err = e.pendingKey(f)
		}
	}
	return err
}

// pendingKey decodes a payload key held back until the kind was known.
func (e *envelopeState) pendingKey(f rawField) error {
	if err := e.keyOnce(f.key); err != nil {
		return err
	}
	return decodeRawField(e.m.Body, e.info, f)
}

// keyOnce marks a payload key seen, refusing one the kind does not have
// or one seen before.
func (e *envelopeState) keyOnce(key string) error {
	f, ok := e.info.fields.index[key]
	if !ok {
		return protocolErrorf("%s message has unexpected key %q", e.m.kind(), key)
	}
	if !e.seen.add(f.index) {
		return protocolErrorf("message has key %q twice", key)
	}
	return nil
}

// The envelope's keys, as bits of a seenSet above any payload field's.
const (
	bitV    = 61
	bitRun  = 62
	bitType = 63
)

// envelopeBit is the bit of an envelope key, or false for a payload's key.
func envelopeBit(key string) (uint, bool) {
	switch key {
	case "v":
		return bitV, true
	case "run":
		return bitRun, true
	case "type":
		return bitType, true
	}
	return 0, false
}

// seenSet is the set of an object's keys read so far, by field index (a
// struct decoded key by key has fewer than 61 fields).
type seenSet uint64

// add marks bit seen; false when it was already.
func (s *seenSet) add(bit uint) bool {
	if *s&(1<<bit) != 0 {
		return false
	}
	*s |= 1 << bit
	return true
}

func (s seenSet) has(bit uint) bool { return s&(1<<bit) != 0 }

// finish checks that the message carried every key its kind requires and
// this protocol's version.
func (e *envelopeState) finish() (*message, error) {
	if e.m.Body == nil {
		return nil, protocolErrorf("message has no type")
	}
	if err := checkRequired(e.seen, e.info.fields, e.m.kind()); err != nil {
		return nil, err
	}
	if !e.seen.has(bitV) || e.m.V != ProtocolVersion {
		return nil, protocolErrorf("protocol version %d is not %d", e.m.V, ProtocolVersion)
	}
	if !e.seen.has(bitRun) {
		return nil, protocolErrorf("%s message lacks key %q", e.m.kind(), "run")
	}
	return &e.m, nil
}

// rawField is a payload key read before the message's kind was known.
type rawField struct {
	key string
	raw json.RawMessage
}

// decodeRawField decodes one early payload key into body.
func decodeRawField(body payload, info kindInfo, f rawField) error {
	d := &frameDecoder{src: f.raw}
	return d.value(body, info.fields, f.key)
}

// kind reads the message's tag and gives m the payload of that kind.
func (d *frameDecoder) kind(m *message, fromWorker bool) (kindInfo, error) {
	var typ string
	if raw, err := d.next(); err != nil || json.Unmarshal(raw, &typ) != nil {
		return kindInfo{}, protocolErrorf("message has no type")
	}
	info, ok := kinds()[typ]
	if !ok || info.fromWorker != fromWorker {
		return kindInfo{}, protocolErrorf("message type %q is not allowed in this direction", typ)
	}
	m.Body = info.new()
	return info, nil
}

// decode reads the next value into v.
func (d *frameDecoder) decode(v any, what string) error {
	raw, err := d.next()
	if err == nil {
		err = unmarshalStrict(raw, v)
	}
	if err != nil {
		return &ProtocolError{Reason: fmt.Sprintf("%s message does not decode: %v", what, err), Err: err}
	}
	return nil
}

// unmarshalStrict decodes the JSON value raw into v, refusing an unknown
// key at any depth and keeping numbers as json.Number, with nothing after
// the value.
func unmarshalStrict(raw []byte, v any) error {
	if plainTarget(v) {
		// No key, no interface: json.Unmarshal reads it the same, and
		// checks the whole of raw.
		return json.Unmarshal(raw, v)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.InputOffset() != int64(len(raw)) {
		return errors.New("invalid JSON after the value")
	}
	return nil
}

// plainTarget reports whether v points to a value with no keys and no
// interface inside: a scalar, a byte slice or raw JSON.
func plainTarget(v any) bool {
	switch v.(type) {
	case *json.RawMessage, *[]byte:
		return true
	}
	switch reflect.TypeOf(v).Elem().Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// field reads payload key into its field of body, or refuses a key the
// kind does not have.
func (d *frameDecoder) field(body payload, fields *structFields, key string) error {
	if _, ok := fields.index[key]; !ok {
		return protocolErrorf("%s message has unexpected key %q", body.kind(), key)
	}
	return d.value(body, fields, key)
}

// value reads the value of payload key into body: a call and a reply key
// by key against their own allowlists, an outcome with its value
// measured, anything else strictly.
func (d *frameDecoder) value(body payload, fields *structFields, key string) error {
	f, ok := fields.index[key]
	if !ok {
		return protocolErrorf("%s message has unexpected key %q", body.kind(), key)
	}
	target := reflect.ValueOf(body).Elem().Field(int(f.index)).Addr().Interface()
	switch t := target.(type) {
	case **call:
		*t = new(call)
		return d.call(*t)
	case **reply:
		*t = new(reply)
		return d.object(*t, wireFields().reply, "reply", nil)
	case **script.Outcome:
		*t = new(script.Outcome)
		shape := &body.(*outcomeMsg).shape
		return d.object(*t, wireFields().outcome, body.kind(), shape)
	}
	return d.decode(target, body.kind())
}

// call reads a call key by key and checks the keys against its
// operation's allowlist in the capability table.
func (d *frameDecoder) call(c *call) error {
	var seen seenSet
	callFields := wireFields().call
	if err := d.objectSeen(c, callFields, "call", nil, &seen); err != nil {
		return err
	}
	op, ok := capabilities()[c.Op]
	if !seen.has(callFields.index["op"].index) {
		return protocolErrorf("call has no operation")
	}
	if !ok {
		return protocolErrorf("unknown call operation %q", c.Op)
	}
	for k, f := range callFields.index {
		if seen.has(f.index) && !op.keys.allows(k) {
			return protocolErrorf("call %s message has unexpected key %q", c.Op, k)
		}
	}
	for _, k := range op.keys.required {
		if !seen.has(callFields.index[k].index) {
			return protocolErrorf("call %s message lacks key %q", c.Op, k)
		}
	}
	return nil
}

// object reads a JSON object into the struct v key by key, each key one
// of fields; a json.RawMessage field is measured into shape when shape is
// set.
func (d *frameDecoder) object(v any, fields *structFields, what string, shape *valueShape) error {
	var seen seenSet
	if err := d.objectSeen(v, fields, what, shape, &seen); err != nil {
		return err
	}
	return checkRequired(seen, fields, what)
}

func (d *frameDecoder) objectSeen(v any, fields *structFields, what string, shape *valueShape, seen *seenSet) error {
	rv := reflect.ValueOf(v).Elem()
	return d.each(what, func(key string) error {
		f, ok := fields.index[key]
		if !ok {
			return protocolErrorf("%s message has unexpected key %q", what, key)
		}
		if !seen.add(f.index) {
			return protocolErrorf("%s message has key %q twice", what, key)
		}
		target := rv.Field(int(f.index)).Addr().Interface()
		if raw, ok := target.(*json.RawMessage); ok && shape != nil {
			return d.measured(raw, shape)
		}
		return d.decode(target, what)
	})
}

// measured reads one JSON value into raw (the value's own bytes in the
// frame), measuring it into shape: the one time the host reads a
// script's value.
func (d *frameDecoder) measured(raw *json.RawMessage, shape *valueShape) error {
	v, err := d.next()
	if err == nil && !json.Valid(v) {
		err = json.Unmarshal(v, new(any))
	}
	if err != nil {
		return &ProtocolError{Reason: fmt.Sprintf("outcome message does not decode: %v", err), Err: err}
	}
	shape.measure(v)
	*raw = json.RawMessage(v)
	return nil
}

// checkRequired reports a required field of fields that seen lacks.
func checkRequired(seen seenSet, fields *structFields, what string) error {
	for _, k := range fields.required {
		if !seen.has(fields.index[k].index) {
			return protocolErrorf("%s message lacks key %q", what, k)
		}
	}
	return nil
}

// structFields are a struct's JSON keys: each key's field index, and the
// keys a message must carry (fields without omitempty).
type structFields struct {
	index    map[string]fieldInfo
	required []string
}

type fieldInfo struct{ index uint }

// wireFields are the field tables of the structs decoded key by key,
// built on first use.
func wireFields() *wireFieldTables {
	wireFieldsOnce.Do(func() {
		wireFieldsTable = wireFieldTables{
			call:    fieldsOf(&call{}),
			reply:   fieldsOf(&reply{}),
			outcome: fieldsOf(&script.Outcome{}),
		}
	})
	return &wireFieldsTable
}

// wireFieldTables are the field tables of a call, a reply and an outcome.
type wireFieldTables struct{ call, reply, outcome *structFields }

var (
	wireFieldsOnce  sync.Once
	wireFieldsTable wireFieldTables
)

// fieldsOf reads the JSON keys of the struct v points to from its tags.
func fieldsOf(v any) *structFields {
	t := reflect.TypeOf(v).Elem()
	out := &structFields{index: map[string]fieldInfo{}}
	for i := range t.NumField() {
		tag, ok := t.Field(i).Tag.Lookup("json")
		if !ok || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		out.index[name] = fieldInfo{index: uint(i)}
		if !strings.Contains(opts, "omitempty") {
			out.required = append(out.required, name)
		}
	}
	return out
}

// attachSources gives a run request's blocks their sources from the raw
// bytes after the JSON: one length per block, adding up to exactly the
// bytes there are. Any other message has nothing after its JSON.
func attachSources(m *message, tail []byte) error {
	r, ok := m.Body.(*runMsg)
	if !ok || r.Req == nil {
		if len(tail) > 0 || (ok && r.Sources != nil) {
			return protocolErrorf("trailing data after %s message", m.kind())
		}
		return nil
	}
	if len(r.Sources) != len(r.Req.Blocks) {
		return protocolErrorf("run message gives %d source lengths for %d blocks", len(r.Sources), len(r.Req.Blocks))
	}
	rest, err := fillSources(r, tail)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return protocolErrorf("run message has %d bytes after its sources", len(rest))
	}
	r.Sources = nil
	return nil
}

// fillSources cuts each block's source from tail by its length and
// returns what is left.
func fillSources(r *runMsg, tail []byte) ([]byte, error) {
	rest := tail
	for i, n := range r.Sources {
		if n < 0 || n > len(rest) {
			return nil, protocolErrorf("run message source %d of %d bytes runs past the frame", i, n)
		}
		if r.Req.Blocks[i].Source != "" {
			return nil, protocolErrorf("run message block %d carries its source twice", i)
		}
		r.Req.Blocks[i].Source = string(rest[:n])
		rest = rest[n:]
	}
	return rest, nil
}

// maxMeasuredDepth bounds the depths a valueShape records: above any
// run's MarshalDepth + 1 (the limits never exceed the ceiling's).
const maxMeasuredDepth = 64

// valueShape is a script value's depth and size, measured while its frame
// is decoded, so that a run's marshal limits are checked without reading
// the value again. It records where in the value (counted in tokens, as a
// walk that stops at the first breach counts them) each depth was first
// reached and any number that is not a float64, so that check gives the
// verdict such a walk gives.
type valueShape struct {
	tokens int
	// depthAt[d] is 1 + the token count at which depth d was first
	// reached (0: never).
	depthAt [maxMeasuredDepth + 1]int
	// badNumberAt is 1 + the token count at the first number that does
	// not fit a float64 (0: none).
	badNumberAt int
}

// measure counts the tokens of the valid JSON value v as a decoder that
// reads it token by token meets them: an object's keys count beside its
// values, and a closing bracket is no token.
func (s *valueShape) measure(v []byte) {
	depth := 0
	for i := 0; i >= 0 && i < len(v); {
		switch jsonClass[v[i]] {
		case jsonOpen:
			depth++
			s.reach(depth)
			i++
		case jsonClose:
			depth--
			i++
		case jsonQuote:
			i = stringEnd(v, i)
			s.tokens++
		case jsonBlank:
			i++
		default:
			i = s.scalar(v, i)
		}
	}
}

// The classes of a byte where a JSON token may start, for measure.
const (
	jsonScalar = iota // a number or literal
	jsonOpen          // { or [
	jsonClose         // } or ]
	jsonQuote         // a string
	jsonBlank         // white space, : or ,
)

// jsonClass is each byte's class.
var jsonClass = [256]uint8{
	'{': jsonOpen, '[': jsonOpen,
	'}': jsonClose, ']': jsonClose,
	'"': jsonQuote,
	' ': jsonBlank, '\t': jsonBlank, '\n': jsonBlank, '\r': jsonBlank, ':': jsonBlank, ',': jsonBlank,
}

// reach counts an opening bracket that reaches depth.
func (s *valueShape) reach(depth int) {
	if depth <= maxMeasuredDepth && s.depthAt[depth] == 0 {
		s.depthAt[depth] = s.tokens + 1
	}
	s.tokens++
}

// scalar counts the number or literal at v[i] and returns where it ends.
func (s *valueShape) scalar(v []byte, i int) int {
	j := i
	for j < len(v) && !endsScalar(v[j]) {
		j++
	}
	if c := v[i]; c != 't' && c != 'f' && c != 'n' && s.badNumberAt == 0 {
		if _, err := strconv.ParseFloat(string(v[i:j]), 64); err != nil {
			s.badNumberAt = s.tokens + 1
		}
	}
	s.tokens++
	return j
}

// check bounds the value by the run's marshal limits: nesting depth and
// number of JSON tokens (object keys count beside values, so the token cap
// is twice the node cap). Of several breaches, the first in the value is
// reported.
func (s *valueShape) check(l script.Limits) error {
	const never = int(^uint(0) >> 1)
	deep, many, bad := never, never, never
	if d := l.MarshalDepth + 2; d <= maxMeasuredDepth && s.depthAt[d] > 0 {
		deep = s.depthAt[d] - 1
	}
	if maxTokens := 2*l.MarshalNodes + 2; s.tokens > maxTokens {
		many = maxTokens
	}
	if s.badNumberAt > 0 {
		bad = s.badNumberAt - 1
	}
	switch {
	case bad < deep && bad <= many:
		return protocolErrorf("script value is not valid JSON")
	case deep != never && deep <= many:
		return protocolErrorf("script value is nested deeper than %d", l.MarshalDepth)
	case many != never:
		return protocolErrorf("script value has more than %d nodes", l.MarshalNodes)
	}
	return nil
}
