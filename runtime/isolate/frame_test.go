package isolate

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestWorkerFramesMatchMessages: every message a worker sends encodes to
// exactly the bytes the shared message type gives, and decodes on the host
// side to the message that was sent.
func TestWorkerFramesMatchMessages(t *testing.T) {
	msgs := []*message{
		{V: ProtocolVersion, Body: &readyMsg{}},
		{V: ProtocolVersion, Run: 7, Body: &heartbeatMsg{}},
		{V: ProtocolVersion, Run: 7, Body: &callMsg{ID: 3, Call: &call{Op: opFetch, Fetch: &script.FetchRequest{Method: "POST", URL: "https://api.example/x", Body: `{"a":1}`}}}},
		{V: ProtocolVersion, Run: 7, Body: &callMsg{ID: 4, Call: &call{Op: opCachePut, Key: "k", Value: json.RawMessage(`[1,2]`)}}},
		{V: ProtocolVersion, Run: 7, Body: &outcomeMsg{Outcome: &script.Outcome{Name: "a", Kind: value.Ok, Value: json.RawMessage(`{"x":[1,"two",null]}`)}}},
		{V: ProtocolVersion, Run: 7, Body: &outcomeMsg{Outcome: &script.Outcome{Name: "b", Kind: value.CapabilityDenied, Capability: script.CapNet, Host: "h.example", Detail: "no"}}},
		{V: ProtocolVersion, Run: 7, Body: &breachMsg{Limit: script.LimitMemory}},
		{V: ProtocolVersion, Run: 7, Body: &doneMsg{Error: "the run's time ran out"}},
	}
	for _, m := range msgs {
		var shared, worker bytes.Buffer
		if err := writeFrame(&shared, m); err != nil {
			t.Fatal(err)
		}
		if err := writeWorkerFrame(&worker, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shared.Bytes(), worker.Bytes()) {
			t.Fatalf("%s: worker frame\n%s\ndiffers from\n%s", m.kind(), worker.Bytes(), shared.Bytes())
		}
		body, err := readFrame(&worker, MaxRunFrame)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeMessage(body, true)
		if err != nil {
			t.Fatalf("%s: %v", m.kind(), err)
		}
		want, _ := json.Marshal(m)
		again, _ := json.Marshal(got)
		if !bytes.Equal(want, again) {
			t.Fatalf("%s: decoded to %s, want %s", m.kind(), again, want)
		}
	}
	now := time.Now()
	for _, m := range []*message{
		{V: ProtocolVersion, Run: 7, Body: &runMsg{Req: &script.Request{}}},
		{V: ProtocolVersion, Run: 7, Body: &replyMsg{ID: 1, Reply: &reply{StoredAt: &now}}},
	} {
		if err := writeWorkerFrame(&bytes.Buffer{}, m); err == nil {
			t.Fatalf("a worker frame carried a %s payload", m.kind())
		}
	}
}
