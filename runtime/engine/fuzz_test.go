package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// The fuzz targets run their seeds in every `go test`; explore further with
//
//	go test -run XXX -fuzz FuzzDecodeJSON -fuzztime 60s ./runtime/engine

// Caps for the fuzz targets: small enough that the caps themselves are
// reached.
const (
	fuzzDepth = 8
	fuzzNodes = 200
	fuzzBytes = 64 << 10
)

func unlimited(int64) bool { return true }

// checkFixpoint re-decodes JSON the marshaller wrote and marshals it again:
// the bytes must be identical and valid JSON.
func checkFixpoint(t *testing.T, L *lua.LState, out []byte) {
	t.Helper()
	if !json.Valid(out) {
		t.Fatalf("marshal wrote invalid JSON %q", out)
	}
	v, err := decodeJSON(L, out, fuzzBytes*8, fuzzDepth+1, fuzzNodes*2, unlimited)
	if err != nil {
		t.Fatalf("marshal output %q does not decode: %v", out, err)
	}
	again, err := marshal(v, fuzzDepth+1, fuzzNodes*2, fuzzBytes*8, unlimited)
	if err != nil {
		t.Fatalf("decoded %q does not marshal again: %v", out, err)
	}
	if !bytes.Equal(again, out) {
		t.Fatalf("not a fixpoint: %q -> %q", out, again)
	}
}

func oneLine(t *testing.T, err error) {
	t.Helper()
	if strings.ContainsAny(err.Error(), "\n\r\x1b") {
		t.Fatalf("error is not one clean line: %q", err)
	}
}

// FuzzDecodeJSON decodes arbitrary bytes as fetched JSON: it never
// panics, refuses with a *DecodeError in one line, accepts only valid
// JSON, and what it accepts marshals to a canonical fixpoint.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"c":"\u0000"}`, `[true,false,null]`, `"\ud800"`, `1e400`, `-0`,
		`{"__array":true}`, `[[[[[[[[[[1]]]]]]]]]]`, `{"a":1} x`, `{"1":2,"a":3}`, `0.1`, `123456789012345678901234567890`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		L := lua.NewState(lua.Options{SkipOpenLibs: true})
		defer L.Close()
		v, err := decodeJSON(L, data, fuzzBytes, fuzzDepth, fuzzNodes, unlimited)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *DecodeError", err, err)
			}
			oneLine(t, err)
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		out, err := marshal(v, fuzzDepth, fuzzNodes, fuzzBytes*8, unlimited)
		if err != nil {
			var me *MarshalError
			if !errors.As(err, &me) {
				t.Fatalf("error %T %v is not a *MarshalError", err, err)
			}
			oneLine(t, err)
			return
		}
		checkFixpoint(t, L, out)
	})
}

// FuzzMarshal builds Lua values from the input (nested tables, sparse
// and mixed keys, cycles, non-finite numbers, NUL bytes, functions) and
// marshals them: no panic, a *MarshalError in one line, or valid JSON at
// a canonical fixpoint within the caps.
func FuzzMarshal(f *testing.F) {
	for _, s := range []string{"\x00\x01\x02", "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03", "\x00\x04", "\x00\x05\x05\x05", "\x00\x07\xff", "\x00\x02a\x00b\x03"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		L := lua.NewState(lua.Options{SkipOpenLibs: true})
		defer L.Close()
		root := buildValue(L, data)
		out, err := marshal(root, fuzzDepth, fuzzNodes, fuzzBytes, unlimited)
		if err != nil {
			var me *MarshalError
			if !errors.As(err, &me) {
				t.Fatalf("error %T %v is not a *MarshalError", err, err)
			}
			oneLine(t, err)
			return
		}
		if int64(len(out)) > fuzzBytes {
			t.Fatalf("%d bytes, over the %d cap", len(out), fuzzBytes)
		}
		checkFixpoint(t, L, out)
	})
}

// buildValue interprets data as operations on a stack of tables and
// returns the bottom table.
func buildValue(L *lua.LState, data []byte) lua.LValue {
	stack := []*lua.LTable{L.NewTable()}
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	specials := []lua.LValue{lua.LNumber(math.NaN()), lua.LNumber(math.Inf(1)), lua.LNumber(math.Copysign(0, -1)),
		lua.LNumber(1e300), lua.LNumber(0.1), lua.LNumber(1 << 53), lua.LString("a\x00b"), lua.LString("\xff\xfe"),
		lua.LString("__array"), L.NewFunction(func(*lua.LState) int { return 0 }), lua.LTrue, lua.LFalse}
	for len(data) > 0 && len(stack) < 64 {
		top := stack[len(stack)-1]
		switch op := next(); op % 8 {
		case 0:
			stack = append(stack, L.NewTable())
		case 1:
			top.RawSetInt(int(next()%8)+1, lua.LNumber(float64(int8(next()))))
		case 2:
			top.RawSetString(string([]byte{next()}), lua.LString(string([]byte{next(), next()})))
		case 3:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].RawSetString(string([]byte{'k', next()}), top)
			}
		case 4:
			top.RawSetString("up", stack[int(next())%len(stack)])
		case 5:
			top.RawSetInt(int(next()%4)+1, specials[int(next())%len(specials)])
		case 6:
			top.RawSet(specials[int(next())%len(specials)], lua.LNumber(1))
		case 7:
			top.RawSetInt(int(next())<<8|int(next()), lua.LString("sparse"))
		}
	}
	return stack[0]
}
