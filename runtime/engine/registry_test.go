package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/value"
)

// TestValueStackGrowsThenFailsFast: the value stack starts small, so a
// script that needs more than the first step grows it and still runs, and a
// script that would need more than the hard cap fails at once instead of
// growing without end. gopher-lua's overflow path ends in a Go panic (as it
// did with a fixed-size stack), which the engine reports as an interpreter
// failure of that script alone.
func TestValueStackGrowsThenFailsFast(t *testing.T) {
	hundred := strings.TrimSuffix(strings.Repeat("1,", 100), ",")
	// Each level of f keeps 100 more values on the stack than the last.
	deep := func(levels int) string {
		return `local function f(n, ...)
			if n == 0 then return select('#', ...) end
			return f(n - 1, ` + hundred + `, ...)
		end
		return f(` + itoa(levels) + `)`
	}
	grows := probe{name: "grows past the first step", src: deep(30), kind: value.Ok, value: "3000"}
	checkProbe(t, grows, runProbe(t, grows))

	start := time.Now()
	overflow := probe{name: "past the cap", src: deep(150), kind: value.Crashed, detail: "the interpreter failed"}
	checkProbe(t, overflow, runProbe(t, overflow))
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("overflow took %s", took)
	}

	// unpack into the largest result a builtin may push, twice over, on a
	// stack that started at one step.
	wide := probe{name: "wide unpack", kind: value.Ok, value: "4000",
		src: `local t = {} for i = 1, 2000 do t[i] = i end
			local function n(...) return select('#', ...) end
			return n(table.unpack(t)) + n(table.unpack(t))`}
	checkProbe(t, wide, runProbe(t, wide))
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
