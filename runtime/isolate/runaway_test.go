package isolate

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestRunawayShapesAreEnded runs every known runaway shape through a real
// worker with a one-second watchdog. Each must end within the deadline plus
// 500 ms, with every block classified and the later block never reporting
// ok.
func TestRunawayShapesAreEnded(t *testing.T) {
	hang := silentServer(t)
	baseGoroutines, baseFDs := settle(t, runtime.NumGoroutine(), countFDs(t), 0)
	// Memory shapes get a longer watchdog so that on a loaded machine the
	// memory limit, not the clock, is what ends them.
	const runTime, memoryRunTime = time.Second, 4 * time.Second
	cases := []struct {
		name  string
		block script.Block
		kinds []value.Kind
		limit script.LimitKind
	}{
		{"busy loop", lua("s", "while true do end"), []value.Kind{value.LimitExceeded}, ""},
		{"pcall loop", lua("s", "while true do pcall(function() while true do end end) end"), []value.Kind{value.LimitExceeded}, ""},
		{"xpcall looping handler", lua("s", "xpcall(function() error('x') end, function() while true do end end)"), []value.Kind{value.LimitExceeded}, ""},
		{"pattern backtracking", lua("s", `return string.find(("a"):rep(30), ("a*"):rep(30).."b")`), []value.Kind{value.LimitExceeded, value.ScriptError}, ""},
		{"pattern quadratic", lua("s", `return string.find(("a"):rep(200000), ".-b")`), []value.Kind{value.LimitExceeded, value.ScriptError}, ""},
		{"string doubling", lua("s", `local s = "x" while true do s = s .. s end`), []value.Kind{value.LimitExceeded}, script.LimitMemory},
		{"table flood", lua("s", `local t = {} local i = 0 while true do i = i + 1 t[i] = {i, i, i} end`), []value.Kind{value.LimitExceeded}, script.LimitMemory},
		{"deep recursion", lua("s", `local function f(n) return f(n + 1) + 1 end return f(1)`), []value.Kind{value.ScriptError, value.LimitExceeded}, ""},
		{"pcall recursion", lua("s", `local function f() pcall(f) f() end f()`), []value.Kind{value.ScriptError, value.LimitExceeded}, ""},
		{"host call never answers", lua("s", fmt.Sprintf("return net.fetch_json(%q)", "http://"+hang+"/")), []value.Kind{value.LimitExceeded}, script.LimitTimeout},
		{"go spin past the engine", goBlock("s", "test-spin"), []value.Kind{value.LimitExceeded}, script.LimitTimeout},
		{"go heap growth", goBlock("s", "test-alloc"), []value.Kind{value.LimitExceeded}, script.LimitMemory},
		{"one huge allocation", goBlock("s", "test-huge"), []value.Kind{value.LimitExceeded}, script.LimitMemory},
	}
	// A prewarmed pool: the deadline counts from the run's start in a ready
	// worker, not from a process start.
	pool := NewPool()
	pool.Prewarm()
	defer func() {
		// Killed workers, cancelled host calls and all: nothing is left.
		pool.Close()
		settle(t, baseGoroutines, baseFDs, 1)
	}()
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			host := newTestHost(hang)
			runTime := runTime
			if c.limit == script.LimitMemory {
				runTime = memoryRunTime
			}
			req := request(script.Limits{RunTime: runTime}, c.block, lua("after", "return 1"))
			waitWarm(t, pool)
			out, err, took := runOn(t, pool, req, host)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s/%s in %s: %s", c.name, out[0].Kind, out[0].Limit, took.Round(time.Millisecond), out[0].Detail)
			if took > runTime+500*time.Millisecond {
				t.Errorf("ended after %s, want within %s", took, runTime+500*time.Millisecond)
			}
			ok := false
			for _, k := range c.kinds {
				ok = ok || out[0].Kind == k
			}
			if !ok {
				t.Errorf("outcome %+v, want one of %v", out[0], c.kinds)
			}
			if raceBuild && c.limit == script.LimitMemory && out[0].Limit == script.LimitTimeout {
				// Race instrumentation slows allocation so much that the
				// clock can come first.
				return
			}
			if c.limit != "" && out[0].Limit != c.limit {
				t.Errorf("limit %q, want %q", out[0].Limit, c.limit)
			}
			if out[0].Limit == script.LimitTimeout && out[1].Kind == value.Ok {
				t.Errorf("a block after a run that hit the watchdog reported ok: %+v", out[1])
			}
		})
	}
}

// TestSilentWorkerIsFoundBeforeDeadline: a worker that stops speaking (no
// heartbeat) is killed well before a long deadline.
func TestSilentWorkerIsFoundBeforeDeadline(t *testing.T) {
	pool := &Pool{extraArgs: []string{"forge-stall"}}
	defer pool.Close()
	out, err, took := runOn(t, pool, request(script.Limits{RunTime: 10 * time.Second}, lua("s", "return 1")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.Crashed || !strings.Contains(out[0].Detail, "stopped responding") {
		t.Fatalf("outcome %+v", out[0])
	}
	if took > heartbeatTimeout+time.Second {
		t.Fatalf("found after %s, want about %s", took, heartbeatTimeout)
	}
}
