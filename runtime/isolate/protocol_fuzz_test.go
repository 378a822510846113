package isolate

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// FuzzDecodeMessage feeds frame bodies to both sides' decoder. None may
// panic; whatever decodes is a message its sender may send, and a run
// request decodes to the same request once written again.
func FuzzDecodeMessage(f *testing.F) {
	run := &message{V: ProtocolVersion, Run: 9, Body: &runMsg{Req: request(script.Ceiling, lua("a", "return 1"), lua("b", "\x01\"<"))}}
	for _, m := range []*message{
		run,
		{V: ProtocolVersion, Run: 9, Body: &replyMsg{ID: 1, Reply: &reply{Error: "no", Failure: value.CapabilityDenied}}},
	} {
		var buf bytes.Buffer
		if err := writeFrame(&buf, m); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes()[4:], false)
	}
	f.Add([]byte(`{"v":4,"run":3,"type":"call","id":1,"call":{"op":"require","name":"m"}}`), true)
	f.Add([]byte(`{"v":4,"run":3,"type":"outcome","outcome":{"name":"a","kind":"ok","value":1}}`), true)
	f.Add([]byte(`{"v":4,"run":3,"type":"hb"}trailing`), true)
	f.Fuzz(func(t *testing.T, body []byte, fromWorker bool) {
		m, err := decodeMessage(body, fromWorker)
		if err != nil {
			return
		}
		if kinds()[m.kind()].fromWorker != fromWorker {
			t.Fatalf("a %s message decoded from the wrong side", m.kind())
		}
		r, ok := m.Body.(*runMsg)
		if !ok || r.Req == nil {
			return
		}
		var buf bytes.Buffer
		if err := writeFrame(&buf, m); err != nil {
			return // too large to write again
		}
		again, err := decodeMessage(buf.Bytes()[4:], false)
		if err != nil {
			t.Fatalf("a decoded run request does not decode once written again: %v", err)
		}
		if !reflect.DeepEqual(again.Body.(*runMsg).Req, r.Req) {
			t.Fatalf("the run request changed in a round trip:\n%+v\n%+v", r.Req, again.Body.(*runMsg).Req)
		}
	})
}
