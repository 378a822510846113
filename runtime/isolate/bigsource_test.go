package isolate

import (
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
)

// A script as large as a note can be runs in the isolate: JSON escaping
// does not push the run message past the frame cap.
func TestNoteSizedScriptRuns(t *testing.T) {
	const size = 15_000_000
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, request(script.Limits{},
		lua("big", "return #[["+strings.Repeat("<", size)+"]]"),
		lua("after", "return 2"),
	), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != script.Ok || string(out[0].Value) != "15000000" {
		t.Errorf("big = %+v", out[0].Kind)
	}
	if out[1].Kind != script.Ok {
		t.Errorf("after = %+v", out[1])
	}
}

// Scripts too large to hand over fail as script errors that say so, not
// as a crash blamed on the worker.
func TestScriptsOverTheFrameCapAreScriptErrors(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, request(script.Limits{},
		lua("huge", "return #[["+strings.Repeat("x", MaxFrame)+"]]"),
		lua("small", "return 1"),
	), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Kind != script.ScriptError || !strings.Contains(o.Detail, "too large to run") {
			t.Errorf("%s = %s: %.200s", o.Name, o.Kind, o.Detail)
		}
	}
}
