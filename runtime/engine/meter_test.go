package engine

import (
	"context"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// meteredLimits lowers the instruction budget (a request may lower limits)
// so that each runaway builtin loop meets it within a fraction of the
// script's 5 s clock: a case that ends as a timeout was not metered.
var meteredLimits = script.Limits{Instructions: 1_000_000, ScriptTime: 5 * time.Second}

// builtinLoopRatio bounds each case's wall time as a multiple of the time
// a plain Lua loop takes to spend the same budget, measured in the same
// run, so the bound holds on a loaded machine too; builtinLoopFloor is
// the least bound (well under the 5 s script clock), so a fast baseline
// measured in a quiet moment does not fail a case run in a busy one.
const (
	builtinLoopRatio = 3
	builtinLoopFloor = 2 * time.Second
)

// builtinLoops are scripts whose work happens inside Go builtins: each
// must end as an instructions limit, whatever the size of its output.
var builtinLoops = []struct{ name, src string }{
	{"rep of an empty string 2^53 times", `return (""):rep(2^53)`},
	{"rep of an empty string with an empty separator", `return (""):rep(2^40, "")`},
	{"rep of a huge float count", `return (""):rep(1e300)`},
	{"rep in a loop", `for i = 1, 1e9 do local _ = ("ab"):rep(1000) end`},
	{"format of a long literal", `local f = ("x"):rep(1e5) for i = 1, 1e9 do string.format(f) end`},
	{"format of many conversions", `local f = ("%d"):rep(200) local a = {} for i = 1, 200 do a[i] = i end for i = 1, 1e9 do string.format(f, table.unpack(a)) end`},
	{"gsub", `local s = ("a"):rep(1e5) for i = 1, 1e9 do s:gsub("a", "b") end`},
	{"gsub with an empty pattern", `local s = ("a"):rep(1e5) for i = 1, 1e9 do s:gsub("", "") end`},
	{"plain find", `local s = ("a"):rep(1e6) for i = 1, 1e9 do s:find("b", 1, true) end`},
	{"a backtracking pattern", `return (("a"):rep(1e4)):find(".-.-.-.-b")`},
	{"match", `local s = ("a"):rep(1e4) for i = 1, 1e9 do s:match("(a*)b") end`},
	{"gmatch", `local s = ("a"):rep(1e5) for i = 1, 1e9 do for _ in s:gmatch("a") do end end`},
	{"concat", `local t = {} for i = 1, 1000 do t[i] = "x" end for i = 1, 1e9 do table.concat(t) end`},
	{"concat of a huge range", `return table.concat({}, "", 1, 2^52)`},
	{"sort", `local t = {} for i = 1, 1000 do t[i] = i end for i = 1, 1e9 do table.sort(t) end`},
	{"byte", `local s = ("a"):rep(4000) for i = 1, 1e9 do s:byte(1, -1) end`},
	{"char", `local s = ("a"):rep(4000) for i = 1, 1e9 do string.char(s:byte(1, -1)) end`},
	{"upper", `local s = ("a"):rep(1e5) for i = 1, 1e9 do s:upper() end`},
	{"reverse", `local s = ("a"):rep(1e5) for i = 1, 1e9 do s:reverse() end`},
	{"tonumber", `local s = (" "):rep(1e5) .. "1" for i = 1, 1e9 do tonumber(s) end`},
	{"unpack", `local t = {} for i = 1, 4000 do t[i] = i end for i = 1, 1e9 do table.unpack(t) end`},
	{"pack", `local t = {} for i = 1, 4000 do t[i] = i end for i = 1, 1e9 do table.pack(table.unpack(t)) end`},
	{"maxn", `local t = {} for i = 1, 4000 do t[i * 2] = i end for i = 1, 1e9 do table.maxn(t) end`},
}

// plainLoop is the baseline: a Lua loop that spends the budget on VM
// instructions alone.
const plainLoop = `local x = 0 while true do x = x + 1 end`

// runMetered runs src and then an ordinary script, and returns both
// outcomes and the wall time. A run that outlives four script clocks
// fails the test rather than hanging it.
func runMetered(t *testing.T, src string) (runaway, after script.Outcome, elapsed time.Duration) {
	t.Helper()
	req := &script.Request{Tier: script.TierManual, Limits: meteredLimits, Blocks: []script.Block{
		{Name: "runaway", Lang: "lua", Source: src},
		{Name: "after", Lang: "lua", Source: `return 1 + 1`},
	}}
	got := map[string]script.Outcome{}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		done <- Run(context.Background(), req, DenyAll{}, func(o script.Outcome) { got[o.Name] = o })
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(4 * meteredLimits.ScriptTime):
		t.Fatalf("still running after %v", 4*meteredLimits.ScriptTime)
	}
	return got["runaway"], got["after"], time.Since(start)
}

