package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/host"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// probe is one adversarial script and the exact outcome it must have.
type probe struct {
	name   string
	src    string
	kind   value.Kind
	limit  script.LimitKind // for Kind == LimitExceeded; "" accepts any limit
	value  string           // expected JSON value when Kind == Ok ("" = not checked)
	detail string           // substring the diagnostic detail must contain
	cap    script.Capability
	host   string
	tier   script.Tier
	bundle bool
	limits script.Limits
	// broker runs the probe against the capability host (runtime/host)
	// at the probe's tier instead of DenyAll: the tier is the host's to
	// decide, and the engine refuses nothing on its own.
	broker bool
}

// testLimits keeps the probe suite fast and deterministic on a loaded
// machine: a 2 M instruction budget (well inside the 5 s wall clock even at
// a fraction of normal speed) instead of the 100 M ceiling.
var testLimits = script.Limits{Instructions: 2_000_000, ScriptTime: 5 * time.Second}

func runProbe(t *testing.T, p probe) script.Outcome {
	t.Helper()
	limits := p.limits
	if limits == (script.Limits{}) {
		limits = testLimits
	}
	tier := p.tier
	if tier == "" {
		tier = script.TierManual
	}
	req := &script.Request{Tier: tier, Bundle: p.bundle, Limits: limits,
		Blocks: []script.Block{{Name: "probe", Lang: "lua", Source: p.src}}}
	var h script.Host = DenyAll{}
	if p.broker {
		trigger := script.Manual
		if tier != script.TierManual {
			trigger = script.Auto
		}
		h = host.New(host.Options{Trigger: trigger})
	}
	var got []script.Outcome
	if err := Run(context.Background(), req, h, func(o script.Outcome) { got = append(got, o) }); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(got) != 1 {
		t.Fatalf("%d outcomes", len(got))
	}
	return got[0]
}

func checkProbe(t *testing.T, p probe, o script.Outcome) {
	t.Helper()
	if o.Kind != p.kind {
		t.Fatalf("kind %q, want %q (detail %q, value %s)", o.Kind, p.kind, o.Detail, o.Value)
	}
	if p.kind == value.LimitExceeded && p.limit != "" && o.Limit != p.limit {
		t.Fatalf("limit %q, want %q", o.Limit, p.limit)
	}
	if p.value != "" && string(o.Value) != p.value {
		t.Fatalf("value %s, want %s", o.Value, p.value)
	}
	if p.detail != "" && !strings.Contains(o.Detail, p.detail) {
		t.Fatalf("detail %q does not contain %q", o.Detail, p.detail)
	}
	if p.cap != "" && o.Capability != p.cap {
		t.Fatalf("capability %q, want %q", o.Capability, p.cap)
	}
	if p.host != "" && o.Host != p.host {
		t.Fatalf("host %q, want %q", o.Host, p.host)
	}
}

var removed = []string{
	"print", "_printregs", "module", "newproxy", "gcinfo", "load", "loadstring", "loadfile",
	"dofile", "getfenv", "setfenv", "getmetatable", "setmetatable", "rawget", "rawset",
	"rawequal", "rawlen", "collectgarbage", "_G", "_VERSION", "_GOPHER_LUA_VERSION", "unpack",
	"os", "io", "package", "debug", "coroutine", "channel", "utf8",
}

func TestRemovedGlobalsAreNil(t *testing.T) {
	for _, g := range removed {
		t.Run(g, func(t *testing.T) {
			p := probe{src: "return " + g + " == nil", kind: value.Ok, value: "true"}
			checkProbe(t, p, runProbe(t, p))
		})
	}
}

