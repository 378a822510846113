package valuefmt

import (
	"encoding/json"
	"reflect"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// plainGo converts a decoded value to what encoding/json produces, for a
// differential check (object key order aside).
func plainGo(v any) any {
	switch t := v.(type) {
	case Object:
		m := map[string]any{}
		for _, mem := range t {
			m[mem.Key] = plainGo(mem.Value)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainGo(e)
		}
		return out
	}
	return v
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	docs := []string{
		`null`, `true`, `false`, `0`, `-0`, `1.5e3`, `-1E-2`, `123456789012345678901234567890`,
		`""`, `"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u65e5"`, `"\ud83d\ude80"`,
		`"\ud800"`, `"\udc00x"`, `"\ud800\u0041"`, "\"caf\xc3\xa9\"", "\"bad \xff byte\"",
		`[]`, `{}`, ` [ 1 , "a" , [ ] , { } ] `, `{"a":{"b":[1,{"c":null}]},"d":"e"}`,
		`{"a":1,"a":2}`, "\t\r\n{\"k\" : \"v\"}\n",
	}
	for _, doc := range docs {
		got, err := Decode([]byte(doc))
		if err != nil {
			t.Errorf("Decode(%q): %v", doc, err)
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("encoding/json rejects %q: %v", doc, err)
		}
		if !reflect.DeepEqual(plainGo(got), want) {
			t.Errorf("Decode(%q) = %#v, encoding/json gives %#v", doc, plainGo(got), want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	bad := []string{
		``, ` `, `{`, `[`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a" 1}`, `{a:1}`, `[1 2]`, `01`, `-`, `1.`, `.5`,
		`1e`, `1e+`, `+1`, `NaN`, `Infinity`, `tru`, `nul`, `"abc`, "\"a\nb\"", `"\x"`, `"\u12"`, `"\u12G4"`,
		`{"a":1} x`, `1e999`, `'a'`, `[1]]`,
	}
	for _, doc := range bad {
		if v, err := Decode([]byte(doc)); err == nil {
			t.Errorf("Decode(%q) accepted bad JSON as %#v", doc, v)
		}
		if json.Valid([]byte(doc)) && doc != `1e999` {
			t.Errorf("test case %q is valid JSON", doc)
		}
	}
}
