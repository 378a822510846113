package isolate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// walkValue is the reference: a walk of the value's JSON that stops at
// the first breach of the run's marshal limits (what the host did before
// it measured values while decoding their frame).
func walkValue(v json.RawMessage, l script.Limits) error {
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

// TestMeasuredValueGivesTheWalksVerdict: a value measured as its frame is
// decoded is refused, or not, with the very error the reference walk
// gives, and keeps its bytes.
func TestMeasuredValueGivesTheWalksVerdict(t *testing.T) {
	values := []string{
		`1`, `"x"`, `null`, `[]`, `{}`, `{"a":[1,2,{"b":null}]}`,
		strings.Repeat("[", 4) + strings.Repeat("]", 4),
		strings.Repeat("[", 5) + strings.Repeat("]", 5),
		strings.Repeat("[", 40) + strings.Repeat("]", 40),
		`[1,2,3,4,5,6,7,8,9,10,11]`,
		`[[[[[1,2,3,4,5,6,7,8,9]]]]]`,
		`[1,2,3,4,5,6,7,8,[[[[[[1]]]]]]]`,
		`[1e999]`, `[[[[[[[1e999]]]]]]]`, `[1,2,3,4,5,6,7,8,9,1e999]`,
		`{"k":{"k":{"k":{"k":{"k":1}}}}}`,
	}
	limits := []script.Limits{script.Ceiling, {MarshalDepth: 3, MarshalNodes: 4}, {MarshalDepth: 4, MarshalNodes: 100}, {MarshalDepth: 30, MarshalNodes: 3}}
	for _, v := range values {
		frame := []byte(`{"v":` + strconv.Itoa(ProtocolVersion) + `,"run":1,"type":"outcome","outcome":{"name":"a","kind":"ok","value": ` + v + ` }}`)
		m, err := decodeMessage(frame, true)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		o := m.Body.(*outcomeMsg)
		if string(o.Outcome.Value) != v {
			t.Errorf("value %s decoded as %s", v, o.Outcome.Value)
		}
		for _, l := range limits {
			want, got := walkValue(json.RawMessage(v), l), o.shape.check(l)
			if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
				t.Errorf("%s at depth %d, nodes %d: measured %v, the walk says %v", v, l.MarshalDepth, l.MarshalNodes, got, want)
			}
			if got := reconcile(*o.Outcome, &o.shape, hostRecords{}, l); (want == nil) != (got.Kind == value.Ok) {
				t.Errorf("%s: reconciled to %+v, the walk says %v", v, got, want)
			}
		}
	}
}

// TestMessagesDecodeInAnyKeyOrder: a sender that writes the envelope after
// the payload (as a map encoder does) is read the same.
func TestMessagesDecodeInAnyKeyOrder(t *testing.T) {
	for _, frame := range []string{
		`{"outcome":{"value":[1,[2]],"kind":"ok","name":"a"},"type":"outcome","run":1,"v":` + strconv.Itoa(ProtocolVersion) + `}`,
		`{"v":` + strconv.Itoa(ProtocolVersion) + `,"outcome":{"name":"a","kind":"ok","value":[1,[2]]},"run":1,"type":"outcome"}`,
	} {
		m, err := decodeMessage([]byte(frame), true)
		if err != nil {
			t.Fatalf("%s: %v", frame, err)
		}
		o := m.Body.(*outcomeMsg)
		if string(o.Outcome.Value) != `[1,[2]]` || o.shape.tokens != 4 || o.shape.depthAt[2] != 3 {
			t.Errorf("%s: value %s, shape %+v", frame, o.Outcome.Value, o.shape)
		}
	}
	if _, err := decodeMessage([]byte(`{"v":`+strconv.Itoa(ProtocolVersion)+`,"run":1,"type":"hb","type":"hb"}`), true); err == nil {
		t.Error("a key given twice was accepted")
	}
}
