package isolate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// A script as large as a note can be runs in the isolate whatever its
// bytes: neither the JSON escaping of < (six bytes in HTML-safe JSON) nor
// that of a control character (six bytes in any JSON) pushes the run
// message past the frame cap, since sources travel as they are.
func TestNoteSizedScriptRuns(t *testing.T) {
	const size = 15_000_000
	pool := NewPool()
	defer pool.Close()
	for _, fill := range []string{"<", "\x01", "\""} {
		out, err, took := runOn(t, pool, request(script.Limits{},
			lua("big", "return #[["+strings.Repeat(fill, size)+"]]"),
			lua("after", "return 2"),
		), nil)
		if err != nil {
			t.Fatal(err)
		}
		if out[0].Kind != value.Ok || string(out[0].Value) != "15000000" {
			t.Errorf("%q: big = %s %.200s", fill, out[0].Kind, out[0].Detail)
		}
		if out[1].Kind != value.Ok {
			t.Errorf("%q: after = %+v", fill, out[1])
		}
		t.Logf("%q × %d: %v", fill, size, took)
	}
}

// The frame a worker accepts holds a note-cap's worth of sources beside
// a request of MaxFrame, and every byte of them counts once.
func TestRunFrameCarriesSourcesAsTheyAre(t *testing.T) {
	src := strings.Repeat("\x01\"\\<", 1000)
	var buf bytes.Buffer
	if err := writeFrame(&buf, &message{V: ProtocolVersion, Run: 1, Body: &runMsg{Req: request(script.Ceiling, lua("a", src), lua("b", ""), lua("c", src))}}); err != nil {
		t.Fatal(err)
	}
	body, err := readFrame(&buf, MaxRunFrame)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(body, []byte(src+src)) {
		t.Fatal("the sources do not follow the JSON as they are")
	}
	m, err := decodeMessage(body, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Body.(*runMsg).Req.Blocks; got[0].Source != src || got[1].Source != "" || got[2].Source != src {
		t.Fatalf("the blocks decode with other sources: %d, %d, %d bytes", len(got[0].Source), len(got[1].Source), len(got[2].Source))
	}
	if MaxRunFrame < MaxFrame+script.MaxNoteBytes {
		t.Fatalf("MaxRunFrame %d cannot carry a note's sources beside a request of MaxFrame", MaxRunFrame)
	}
}

// Scripts too large to hand over fail as script errors that say so, not
// as a crash blamed on the worker.
func TestScriptsOverTheFrameCapAreScriptErrors(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, request(script.Limits{},
		lua("huge", "return #[["+strings.Repeat("x", MaxRunFrame)+"]]"),
		lua("small", "return 1"),
	), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Kind != value.ScriptError || !strings.Contains(o.Detail, "too large to run") {
			t.Errorf("%s = %s: %.200s", o.Name, o.Kind, o.Detail)
		}
	}
}
