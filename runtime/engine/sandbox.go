package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// State options of every curated state: a value stack that starts small
// and grows in a few large steps to a hard cap (growth in steps of 32 to an
// unbounded size makes one builtin call run for seconds; with these steps
// it reallocates at most seven times, and past the cap the script fails at
// once, as it did with a fixed stack of the cap's size), a call depth that
// ends recursion bombs with a clean "stack overflow", and the auto-growing
// call stack left off (it turns pcall recursion into a Go panic). Most
// scripts never leave the first 16 KB.
const (
	registrySize     = 1024
	registryGrowStep = 1024
	registryMaxSize  = 8 * 1024
	callStackSize    = 200
	// maxResults caps how many values one builtin call may push.
	maxResults = 4096
	// bigAllocation is the size from which a builtin asks the memory
	// guard before allocating.
	bigAllocation = 64 << 10
	// caughtErrorCost is the instruction charge of an error a pcall
	// catches (gopher-lua builds a traceback for each).
	caughtErrorCost = 50
)

// removedGlobals are deleted after the base library is opened
// (DESIGN invariant 4 and SPEC §3.3).
var removedGlobals = []string{
	"print", "_printregs", "module", "newproxy", "gcinfo",
	"load", "loadstring", "loadfile", "dofile", "require",
	"getfenv", "setfenv", "getmetatable", "setmetatable",
	"rawget", "rawset", "rawequal", "rawlen", "collectgarbage",
	"_G", "_VERSION", "_GOPHER_LUA_VERSION", "unpack",
}

// newLuaState builds the bare curated state: base, string, table and math
// only, with every dangerous member removed and every allocating builtin
// replaced by a budget-checked version bound to r.
func newLuaState(r *scriptRun) *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       callStackSize,
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMaxSize,
		RegistryGrowStep:    registryGrowStep,
		MinimizeStackMemory: false,
	})
	g := L.G.Global
	for _, lib := range curatedLibraries() {
		if lib.name == "" {
			lib.install(L, g)
			continue
		}
		t := L.CreateTable(0, len(lib.members))
		lib.install(L, t)
		g.RawSetString(lib.name, t)
	}
	set := func(t *lua.LTable, name string, fn lua.LGFunction) { t.RawSetString(name, L.NewFunction(fn)) }

	set(g, "pcall", r.pcall)
	set(g, "xpcall", r.xpcall)
	set(g, "tostring", r.tostring)
	set(g, "select", r.selectFn)

	str := g.RawGetString("string").(*lua.LTable)
	set(str, "rep", r.strRep)
	set(str, "format", r.strFormat)
	set(str, "char", r.strChar)
	set(str, "byte", r.strByte)
	set(str, "upper", r.strMap(strings.ToUpper))
	set(str, "lower", r.strMap(strings.ToLower))
	set(str, "reverse", r.strMap(reverseBytes))
	set(str, "find", r.strFind)
	set(str, "match", r.strMatch)
	set(str, "gmatch", r.strGmatch)
	set(str, "gsub", r.strGsub)
	// The string metatable is a private copy locked with __metatable: a
	// script that edits the global string table changes nothing for
	// ("x"):method() calls, and it can neither reach nor replace the
	// metatable (getmetatable and setmetatable do not exist).
	methods := L.CreateTable(0, librarySize(lua.StringLibName))
	str.ForEach(func(k, v lua.LValue) { methods.RawSet(k, v) })
	mt := L.CreateTable(0, 2)
	mt.RawSetString("__index", methods)
	mt.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(lua.LString(""), mt)

	tbl := g.RawGetString("table").(*lua.LTable)
	set(tbl, "concat", r.tableConcat)
	set(tbl, "unpack", r.unpack)
	set(tbl, "pack", r.tablePack)
	set(tbl, "move", r.tableMove)
	set(tbl, "insert", r.charged(tbl.RawGetString("insert").(*lua.LFunction).GFunction))
	set(tbl, "remove", r.charged(tbl.RawGetString("remove").(*lua.LFunction).GFunction))
	set(tbl, "sort", r.charged(tbl.RawGetString("sort").(*lua.LFunction).GFunction))
	set(tbl, "maxn", r.charged(tbl.RawGetString("maxn").(*lua.LFunction).GFunction))
	set(g, "tonumber", r.chargedBytes(g.RawGetString("tonumber").(*lua.LFunction).GFunction))

	m := g.RawGetString("math").(*lua.LTable)
	m.RawSetString("huge", lua.LNumber(math.Inf(1)))
	set(m, "random", r.mathRandom)
	set(m, "randomseed", r.mathRandomseed)
	return L
}