var probes = []probe{
	// Reachable tables lack removed members.
	{name: "string.dump", src: `return string.dump == nil and ("x").dump == nil and string.gfind == nil`, kind: value.Ok, value: "true"},
	{name: "method dump", src: `return ("x"):dump()`, kind: value.ScriptError},
	{name: "getmetatable string", src: `return getmetatable("")`, kind: value.ScriptError},
	{name: "string __index hidden", src: `return ("").__index == nil and string.__index == nil`, kind: value.Ok, value: "true"},
	{name: "string metatable not replaceable", src: `string.upper = function() return "hijacked" end; string.rep = nil; return ("a"):upper() .. ("b"):rep(2)`, kind: value.Ok, value: `"Abb"`},
	{name: "setfenv via pcall", src: `return (pcall(setfenv, 1, {}))`, kind: value.Ok, value: "false"},
	{name: "getfenv(0)", src: `return getfenv(0)`, kind: value.ScriptError},
	{name: "load smuggled through a table", src: `
		local bad = {load=1, loadstring=1, dofile=1, loadfile=1, getfenv=1, setfenv=1, getmetatable=1,
			setmetatable=1, rawget=1, rawset=1, rawequal=1, collectgarbage=1, dump=1, newproxy=1, module=1,
			print=1, _G=1, gfind=1, __index=1}
		local found, seen = {}, {}
		local function walk(t, path, depth)
			if seen[t] or depth > 4 then return end
			seen[t] = true
			for k, v in pairs(t) do
				if type(k) == "string" and bad[k] then found[#found+1] = path .. "." .. k end
				if type(v) == "table" then walk(v, path .. "." .. tostring(k), depth + 1) end
			end
		end
		for _, name in ipairs({"string","table","math","net","cache","bundle","doc","json"}) do walk(_ENV_DUMMY or {}, name, 0) end
		walk(string, "string", 0) walk(table, "table", 0) walk(math, "math", 0) walk(net, "net", 0)
		walk(cache, "cache", 0) walk(bundle, "bundle", 0) walk(doc, "doc", 0) walk(json, "json", 0)
		return found`, kind: value.Ok, value: "[]"},
	{name: "no os through string methods", src: `return ("").os == nil and ("").load == nil and ("").getmetatable == nil`, kind: value.Ok, value: "true"},
	{name: "tostring hides addresses", src: `return tostring({}):match("^table: %d+$") ~= nil and tostring(print) == "nil" and tostring(tostring):match("^function: %d+$") ~= nil`, kind: value.Ok, value: "true"},
	{name: "format %p", src: `return string.format("%p", {})`, kind: value.ScriptError},
	{name: "format %T", src: `return string.format("%T", {})`, kind: value.ScriptError},
	{name: "format %s of a table", src: `return string.format("%s", {}):match("^table: %d+$") ~= nil`, kind: value.Ok, value: "true"},
	{name: "format huge width", src: `return string.format("%10000000d", 1)`, kind: value.ScriptError, detail: "too long"},
	{name: "format huge precision", src: `return string.format("%.500f", 1)`, kind: value.ScriptError, detail: "too long"},
	{name: "format width 99", src: `return #string.format("%99d|%-5s|%5.1f|%x|%q", 1, "ab", 2.25, 255, "a\nb")`, kind: value.Ok, value: "121"},
	{name: "format many big %s", limits: script.Limits{Instructions: 100_000_000, ScriptTime: 5 * time.Second}, src: `local s = ("x"):rep(4e6) local t = {} for i = 1, 40 do t[i] = s end
		return #string.format(("%s"):rep(40), table.unpack(t))`, kind: value.LimitExceeded, limit: script.LimitMemory},
	// Loops and recursion.
	{name: "infinite loop", src: `while true do end`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "pcall loop", src: `for i = 1, 1e9 do pcall(function() while true do end end) end return 1`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "pcall error loop", src: `while true do pcall(error, "x") end`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "caught limit cannot be read", src: `local ok, e = pcall(function() while true do end end) return e`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "xpcall looping handler", src: `return xpcall(function() error("x") end, function() while true do end end)`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "xpcall works", src: `local ok, v = xpcall(function() error("boom", 0) end, function(e) return "handled " .. e end) return {ok, v}`, kind: value.Ok, value: `[false,"handled boom"]`},
	{name: "recursion bomb", src: `local function f() return 1 + f() end return f()`, kind: value.ScriptError, detail: "stack overflow"},
	{name: "pcall recursion", src: `local function f() pcall(f) end f() return 1`, kind: value.Ok, value: "1"},
	{name: "gsub callback recursion", src: `local function f() return (("a"):gsub("a", f)) end return f()`, kind: value.ScriptError},
	{name: "sort comparator loop", src: `local t = {3,2,1} table.sort(t, function(a, b) while true do end end)`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "wall clock", src: `while true do end`, kind: value.LimitExceeded, limit: script.LimitTimeout,
		limits: script.Limits{Instructions: 100_000_000, ScriptTime: 50 * time.Millisecond}},
	// Memory.
	{name: "string.rep bomb", src: `return string.rep("a", 1e9)`, kind: value.LimitExceeded, limit: script.LimitMemory},
	{name: "string.rep 2^62", src: `return string.rep("ab", 2^62)`, kind: value.LimitExceeded, limit: script.LimitMemory},
	{name: "string.rep with sep", src: `return string.rep("ab", 3, ",")`, kind: value.Ok, value: `"ab,ab,ab"`},
	{name: "concat doubling loop", src: `local s = "x" while true do s = s .. s end`, kind: value.LimitExceeded, limit: script.LimitMemory,
		limits: script.Limits{Instructions: 100_000_000, ScriptTime: 5 * time.Second}},
	// Filling the table runs out of memory after about 2 M elements; on a
	// heavily loaded machine the wall clock can come first, so any limit
	// is accepted here.
	{name: "table.concat of 10^7 pieces", src: `local t = {} for i = 1, 1e7 do t[i] = "x" end return #table.concat(t)`, kind: value.LimitExceeded,
		limits: script.Limits{Instructions: 100_000_000, ScriptTime: 5 * time.Second}},
	{name: "table.concat big pieces", src: `local s = ("x"):rep(1e6) local t = {} for i = 1, 100 do t[i] = s end return #table.concat(t)`, kind: value.LimitExceeded, limit: script.LimitMemory},
	{name: "table.concat works beyond the registry", src: `local t = {} for i = 1, 20000 do t[i] = i end return #table.concat(t, ",")`, kind: value.Ok, value: "108893"},
	{name: "unpack count", src: `return table.unpack({}, 1, 1e7)`, kind: value.ScriptError, detail: "too many results"},
	{name: "string.byte range", src: `return string.byte(("a"):rep(1e5), 1, -1)`, kind: value.ScriptError},
	{name: "string.char range", src: `return string.char(256)`, kind: value.ScriptError},
	{name: "table.insert flood", src: `local t = {} while true do table.insert(t, "xxxxxxxxxxxxxxxx") end`, kind: value.LimitExceeded,
		limits: script.Limits{Instructions: 100_000_000, ScriptTime: 5 * time.Second}},
	{name: "upper of a huge string", limits: script.Limits{Instructions: 100_000_000, ScriptTime: 5 * time.Second}, src: `local s = ("x"):rep(2e7) return #(s:upper() .. s:lower())`, kind: value.LimitExceeded, limit: script.LimitMemory},
	// Patterns.
	{name: "pattern backtracking", src: `return string.find(("a"):rep(5e4), ("a*"):rep(30) .. "b")`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "short backtracking", src: `return string.find(("a"):rep(30), ("a*"):rep(30) .. "b")`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "quadratic find", src: `return string.find(("a"):rep(2e5), ".-b")`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "gmatch metered", src: `local n = 0 for w in (("a"):rep(2e5)):gmatch("(.-)b") do n = n + 1 end return n`, kind: value.LimitExceeded, limit: script.LimitInstructions},
	{name: "gsub millions of matches", src: `return (string.gsub(("a"):rep(5e6), "a", "bb"))`, kind: value.LimitExceeded},
	{name: "patterns still work", src: `local a, b, c = ("key = value"):match("^(%w+)%s*=%s*(%w+)$") local s, n = ("hello world"):gsub("o", "0")
		local words = {} for w in ("one two three"):gmatch("%a+") do words[#words+1] = w end
		return {a, b, s, n, words, ("abc"):find("b", 1, true), (("x.y"):gsub("%.", "%%"))}`, kind: value.Ok, value: `["key","value","hell0 w0rld",2,["one","two","three"],2,"x%y"]`},
	// JSON.
	{name: "json.decode deep", src: `return json.decode(("["):rep(1e5) .. ("]"):rep(1e5))`, kind: value.ScriptError, detail: "depth"},
	{name: "json.decode many nodes", src: `return json.decode("[" .. ("1,"):rep(3e4) .. "1]")`, kind: value.ScriptError, detail: "nodes"},
	{name: "json.decode too big", limits: script.Limits{Instructions: 100_000_000, ScriptTime: 5 * time.Second}, src: `return json.decode('"' .. ("a"):rep(3e6) .. '"')`, kind: value.ScriptError, detail: "size"},
	{name: "json.decode trailing garbage", src: `return json.decode('{"a":1}garbage')`, kind: value.ScriptError},
	{name: "json.decode NUL", src: `return json.decode("\0")`, kind: value.ScriptError},
	{name: "json.decode huge number", src: `return json.decode("1e999")`, kind: value.ScriptError},
	{name: "json.decode non-string", src: `return json.decode({})`, kind: value.ScriptError},
	{name: "json null semantics", src: `local t = json.decode('{"a":null,"b":[1,null,3]}') return {a = t.a == nil, b2 = t.b[2], n = #t.b}`, kind: value.Ok, value: `{"a":true,"b2":false,"n":3}`},
	{name: "json __proto__ keys", src: `return json.decode('{"__proto__":{"x":1},"constructor":2,"__index":3}')`, kind: value.Ok, value: `{"__index":3,"__proto__":{"x":1},"constructor":2}`},
	{name: "json decoded tables are plain", src: `local t = json.decode('{"a":[1,2]}') t.a[3] = 3 t.b = "x" return {type(t), #t.a, t}`, kind: value.Ok, value: `["table",3,{"a":[1,2,3],"b":"x"}]`},
	{name: "json.encode deterministic", src: `return json.encode({b=1, a={1,2,{c=true}}, ["é"]="\n"})`, kind: value.Ok, value: `"{\"a\":[1,2,{\"c\":true}],\"b\":1,\"é\":\"\\n\"}"`},
	{name: "json.encode cycle", src: `local t = {} t[1] = t return json.encode(t)`, kind: value.ScriptError, detail: "cycle"},
	{name: "json.encode function", src: `return json.encode({f = tostring})`, kind: value.ScriptError, detail: "(type)"},
	// Marshal.
	{name: "cycle", src: `local t = {} t.self = t return t`, kind: value.ScriptError, detail: "cycle"},
	{name: "shared table is fine", src: `local s = {1} return {a = s, b = s}`, kind: value.Ok, value: `{"a":[1],"b":[1]}`},
	{name: "NUL string", src: `return "a\0b"`, kind: value.ScriptError, detail: "nul-byte"},
	{name: "sparse array", src: `return {1, nil, 3}`, kind: value.ScriptError, detail: "key-type"},
	{name: "mixed table", src: `return {1, a = 2}`, kind: value.ScriptError, detail: "key-type"},
	{name: "boolean key", src: `return {[true] = 1}`, kind: value.ScriptError, detail: "key-type"},
	{name: "empty table is an array", src: `return {}`, kind: value.Ok, value: `[]`},
	{name: "function value", src: `return function() end`, kind: value.ScriptError, detail: "(type)"},
	{name: "NaN", src: `return 0/0`, kind: value.ScriptError, detail: "non-finite-number"},
	{name: "infinity", src: `return {x = math.huge}`, kind: value.ScriptError, detail: "non-finite-number"},
	{name: "math.huge is inf", src: `return math.huge == 1/0`, kind: value.Ok, value: "true"},
	{name: "too deep", src: `local t = {} local c = t for i = 1, 40 do c.x = {} c = c.x end return t`, kind: value.ScriptError, detail: "depth"},
	{name: "too many nodes", src: `local t = {} for i = 1, 30000 do t[i] = i end return t`, kind: value.ScriptError, detail: "nodes"},
	{name: "numbers", src: `return {1, 1.5, -0.25, 1e21, 2^53, 123456789}`, kind: value.Ok, value: `[1,1.5,-0.25,1e+21,9007199254740992,123456789]`},
	{name: "nil", src: `return nil`, kind: value.Ok, value: `null`},
	// Forgery.
	{name: "forged denial text", src: `error("capability-denied: net api.github.com")`, kind: value.ScriptError},
	{name: "forged denial table", src: `error({kind = "capability-denied", capability = "net"})`, kind: value.ScriptError},
	{name: "forged limit text", src: `error("the script ran out of its instruction budget")`, kind: value.ScriptError},
	{name: "replayed denial", src: `local ok, e = pcall(net.fetch_json, "https://evil.example/x") error(e, 0)`, kind: value.ScriptError},
	{name: "replayed later read", src: `local ok, e = pcall(doc.value, "later") error(e, 0)`, kind: value.ScriptError},
	// Capabilities.
	{name: "denied fetch", src: `return net.fetch_json("https://API.GitHub.com/repos/x")`, kind: value.CapabilityDenied, cap: script.CapNet, host: "api.github.com"},
	{name: "denial through a callback", src: `local t = {2, 1} table.sort(t, function(a, b) net.fetch_json("https://x.example/") end)`, kind: value.CapabilityDenied, cap: script.CapNet, host: "x.example"},
	{name: "caught denial then ok", src: `local ok = pcall(net.fetch_json, "https://a.example/") return ok`, kind: value.Ok, value: "false"},
	{name: "post manual denied", src: `return net.post("https://a.example/", "{}")`, kind: value.CapabilityDenied, cap: script.CapNet, host: "a.example"},
	{name: "post auto tier-blocked", src: `return net.post("https://a.example/", "{}")`, kind: value.TierBlocked, cap: script.CapNet, host: "a.example", tier: script.TierAuto, broker: true, detail: "net.post: a POST request is only available on a manual run (requires manual run"},
	{name: "patch auto tier-blocked", src: `return net.patch("https://a.example/", "{}")`, kind: value.TierBlocked, tier: script.TierAuto, broker: true},
	{name: "post auto refused by the host", src: `return net.post("https://a.example/", "{}")`, kind: value.CapabilityDenied, cap: script.CapNet, host: "a.example", tier: script.TierAuto, detail: "was not granted"},
	{name: "fetch auto denied", src: `return net.fetch_json("https://a.example/")`, kind: value.CapabilityDenied, tier: script.TierAuto},
	{name: "bundle write auto", src: `return bundle.write(".cache/x", "y")`, kind: value.TierBlocked, cap: script.CapBundle, tier: script.TierAuto, bundle: true, broker: true, detail: "bundle.write: writing is only available on a manual run"},
	{name: "bundle read not a bundle", src: `return bundle.read("scripts/a.lua")`, kind: value.CapabilityDenied, cap: script.CapBundle, broker: true, detail: "bundle.read: this note is not a bundle"},
	{name: "bundle read denied", src: `return bundle.exists("scripts/a.lua")`, kind: value.CapabilityDenied, cap: script.CapBundle, bundle: true},
	{name: "xpcall passes its extra arguments", src: `local ok, v = xpcall(function(a, b) return a + b end, function(e) return "handled" end, 3, 4)
		local bad, h = xpcall(function(a) error(a, 0) end, function(e) return "handled " .. e end, "boom")
		return {ok, v, bad, h, select("#", xpcall(function(...) return select("#", ...) end, print or tostring, nil, nil))}`,
		kind: value.Ok, value: `[true,7,false,"handled boom",2]`},
	{name: "require denied", src: `return require("scripts/util")`, kind: value.CapabilityDenied, cap: script.CapRequire},
	{name: "cache denied", src: `return cache.get("k", 60, function() return 1 end)`, kind: value.CapabilityDenied, cap: script.CapCache},
	{name: "capabilities present", src: `return {type(net.fetch_json), type(net.post), type(net.patch), type(cache.get), type(bundle.read), type(bundle.write), type(bundle.exists), type(require), net.get == nil, cache.set == nil}`,
		kind: value.Ok, value: `["function","function","function","function","function","function","function","function",true,true]`},
	// Dialect and compile errors.
	{name: "floor division", src: "local a = 1\nlocal b = 7 // 2", kind: value.ScriptError, detail: "line 2: the floor division operator //"},
	{name: "bitwise and", src: `return 1 & 2`, kind: value.ScriptError, detail: "line 1: the bitwise operator &"},
	{name: "bitwise or", src: `return 1 | 2`, kind: value.ScriptError, detail: "bitwise operator |"},
	{name: "bitwise not", src: `return ~1`, kind: value.ScriptError, detail: "bitwise operator ~"},
	{name: "shift", src: "-- a comment with // inside\nreturn 1 << 2", kind: value.ScriptError, detail: "line 2: the shift operator <<"},
	{name: "const", src: `local x <const> = 5 return x`, kind: value.ScriptError, detail: "<const>"},
	{name: "operators in strings are fine", src: `return "a // b & c | d ~ e" .. [[ << >> ]]`, kind: value.Ok, value: `"a // b & c | d ~ e << >> "`},
	{name: "plain syntax error", src: `return (`, kind: value.ScriptError},
	{name: "bytecode", src: "\x1bLuaQ", kind: value.ScriptError, detail: "precompiled"},
	{name: "goto works", src: `local i = 0 ::top:: i = i + 1 if i < 3 then goto top end return i`, kind: value.Ok, value: "3"},
	// Builtins that panic in gopher-lua.
	{name: "math.random(0)", src: `return math.random(0)`, kind: value.ScriptError},
	{name: "select(0)", src: `return select(0, 1)`, kind: value.ScriptError},
	{name: "table.pack/unpack/move", src: `local p = table.pack(1, 2, 3) return {p.n, table.unpack(table.move({1,2,3}, 1, 3, 2))}`, kind: value.Ok, value: `[3,1,1,2,3]`},
}

func TestProbes(t *testing.T) {
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			checkProbe(t, p, runProbe(t, p))
		})
	}
}

func TestProbeCount(t *testing.T) {
	if n := len(probes) + len(removed); n < 60 {
		t.Fatalf("only %d probes", n)
	}
}

// TestValueIsJSON guards the value encoding against JSON that only looks
// right.
func TestValueIsJSON(t *testing.T) {
	for _, p := range probes {
		if p.kind == value.Ok && p.value != "" && !json.Valid([]byte(p.value)) {
			t.Errorf("%s: expected value is not JSON", p.name)
		}
	}
}
