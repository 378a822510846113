package render

import (
	"encoding/json"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/valuefmt"
	"github.com/markii/markii/runtime/script"
)

// styleNamed is a style distinguishable by n, for checking which style a
// function picked.
func styleNamed(n int) ansi.Style { return ansi.Style{FG: ansi.Color{R: uint8(n), Set: true}} }

func TestValueReaderResolve(t *testing.T) {
	values := Values{
		"repo":    {Value: json.RawMessage(`{"name":"markii","stars":18234,"tags":["go","lua"],"__proto__":{"x":1},"":"empty key"}`), Status: Fresh},
		"old":     {Value: json.RawMessage(`{"n":1}`), Status: Stale},
		"broken":  {Status: Error, FailureKind: "limit"},
		"weird":   {Status: Error, FailureKind: "made-up"},
		"bogus":   {Value: json.RawMessage(`1`), Status: "done"},
		"bad":     {Value: json.RawMessage(`{"a":`), Status: Fresh},
		"nothing": {Status: Missing},
		"nullish": {Value: json.RawMessage(`null`), Status: Fresh},
		"list":    {Value: json.RawMessage(`[10,20,30]`), Status: Fresh},
	}
	r := NewValueReader(values)
	cases := []struct {
		path   string
		value  any
		status Status
		kind   script.Kind
	}{
		{"repo.name", "markii", Fresh, ""},
		{"repo.stars", 18234.0, Fresh, ""},
		{"repo.tags.1", "lua", Fresh, ""},
		{"repo.tags.01", nil, Missing, ""},
		{"repo.tags.+1", nil, Missing, ""},
		{"repo.tags.-1", nil, Missing, ""},
		{"repo.tags.2", nil, Missing, ""},
		{"repo.tags.length", 2.0, Fresh, ""},
		{"repo.__proto__.x", 1.0, Fresh, ""},
		{"repo.constructor", nil, Missing, ""},
		{"repo.toString", nil, Missing, ""},
		{"repo.hasOwnProperty", nil, Missing, ""},
		{"repo.", "empty key", Fresh, ""},
		{"repo.name.length", nil, Missing, ""},
		{"repo.nope.deeper", nil, Missing, ""},
		{"old.n", 1.0, Stale, ""},
		{"old.m", nil, Missing, ""},
		{"broken", nil, Error, "limit"},
		{"broken.x", nil, Missing, "limit"},
		{"weird", nil, Error, "script-error"},
		{"bogus", nil, Missing, ""},
		{"bad", nil, Missing, ""},
		{"nothing", nil, Missing, ""},
		{"nullish", nil, Fresh, ""},
		{"list.0", 10.0, Fresh, ""},
		{"absent", nil, Missing, ""},
		{"@repo.name", nil, Missing, ""},
		{"@repo", nil, Missing, ""},
		{"", nil, Missing, ""},
		{"constructor", nil, Missing, ""},
		{"__proto__", nil, Missing, ""},
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
	if got := NewValueReader(nil).Resolve("x"); got.Status != Missing {
		t.Errorf("nil store: %+v", got)
	}
}

func TestFailurePhrasesAndStyles(t *testing.T) {
	s := Styles{Danger: styleNamed(1), Warning: styleNamed(2), Limit: styleNamed(3), Dim: styleNamed(4)}
	cases := []struct {
		kind   script.Kind
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
	if got := (Resolved{Status: Error, FailureKind: "limit"}).Suffix(); got != " (limit exceeded)" {
		t.Errorf("error suffix %q", got)
	}
	if got := (Resolved{Status: Stale}).Suffix(); got != " (stale)" {
		t.Errorf("stale suffix %q", got)
	}
	if got := (Resolved{Status: Fresh}).Suffix() + (Resolved{Status: Missing}).Suffix(); got != "" {
		t.Errorf("fresh/missing suffix %q", got)
	}
	for _, st := range []Status{"", "done", "FRESH", "Missing "} {
		if ValidStatus(st) != Missing {
			t.Errorf("ValidStatus(%q) should be missing", st)
		}
	}
}