// TestBuiltinLoopsAreMetered runs each case followed by an ordinary script:
// the case ends as an instructions limit within builtinLoopRatio times the
// baseline's time, and the script after it still runs.
func TestBuiltinLoopsAreMetered(t *testing.T) {
	o, _, baseline := runMetered(t, plainLoop)
	if o.Kind != value.LimitExceeded || o.Limit != script.LimitInstructions {
		t.Fatalf("the baseline ended %q/%q", o.Kind, o.Limit)
	}
	bound := max(builtinLoopFloor, builtinLoopRatio*baseline)
	t.Logf("baseline (%d instructions of a plain loop): %v; bound %v", meteredLimits.Instructions, baseline.Round(time.Millisecond), bound.Round(time.Millisecond))
	for _, c := range builtinLoops {
		t.Run(c.name, func(t *testing.T) {
			runaway, after, elapsed := runMetered(t, c.src)
			t.Logf("%s: %v (%.2f× the baseline)", c.name, elapsed.Round(time.Millisecond), float64(elapsed)/float64(baseline))
			if runaway.Kind != value.LimitExceeded || runaway.Limit != script.LimitInstructions {
				t.Errorf("runaway ended %q/%q (%s), want limit-exceeded/instructions", runaway.Kind, runaway.Limit, runaway.Detail)
			}
			if elapsed > bound {
				t.Errorf("took %v, over %v", elapsed, bound)
			}
			if after.Kind != value.Ok || string(after.Value) != "2" {
				t.Errorf("the next script ended %+v", after)
			}
		})
	}
}

// TestPatternsThroughTheEngine checks string.find, match, gmatch and gsub
// as a script sees them, against the results of Lua itself.
func TestPatternsThroughTheEngine(t *testing.T) {
	src := `
		local function eq(got, want, what) if got ~= want then error(what .. ": got " .. tostring(got) .. ", want " .. tostring(want)) end end
		eq(select(3, ("key = value"):find("(%w+)%s*=%s*(%w+)")), "key", "find capture")
		eq(select(2, ("abc"):find("()b()")), 2, "find end")
		eq(select(4, ("abc"):find("()b()")), 3, "position capture")
		eq(("  trim  "):match("^%s*(.-)%s*$"), "trim", "match")
		eq(("f(a(b)c)d"):match("%b()"), "(a(b)c)", "balance")
		eq(("THE (quick) fox"):find("%f[%a]%a+", 5), 6, "frontier")
		local words = {} for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
		eq(table.concat(words, ","), "one,two,three", "gmatch")
		local s, n = ("hello world"):gsub("o", "0") eq(s, "hell0 w0rld", "gsub") eq(n, 2, "gsub count")
		eq((("abc"):gsub("", "-")), "-a-b-c-", "gsub empty")
		eq((("hello"):gsub("l", "L", 1)), "heLlo", "gsub limit")
		eq((("x=1 y=2"):gsub("(%w)=(%w)", "%2=%1")), "1=x 2=y", "gsub captures")
		eq((("$name is $age"):gsub("%$(%w+)", {name = "Ann", age = 7})), "Ann is 7", "gsub table")
		eq((("abc"):gsub("%w", function(c) return c:upper() .. "." end)), "A.B.C.", "gsub function")
		eq((("^a^"):gsub("^%^", "")), "a^", "gsub anchor")
		local ok, err = pcall(string.find, "a", "[a")
		eq(ok, false, "malformed") eq(tostring(err):find("missing ']'", 1, true) ~= nil, true, "malformed message")
		return "ok"`
	o := runProbe(t, probe{src: src})
	if o.Kind != value.Ok || string(o.Value) != `"ok"` {
		t.Fatalf("%q: %s %s", o.Kind, o.Detail, o.Value)
	}
}
