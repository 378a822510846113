package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestCompileIsOneUnstoppableCall documents an in-process limit that cannot
// act: compiling a script is a single Go call that never returns to the VM,
// so the per-script wall clock only takes effect once it returns. Here the
// compile of deeply nested parentheses overruns a 1 ms script clock. In the
// product the isolate's external watchdog kills such a worker; the isolate
// tests prove that.
func TestCompileIsOneUnstoppableCall(t *testing.T) {
	src := "return " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000)
	p := probe{src: src,
		limits: script.Limits{Instructions: 1_000_000, ScriptTime: time.Millisecond}}
	start := time.Now()
	o := runProbe(t, p)
	took := time.Since(start)
	// The clock expired during the compile; the first VM instruction then
	// fails with the timeout, which is the in-process limit's best effort.
	if o.Kind != value.LimitExceeded || o.Limit != script.LimitTimeout {
		t.Fatalf("outcome %+v after %v", o, took)
	}
}