// charged wraps a table builtin whose work is proportional to the size of
// its first argument (insert and remove shift elements, sort compares):
// that work is charged to the instruction budget first.
func (r *scriptRun) charged(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			n := int64(t.Len())
			if n > 64 {
				n = n * int64(math.Log2(float64(n))+1)
			}
			r.charge(n)
		}
		return fn(L)
	}
}

// chargedBytes wraps a builtin whose work is proportional to the length
// of its first argument when that is a string.
func (r *scriptRun) chargedBytes(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if s, ok := L.Get(1).(lua.LString); ok {
			r.chargeLoop(1, float64(len(s)))
		}
		return fn(L)
	}
}

// charge adds builtin work to the instruction count and stops the script
// when a limit has been breached.
func (r *scriptRun) charge(n int64) {
	if !r.meter.charge(n) {
		r.L.RaiseError("%s", limitMessage(r.meter.breach()))
	}
}

// bytesPerInstruction is how many bytes a builtin may copy or scan for the
// cost of one instruction, matchCost what one pattern match costs on top
// of its matcher steps (its captures and match record), and conversionCost
// what one string.format conversion costs on top of its bytes, all measured
// against the time of a plain Lua instruction (TestBuiltinLoopsAreMetered
// prints the ratios).
const (
	bytesPerInstruction = 16
	matchCost           = 24
	conversionCost      = 4
)

// chargeLoop charges a builtin's work before it does it: one instruction
// per iteration of its loop, whatever each iteration produces, plus one
// per bytesPerInstruction bytes it copies or scans. Counts are floats so
// that a script's huge argument (2^53, 1e300) is charged, not converted.
func (r *scriptRun) chargeLoop(iterations, bytes float64) {
	n := iterations + bytes/bytesPerInstruction
	if !(n < math.MaxInt64/2) {
		n = math.MaxInt64 / 2
	}
	if n > 0 {
		r.charge(int64(n))
	}
}

// reserve checks that n more bytes fit the memory budget before a builtin
// allocates them; a breach is recorded host-side.
func (r *scriptRun) reserve(n int64) {
	if n < 0 || n > r.limits.Memory {
		r.meter.trip(limitMemory)
		r.L.RaiseError("%s", limitMessage(limitMemory))
	}
	if n < bigAllocation {
		return
	}
	if !r.mem.fits(n) {
		r.meter.trip(limitMemory)
		r.L.RaiseError("%s", limitMessage(limitMemory))
	}
}

