package value

import (
	"encoding/json"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestValidStatus(t *testing.T) {
	for _, st := range []Status{Fresh, Stale, Error, Missing} {
		if ValidStatus(st) != st {
			t.Errorf("ValidStatus(%q) changed it", st)
		}
	}
	for _, st := range []Status{"", "done", "FRESH", "Missing "} {
		if ValidStatus(st) != Missing {
			t.Errorf("ValidStatus(%q) should be missing", st)
		}
	}
}

func TestMerge(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	fresh := Entry{Value: raw("1"), Status: Fresh, RanAt: 10}
	unknown := Entry{Status: Error, FailureKind: OutcomeUnknown, RanAt: 10}
	cases := []struct {
		name   string
		prev   Entry
		kind   Kind
		v      json.RawMessage
		manual bool
		want   Entry
	}{
		{"ok is fresh", Entry{}, Ok, raw("2"), false, Entry{Value: raw("2"), Status: Fresh, RanAt: 99}},
		{"ok without a value is null", fresh, Ok, raw(" "), false, Entry{Value: raw("null"), Status: Fresh, RanAt: 99}},
		{"a failure keeps the value stale", fresh, LimitExceeded, nil, false, Entry{Value: raw("1"), Status: Stale, FailureKind: LimitExceeded, RanAt: 10}},
		{"a failure keeps a stale value", Entry{Value: raw("1"), Status: Stale, FailureKind: Crashed, RanAt: 10}, ScriptError, nil, true,
			Entry{Value: raw("1"), Status: Stale, FailureKind: ScriptError, RanAt: 10}},
		{"a failure without a value is an error", Entry{}, CapabilityDenied, nil, false, Entry{Status: Error, FailureKind: CapabilityDenied, RanAt: 99}},
		{"an error entry has no value to keep", Entry{Status: Error, FailureKind: Crashed}, TierBlocked, nil, false, Entry{Status: Error, FailureKind: TierBlocked, RanAt: 99}},
		{"an unattended run keeps outcome-unknown", unknown, Ok, raw("3"), false, unknown},
		{"a manual run replaces outcome-unknown", unknown, Ok, raw("3"), true, Entry{Value: raw("3"), Status: Fresh, RanAt: 99}},
	}
	for _, c := range cases {
		got := Merge(c.prev, c.kind, c.v, 99, c.manual)
		if string(got.Value) != string(c.want.Value) || got.Status != c.want.Status || got.FailureKind != c.want.FailureKind || got.RanAt != c.want.RanAt {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestMergeCopiesTheValue: the entry never aliases the outcome's bytes.
func TestMergeCopiesTheValue(t *testing.T) {
	v := json.RawMessage("42")
	e := Merge(Entry{}, Ok, v, 1, true)
	v[0] = '9'
	if string(e.Value) != "42" {
		t.Fatalf("the entry shares the outcome's bytes: %s", e.Value)
	}
}
