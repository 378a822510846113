package isolate

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestWorkerRefusesForgedRequests sends forged run requests straight down a
// real worker's pipe. Each must be refused: the worker exits with its
// protocol status and runs nothing.
func TestWorkerRefusesForgedRequests(t *testing.T) {
	okReq := request(script.Ceiling, lua("a", "return 1"))
	over := script.Ceiling
	over.RunTime = time.Hour
	overReq := request(over, lua("a", "return 1"))
	zeroReq := request(script.Limits{}, lua("a", "return 1"))
	// frame encodes v as a host would: a run request's sources after the
	// JSON (tail, when set, replaces them).
	frame := func(v map[string]any, tail ...string) []byte {
		if req, ok := v["req"].(*script.Request); ok && tail == nil {
			r := *req
			r.Blocks = nil
			var lens []int
			for _, b := range req.Blocks {
				tail = append(tail, b.Source)
				lens = append(lens, len(b.Source))
				b.Source = ""
				r.Blocks = append(r.Blocks, b)
			}
			v["req"], v["sources"] = &r, lens
		}
		b, _ := json.Marshal(v)
		b = append(b, strings.Join(tail, "")...)
		head := make([]byte, 4)
		binary.BigEndian.PutUint32(head, uint32(len(b)))
		return append(head, b...)
	}
	bare := *okReq
	bare.Blocks = []script.Block{{Name: "a", Lang: "lua"}}
	cases := map[string][]byte{
		"wrong version":       frame(map[string]any{"v": ProtocolVersion + 1, "run": 9, "type": msgRun, "req": okReq}),
		"extra key":           frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": okReq, "grant": "all"}),
		"extra nested key":    frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": map[string]any{"tier": "manual", "blocks": []any{}, "limits": script.Ceiling, "unsafe": true}}),
		"missing run id":      frame(map[string]any{"v": ProtocolVersion, "run": 0, "type": msgRun, "req": okReq}),
		"limit above ceiling": frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": overReq}),
		"unset limits":        frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": zeroReq}),
		"worker-only type":    frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgOutcome, "outcome": script.Outcome{Name: "a", Kind: value.Ok}}),
		"oversized frame":     append(binary.BigEndian.AppendUint32(nil, MaxRunFrame+1), make([]byte, 64)...),
		"not json":            append(binary.BigEndian.AppendUint32(nil, 5), []byte("hello")...),
		// The sources after a run request's JSON must be exactly the
		// blocks' lengths, each given once.
		"source past the frame":  frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": &bare, "sources": []int{9}}, "return 1"),
		"bytes after sources":    frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": &bare, "sources": []int{8}}, "return 1--"),
		"too few source lengths": frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": &bare, "sources": []int{}}, "return 1"),
		"negative source length": frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": &bare, "sources": []int{-1}}, "return 1"),
		"source given twice":     frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": okReq, "sources": []int{8}}, "return 1"),
		"sources on a reply":     frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgReply, "id": 1, "reply": map[string]any{}}, "return 1"),
	}
	// A well-formed request made the same way runs: the cases above fail
	// for what they break, not for how they are framed.
	good := frame(map[string]any{"v": ProtocolVersion, "run": 9, "type": msgRun, "req": okReq})
	if m, err := decodeMessage(good[4:], false); err != nil || m.Body.(*runMsg).Req.Blocks[0].Source != "return 1" {
		t.Fatalf("the well-formed request does not decode: %v", err)
	}
	// Each framing fault is refused for what it is.
	for name, want := range map[string]string{
		"source past the frame":  "runs past the frame",
		"bytes after sources":    "after its sources",
		"too few source lengths": "0 source lengths for 1 blocks",
		"negative source length": "runs past the frame",
		"source given twice":     "carries its source twice",
		"sources on a reply":     "trailing data after reply",
	} {
		if _, err := decodeMessage(cases[name][4:], false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: decoded with error %v, want one saying %q", name, err, want)
		}
	}
	for name, raw := range cases {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			p, err := spawn(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer p.close()
			if err := p.awaitReady(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, err := p.in.Write(raw); err != nil {
				t.Fatal(err)
			}
			var after []string
			for r := range p.msgs {
				if r.msg != nil {
					after = append(after, r.msg.kind())
				}
			}
			state := p.reap(5 * time.Second)
			if len(after) != 0 {
				t.Errorf("worker answered a forged request with %v", after)
			}
			if state.ExitCode() != exitProtocol {
				t.Errorf("worker exit %s, want status %d; stderr %q", state, exitProtocol, p.stderr.String())
			}
		})
	}
}

