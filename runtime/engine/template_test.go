package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
	lua "github.com/yuin/gopher-lua"
)

func curatedStateForTest(t *testing.T) *lua.LState {
	t.Helper()
	r := &scriptRun{ctx: context.Background(), req: &script.Request{Tier: script.TierManual}, host: DenyAll{},
		limits: script.Ceiling, ids: map[lua.LValue]int{}}
	r.meter = newMeter(r.limits.Instructions)
	L := newLuaState(r)
	r.L = L
	r.installAPI()
	t.Cleanup(L.Close)
	return L
}

func tableKeys(t *lua.LTable) string {
	var keys []string
	t.ForEach(func(k, v lua.LValue) { keys = append(keys, k.String()+":"+v.Type().String()) })
	slices.Sort(keys)
	return strings.Join(keys, " ")
}

// TestCuratedSurfaceIsExact pins every global and every library member a
// script can reach, so that building states from the prepared library
// template can neither drop a member nor let a removed one back in.
func TestCuratedSurfaceIsExact(t *testing.T) {
	L := curatedStateForTest(t)
	g := L.G.Global
	want := map[string]string{
		"": "assert:function bundle:table cache:table doc:table error:function ipairs:function json:table math:table " +
			"net:table next:function pairs:function pcall:function require:function select:function string:table " +
			"table:table tonumber:function tostring:function type:function xpcall:function",
		"string": "byte:function char:function find:function format:function gmatch:function gsub:function " +
			"len:function lower:function match:function rep:function reverse:function sub:function upper:function",
		"table": "concat:function getn:function insert:function maxn:function move:function pack:function " +
			"remove:function sort:function unpack:function",
		"math": "abs:function acos:function asin:function atan2:function atan:function ceil:function cos:function " +
			"cosh:function deg:function exp:function floor:function fmod:function frexp:function huge:number " +
			"ldexp:function log10:function log:function max:function min:function mod:function modf:function " +
			"pi:number pow:function rad:function random:function randomseed:function sin:function sinh:function " +
			"sqrt:function tan:function tanh:function",
	}
	for name, keys := range want {
		tbl := g
		if name != "" {
			tbl = g.RawGetString(name).(*lua.LTable)
		}
		if got := tableKeys(tbl); got != keys {
			t.Errorf("%q members:\n got %s\nwant %s", name, got, keys)
		}
	}
}

// TestStatesShareNoObjects: two curated states built from the same
// template share no table and no function object, so nothing a script
// does to its state can reach another script's.
func TestStatesShareNoObjects(t *testing.T) {
	a, b := curatedStateForTest(t), curatedStateForTest(t)
	seen := map[lua.LValue]bool{}
	var walk func(tbl *lua.LTable, mark bool, path string)
	walk = func(tbl *lua.LTable, mark bool, path string) {
		tbl.ForEach(func(k, v lua.LValue) {
			switch v := v.(type) {
			case *lua.LTable, *lua.LFunction:
				if mark {
					seen[v] = true
				} else if seen[v] {
					t.Errorf("%s.%s is shared between states", path, k)
				}
				if fn, ok := v.(*lua.LFunction); ok {
					for i, up := range fn.Upvalues {
						if mark {
							seen[up.Value()] = true
						} else if seen[up.Value()] {
							t.Errorf("upvalue %d of %s.%s is shared between states", i, path, k)
						}
					}
				}
				if sub, ok := v.(*lua.LTable); ok {
					walk(sub, mark, path+"."+k.String())
				}
			}
		})
	}
	walk(a.G.Global, true, "_G")
	walk(b.G.Global, false, "_G")
	if len(seen) < 80 {
		t.Fatalf("walked only %d objects", len(seen))
	}
	// ipairs keeps working through its fresh upvalue.
	if err := b.DoString(`local n = 0 for _, v in ipairs({4, 5, 6}) do n = n + v end assert(n == 15)
		local m = 0 for k in pairs({a = 1, b = 2}) do m = m + 1 end assert(m == 2)`); err != nil {
		t.Fatal(err)
	}
}