// pcall is pcall without the escape hatches: a limit breach is re-raised
// at once, and an error it catches disarms any pending denial record, so a
// caught denial replayed with error() classifies as a script error.
func (r *scriptRun) pcall(L *lua.LState) int {
	n := L.GetTop()
	if n == 0 {
		L.ArgError(1, "value expected")
	}
	err := L.PCall(n-1, lua.MultRet, nil)
	if err != nil {
		return r.caught(L, err)
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

// xpcall(f, handler, ...) calls f protected with the extra arguments (as
// Lua 5.2 and later do) and, on error, returns false and what handler
// makes of the error value.
func (r *scriptRun) xpcall(L *lua.LState) int {
	f := L.CheckAny(1)
	handler := L.CheckFunction(2)
	args := make([]lua.LValue, 0, max(0, L.GetTop()-2))
	for i := 3; i <= L.GetTop(); i++ {
		args = append(args, L.Get(i))
	}
	L.SetTop(0)
	L.Push(f)
	for _, a := range args {
		L.Push(a)
	}
	err := L.PCall(len(args), lua.MultRet, nil)
	if err == nil {
		L.Insert(lua.LTrue, 1)
		return L.GetTop()
	}
	r.caught(L, err)
	obj := L.Get(-1)
	L.SetTop(0)
	L.Push(handler)
	L.Push(obj)
	if herr := L.PCall(1, 1, nil); herr != nil {
		return r.caught(L, herr)
	}
	L.Insert(lua.LFalse, 1)
	return 2
}

// caught handles an error a protected call caught: limits and interpreter
// panics propagate; anything else is returned to the script as
// false, message.
func (r *scriptRun) caught(L *lua.LState, err error) int {
	if r.meter.tripped.Load() {
		L.RaiseError("%s", limitMessage(r.meter.breach()))
	}
	var obj lua.LValue = lua.LString(err.Error())
	if ae, ok := err.(*lua.ApiError); ok {
		if ae.Type == lua.ApiErrorPanic {
			r.poisoned = true
			L.Error(ae.Object, 0)
		}
		obj = ae.Object
	}
	r.denial = nil
	r.unknown = nil
	r.netFailure = nil
	r.laterRead = ""
	// Building a caught error costs a stack trace; charge it.
	r.charge(caughtErrorCost)
	L.SetTop(0)
	L.Push(lua.LFalse)
	L.Push(obj)
	return 2
}

// tostring never shows a Go address: tables and functions get a small
// number that is stable within the script.
func (r *scriptRun) tostring(L *lua.LState) int {
	v := L.CheckAny(1)
	switch v.(type) {
	case lua.LString, lua.LNumber, lua.LBool, *lua.LNilType:
		L.Push(lua.LString(v.String()))
	default:
		L.Push(lua.LString(r.opaqueName(v)))
	}
	return 1
}

func (r *scriptRun) opaqueName(v lua.LValue) string {
	id, ok := r.ids[v]
	if !ok {
		id = len(r.ids) + 1
		r.ids[v] = id
	}
	return fmt.Sprintf("%s: %d", v.Type().String(), id)
}

// selectFn is select with its argument checked (gopher-lua indexes out of
// range on select(0)).
func (r *scriptRun) selectFn(L *lua.LState) int {
	n := L.GetTop() - 1
	if s, ok := L.Get(1).(lua.LString); ok && s == "#" {
		L.Push(lua.LNumber(n))
		return 1
	}
	i := L.CheckInt(1)
	if i < 0 {
		i = n + i + 1
	}
	if i < 1 {
		L.ArgError(1, "index out of range")
	}
	if i > n {
		return 0
	}
	return n - i + 1
}

func (r *scriptRun) mathRandom(L *lua.LState) int {
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(r.rng.Float64()))
		return 1
	case 1:
		m := float64(L.CheckNumber(1))
		return r.randomBetween(L, 1, math.Floor(m))
	default:
		lo := math.Floor(float64(L.CheckNumber(1)))
		hi := math.Floor(float64(L.CheckNumber(2)))
		return r.randomBetween(L, lo, hi)
	}
}

func (r *scriptRun) randomBetween(L *lua.LState, lo, hi float64) int {
	if !(lo <= hi) {
		L.RaiseError("bad argument to 'random' (interval is empty)")
	}
	span := hi - lo + 1
	if span > 1<<53 || math.IsInf(span, 0) {
		L.RaiseError("bad argument to 'random' (interval too large)")
	}
	L.Push(lua.LNumber(lo + float64(r.rng.Int64N(int64(span)))))
	return 1
}

func (r *scriptRun) mathRandomseed(L *lua.LState) int {
	seed := uint64(int64(float64(L.CheckNumber(1))))
	r.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return 0
}

func reverseBytes(s string) string {
	b := make([]byte, len(s))
	for i := range len(s) {
		b[i] = s[len(s)-1-i]
	}
	return string(b)
}
