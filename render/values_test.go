package render

import (
	"encoding/json"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/valuefmt"
	"github.com/markii/markii/value"
)

// styleNamed is a style distinguishable by n, for checking which style a
// function picked.
func styleNamed(n int) ansi.Style { return ansi.Style{FG: ansi.Color{R: uint8(n), Set: true}} }

func TestValueReaderResolve(t *testing.T) {
	values := value.Values{
		"repo":    {Value: json.RawMessage(`{"name":"markii","stars":18234,"tags":["go","lua"],"__proto__":{"x":1},"":"empty key"}`), Status: value.Fresh},
		"old":     {Value: json.RawMessage(`{"n":1}`), Status: value.Stale},
		"broken":  {Status: value.Error, FailureKind: "limit"},
		"weird":   {Status: value.Error, FailureKind: "made-up"},
		"bogus":   {Value: json.RawMessage(`1`), Status: "done"},
		"bad":     {Value: json.RawMessage(`{"a":`), Status: value.Fresh},
		"nothing": {Status: value.Missing},
		"nullish": {Value: json.RawMessage(`null`), Status: value.Fresh},
		"list":    {Value: json.RawMessage(`[10,20,30]`), Status: value.Fresh},
	}
	r := NewValueReader(values)
	cases := []struct {
		path   string
		value  any
		status value.Status
		kind   value.Kind
	}{
		{"repo.name", "markii", value.Fresh, ""},
		{"repo.stars", 18234.0, value.Fresh, ""},
		{"repo.tags.1", "lua", value.Fresh, ""},
		{"repo.tags.01", nil, value.Missing, ""},
		{"repo.tags.+1", nil, value.Missing, ""},
		{"repo.tags.-1", nil, value.Missing, ""},
		{"repo.tags.2", nil, value.Missing, ""},
		{"repo.tags.length", 2.0, value.Fresh, ""},
		{"repo.__proto__.x", 1.0, value.Fresh, ""},
		{"repo.constructor", nil, value.Missing, ""},
		{"repo.toString", nil, value.Missing, ""},
		{"repo.hasOwnProperty", nil, value.Missing, ""},
		{"repo.", "empty key", value.Fresh, ""},
		{"repo.name.length", nil, value.Missing, ""},
		{"repo.nope.deeper", nil, value.Missing, ""},
		{"old.n", 1.0, value.Stale, ""},
		{"old.m", nil, value.Missing, ""},
		{"broken", nil, value.Error, "limit"},
		{"broken.x", nil, value.Missing, "limit"},
		{"weird", nil, value.Error, "script-error"},
		{"bogus", nil, value.Missing, ""},
		{"bad", nil, value.Missing, ""},
		{"nothing", nil, value.Missing, ""},
		{"nullish", nil, value.Fresh, ""},
		{"list.0", 10.0, value.Fresh, ""},
		{"absent", nil, value.Missing, ""},
		{"@repo.name", nil, value.Missing, ""},
		{"@repo", nil, value.Missing, ""},
		{"", nil, value.Missing, ""},
		{"constructor", nil, value.Missing, ""},
		{"__proto__", nil, value.Missing, ""},
	}
	for _, c := range cases {
		got := r.Resolve(c.path)
		if got.Status != c.status || got.FailureKind != c.kind || valuefmt.Stringify(got.Value) != valuefmt.Stringify(c.value) {
			t.Errorf("Resolve(%q) = %+v, want value %v status %s kind %q", c.path, got, c.value, c.status, c.kind)
		}
	}
	if got := r.Resolve("repo"); !got.HasValue() || valuefmt.PlainString(got.Value) != `{"name":"markii","stars":18234,"tags":["go","lua"],"__proto__":{"x":1},"":"empty key"}` {
		t.Errorf("Resolve(repo) = %+v", got)
	}
}

func TestValueReaderNilValues(t *testing.T) {
	if got := NewValueReader(nil).Resolve("x"); got.Status != value.Missing {
		t.Errorf("nil store: %+v", got)
	}
}

func TestFailurePhrasesAndStyles(t *testing.T) {
	s := Styles{Danger: styleNamed(1), Warning: styleNamed(2), Limit: styleNamed(3), Dim: styleNamed(4)}
	cases := []struct {
		kind   value.Kind
		phrase string
		style  int
	}{
		{"script-error", "script error", 1},
		{"capability-denied", "needs permission", 1},
		{"crashed", "crashed", 1},
		{"tier-blocked", "requires manual run", 2},
		{"outcome-unknown", "outcome unknown: the request may have taken effect", 2},
		{"limit", "limit exceeded", 3},
		{"", "error", 4},
		{"other", "error", 4},
	}
	for _, c := range cases {
		if got := c.kind.Phrase(); got != c.phrase {
			t.Errorf("%q.Phrase() = %q, want %q", c.kind, got, c.phrase)
		}
		if got := s.Failure(c.kind); got != styleNamed(c.style) {
			t.Errorf("Failure(%q) = %+v", c.kind, got)
		}
	}
	if got := (Resolved{Status: value.Error, FailureKind: "limit"}).Suffix(); got != " (limit exceeded)" {
		t.Errorf("error suffix %q", got)
	}
	if got := (Resolved{Status: value.Stale}).Suffix(); got != " (stale)" {
		t.Errorf("stale suffix %q", got)
	}
	if got := (Resolved{Status: value.Fresh}).Suffix() + (Resolved{Status: value.Missing}).Suffix(); got != "" {
		t.Errorf("fresh/missing suffix %q", got)
	}
}
