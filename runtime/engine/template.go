package engine

import (
	"slices"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// libraryMember is one member of a standard library as the curated state
// installs it: a Go function (with the Go functions of its upvalues, for
// closures such as ipairs), or an immutable value.
type libraryMember struct {
	name     string
	fn       lua.LGFunction
	upvalues []lua.LGFunction
	value    lua.LValue
}

// library is one standard library table, or the globals when name is "".
type library struct {
	name    string
	members []libraryMember
}

// curatedLibraries is built once per process from gopher-lua's own
// library openers: the members every curated state starts from, with the
// removed ones already left out. It holds Go function values and immutable
// Lua values only; each state gets its own tables and function objects.
func curatedLibraries() []library {
	librariesOnce.Do(func() { libraries = buildLibraries() })
	return libraries
}

var (
	librariesOnce sync.Once
	libraries     []library
)

// removedMembers are the members of library lib left out of every curated
// state (SPEC §3.3); removedGlobals are the base library's.
func removedMembers(lib string) []string {
	if lib == lua.StringLibName {
		return []string{"dump", "gfind", "__index"}
	}
	return nil
}

func buildLibraries() []library {
	// A small state: it only opens the libraries and runs no script.
	L := lua.NewState(lua.Options{SkipOpenLibs: true, RegistrySize: 256, CallStackSize: 8})
	defer L.Close()
	opens := []struct {
		name string
		open lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
	}
	for _, lib := range opens {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	libs := []library{{name: "", members: members(g, removedGlobals)}}
	for _, lib := range opens[1:] {
		t := g.RawGetString(lib.name).(*lua.LTable)
		libs = append(libs, library{name: lib.name, members: members(t, removedMembers(lib.name))})
	}
	return libs
}

// members lists t's members in name order, without the removed ones,
// without nested tables (the libraries inside the globals are listed on
// their own) and without anything that is neither a Go function nor an
// immutable value, which a curated state would rather lack than share.
func members(t *lua.LTable, removed []string) []libraryMember {
	var out []libraryMember
	t.ForEach(func(k, v lua.LValue) {
		name, ok := k.(lua.LString)
		if !ok || slices.Contains(removed, string(name)) {
			return
		}
		m := libraryMember{name: string(name)}
		switch v := v.(type) {
		case *lua.LFunction:
			if !v.IsG {
				return
			}
			m.fn = v.GFunction
			for _, up := range v.Upvalues {
				upFn, ok := up.Value().(*lua.LFunction)
				if !ok || !upFn.IsG {
					return
				}
				m.upvalues = append(m.upvalues, upFn.GFunction)
			}
		case *lua.LTable:
			return
		case lua.LString, lua.LNumber, lua.LBool:
			m.value = v
		default:
			return
		}
		out = append(out, m)
	})
	slices.SortFunc(out, func(a, b libraryMember) int { return strings.Compare(a.name, b.name) })
	return out
}

// install creates lib's members in t, each function a new object of L.
func (lib library) install(L *lua.LState, t *lua.LTable) {
	for _, m := range lib.members {
		if m.fn == nil {
			t.RawSetString(m.name, m.value)
			continue
		}
		if len(m.upvalues) == 0 {
			t.RawSetString(m.name, L.NewFunction(m.fn))
			continue
		}
		ups := make([]lua.LValue, len(m.upvalues))
		for i, up := range m.upvalues {
			ups[i] = L.NewFunction(up)
		}
		t.RawSetString(m.name, L.NewClosure(m.fn, ups...))
	}
}

// librarySize is the number of members of the named library in a curated
// state before the engine adds its own.
func librarySize(name string) int {
	for _, lib := range curatedLibraries() {
		if lib.name == name {
			return len(lib.members)
		}
	}
	return 0
}