// TestHostRefusesForgedMessages runs real workers that forge one message
// each. The host must refuse it, keep nothing it claims, and fail closed.
func TestHostRefusesForgedMessages(t *testing.T) {
	cases := []struct {
		forge  string
		kind   value.Kind
		detail string
	}{
		{"version", value.Crashed, "invalid message"},
		{"extrakey", value.Crashed, "invalid message"},
		{"nestedkey", value.Crashed, "invalid message"},
		{"oversize", value.Crashed, "invalid message"},
		{"wrongname", value.Crashed, "invalid message"},
		{"direction", value.Crashed, "invalid message"},
		// A message with another run's id is dropped; the run then ends
		// without that script's result.
		{"runid", value.Crashed, "without a result"},
		// Well-formed messages whose content is out of bounds.
		{"deepvalue", value.ScriptError, "nested deeper"},
		{"claimlimit", value.ScriptError, ""},
	}
	for _, c := range cases {
		t.Run(c.forge, func(t *testing.T) {
			pool := &Pool{extraArgs: []string{"forge-" + c.forge}}
			defer pool.Close()
			out, err, took := runOn(t, pool, request(script.Limits{RunTime: 5 * time.Second}, lua("a", "return 1"), lua("b", "return 2")), nil)
			if err != nil {
				t.Fatal(err)
			}
			if out[0].Kind != c.kind || !strings.Contains(out[0].Detail, c.detail) {
				t.Errorf("first = %+v, want %s (%q)", out[0], c.kind, c.detail)
			}
			for _, o := range out {
				if o.Kind == value.Ok {
					t.Errorf("forged value accepted: %+v", o)
				}
			}
			if took > 3*time.Second {
				t.Errorf("refusal took %s", took)
			}
		})
	}
}

func TestDecodeMessageAllowlist(t *testing.T) {
	good := `{"v":4,"run":3,"type":"call","id":1,"call":{"op":"fetch","fetch":{"method":"GET","url":"http://x/"}}}`
	if _, err := decodeMessage([]byte(good), true); err != nil {
		t.Fatalf("good call refused: %v", err)
	}
	bad := map[string]string{
		"unknown op":           `{"v":4,"run":3,"type":"call","id":1,"call":{"op":"shell","path":"x"}}`,
		"key of another op":    `{"v":4,"run":3,"type":"call","id":1,"call":{"op":"cacheGet","key":"k","path":"x"}}`,
		"unknown fetch field":  `{"v":4,"run":3,"type":"call","id":1,"call":{"op":"fetch","fetch":{"method":"GET","url":"u","headers":{}}}}`,
		"missing id":           `{"v":4,"run":3,"type":"call","call":{"op":"require","name":"m"}}`,
		"reply from worker":    `{"v":4,"run":3,"type":"reply","id":1,"reply":{}}`,
		"trailing data":        `{"v":4,"run":3,"type":"hb"} {}`,
		"version as string":    `{"v":"2","run":3,"type":"hb"}`,
		"version 1":            `{"v":1,"run":3,"type":"hb"}`,
		"heartbeat with extra": `{"v":4,"run":3,"type":"hb","outcome":{}}`,
	}
	for name, body := range bad {
		if _, err := decodeMessage([]byte(body), true); err == nil {
			t.Errorf("%s: accepted %s", name, body)
		}
	}
	reply := `{"v":4,"run":3,"type":"reply","id":1,"reply":{"failure":"outcome-unknown","error":"lost"}}`
	if m, err := decodeMessage([]byte(reply), false); err != nil || m.Body.(*replyMsg).Reply.Failure != value.OutcomeUnknown {
		t.Errorf("typed failure reply: %+v, %v", m, err)
	}
	for _, r := range []string{
		`{"v":4,"run":3,"type":"reply","id":1,"reply":{"failure":"capability-denied","error":"no","grant":"x"}}`,
		// Version 1's untyped refusal flag is gone.
		`{"v":4,"run":3,"type":"reply","id":1,"reply":{"denied":true,"error":"no"}}`,
	} {
		if _, err := decodeMessage([]byte(r), false); err == nil {
			t.Errorf("reply with an unknown key accepted: %s", r)
		}
	}
}

func TestFrameSizeIsCheckedBeforeReading(t *testing.T) {
	head := binary.BigEndian.AppendUint32(nil, MaxFrame+1)
	// Only the header exists: a reader that trusted it would block or
	// allocate; the check must refuse first.
	_, err := readFrame(bytes.NewReader(head), MaxFrame)
	if _, ok := err.(*ProtocolError); !ok {
		t.Fatalf("err = %v, want a protocol error", err)
	}
	var buf bytes.Buffer
	big := &message{Body: &outcomeMsg{Outcome: &script.Outcome{Name: "a", Kind: value.Ok, Value: json.RawMessage(`"` + strings.Repeat("x", MaxFrame) + `"`)}}}
	if err := writeFrame(&buf, big); err == nil {
		t.Fatal("an oversized message was written")
	}
}

func TestCallFloodFailsClosed(t *testing.T) {
	hang := silentServer(t)
	pool := &Pool{extraArgs: []string{"forge-callflood"}}
	defer pool.Close()
	block := script.Block{Name: "a", Lang: "lua", Source: "http://" + hang + "/"}
	out, err, took := runOn(t, pool, request(script.Limits{RunTime: 5 * time.Second}, block), newTestHost(hang))
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.Crashed || !strings.Contains(out[0].Detail, "capability calls at once") {
		t.Fatalf("outcome %+v", out[0])
	}
	if took > 3*time.Second {
		t.Fatalf("took %s", took)
	}
}

func TestOversizedReplyBecomesScriptError(t *testing.T) {
	host := newTestHost()
	// Base64 makes it just over the frame cap.
	host.files["big.bin"] = bytes.Repeat([]byte("x"), MaxFrame*3/4+1)
	req := request(script.Limits{}, lua("a", "return #bundle.read('big.bin')"), lua("b", "return 2"))
	req.Bundle = true
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, req, host)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.ScriptError || !strings.Contains(out[0].Detail, "larger than") {
		t.Errorf("a = %+v", out[0])
	}
	if out[1].Kind != value.Ok {
		t.Errorf("b = %+v", out[1])
	}
}
