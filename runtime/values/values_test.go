package values

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/value"
)

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestFailureKeepsEarlierGoodValueAsStale(t *testing.T) {
	prev := Snapshot{
		"stars": {Value: json.RawMessage(`42`), Status: value.Fresh, RanAt: 1},
		"gone":  {Value: json.RawMessage(`1`), Status: value.Fresh},
	}
	got := Apply(prev, []string{"stars", "new"}, []script.Outcome{
		{Name: "stars", Kind: value.CapabilityDenied},
		{Name: "new", Kind: value.LimitExceeded},
	}, now, script.TierManual)
	if e := got["stars"]; e.Status != value.Stale || string(e.Value) != "42" || e.FailureKind != "capability-denied" {
		t.Fatalf("stars = %+v", e)
	}
	if e := got["new"]; e.Status != value.Error || e.Value != nil || e.FailureKind != "limit" {
		t.Fatalf("new = %+v", e)
	}
	if _, ok := got["gone"]; ok {
		t.Fatal("name no longer in the note kept")
	}
}

func TestDuplicatesLastWins(t *testing.T) {
	got := Apply(nil, []string{"x"}, []script.Outcome{
		{Name: "x", Kind: value.Ok, Value: json.RawMessage(`1`)},
		{Name: "x", Kind: value.Ok, Value: json.RawMessage(`2`)},
	}, now, script.TierManual)
	if string(got["x"].Value) != "2" || got["x"].Status != value.Fresh || got["x"].RanAt != now.UnixMilli() {
		t.Fatalf("x = %+v", got["x"])
	}
	got = Apply(nil, []string{"x"}, []script.Outcome{
		{Name: "x", Kind: value.Ok, Value: json.RawMessage(`1`)},
		{Name: "x", Kind: value.ScriptError},
	}, now, script.TierManual)
	if string(got["x"].Value) != "1" || got["x"].Status != value.Stale {
		t.Fatalf("failing last duplicate wiped the value: %+v", got["x"])
	}
}

func TestDemote(t *testing.T) {
	s := Snapshot{"a": {Value: json.RawMessage(`1`), Status: value.Fresh}, "b": {Status: value.Error, FailureKind: "limit"}}
	d := s.Demote()
	if d["a"].Status != value.Stale || d["b"].Status != value.Error {
		t.Fatalf("demoted %+v", d)
	}
	if s["a"].Status != value.Fresh {
		t.Fatal("Demote changed its receiver")
	}
}

func TestDecodeSkipsWhatItCannotUnderstand(t *testing.T) {
	raw := json.RawMessage(`{"__proto__":{"value":1,"status":"fresh"},"bad":7,"odd":{"status":"weird","value":1},` +
		`"novalue":{"status":"fresh"},"err":{"status":"error","value":5,"failureKind":"limit"},"constructor":{"value":[1],"status":"stale"}}`)
	s := Decode(raw)
	if len(s) != 3 || string(s["__proto__"].Value) != "1" || s["err"].Value != nil || s["constructor"].Status != value.Stale {
		t.Fatalf("decoded %+v", s)
	}
	for _, bad := range []string{"", "null", "[1]", "{", `"x"`} {
		if got := Decode(json.RawMessage(bad)); len(got) != 0 {
			t.Fatalf("Decode(%q) = %v", bad, got)
		}
	}
}

func TestPersistAndOversizeKeepsWhatWasStored(t *testing.T) {
	dir := t.TempDir()
	st := state.Open(dir, state.Options{})
	key := state.DocumentKey("/notes/a.mk.md")
	names := []string{"a", "b"}
	at := time.UnixMilli(5)
	if _, err := Record(st, key, names, []script.Outcome{{Name: "a", Kind: value.Ok, Value: json.RawMessage(`42`)}}, at, script.TierManual); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(st, key); err != nil || string(got["a"].Value) != `42` || got["a"].Status != value.Fresh {
		t.Fatalf("loaded %+v %v", got, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "notes", "*.values.json"))
	if len(files) != 1 {
		t.Fatalf("entry files %v", files)
	}
	before, _ := os.ReadFile(files[0])

	// A run whose values are over the cap stores nothing: the earlier good
	// value survives byte for byte.
	big := json.RawMessage(`"` + strings.Repeat("x", MaxSnapshotBytes) + `"`)
	_, err := Record(st, key, names, []script.Outcome{{Name: "a", Kind: value.ScriptError}, {Name: "b", Kind: value.Ok, Value: big}}, at, script.TierManual)
	var over *state.OverCapError
	if !errors.As(err, &over) || over.Section != state.SectionValues || over.Limit != MaxSnapshotBytes {
		t.Fatalf("oversize run: %v", err)
	}
	if after, _ := os.ReadFile(files[0]); string(after) != string(before) {
		t.Fatalf("the stored values changed:\n%s\n%s", before, after)
	}
	// A failure after that keeps 42, now stale.
	got, err := Record(st, key, names, []script.Outcome{{Name: "a", Kind: value.ScriptError}}, at, script.TierManual)
	if err != nil || string(got["a"].Value) != `42` || got["a"].Status != value.Stale {
		t.Fatalf("after a failure: %+v %v", got, err)
	}
}

// An outcome-unknown stays stored through automatic runs, whatever they
// end with, until a manual run replaces it.
func TestOutcomeUnknownStaysUntilAManualRun(t *testing.T) {
	prev := Snapshot{
		"post":  {Status: value.Error, FailureKind: value.OutcomeUnknown, RanAt: 1},
		"stale": {Value: json.RawMessage(`7`), Status: value.Stale, FailureKind: value.OutcomeUnknown, RanAt: 1},
		"other": {Value: json.RawMessage(`1`), Status: value.Fresh, RanAt: 1},
	}
	names := []string{"post", "stale", "other"}
	for _, o := range []script.Outcome{
		{Kind: value.TierBlocked},
		{Kind: value.Ok, Value: json.RawMessage(`5`)},
		{Kind: value.CapabilityDenied},
	} {
		var outs []script.Outcome
		for _, n := range names {
			o.Name = n
			outs = append(outs, o)
		}
		got := Apply(prev, names, outs, now, script.TierAuto)
		if !reflect.DeepEqual(got["post"], prev["post"]) || got["stale"].Status != value.Stale || string(got["stale"].Value) != "7" ||
			got["stale"].FailureKind != value.OutcomeUnknown {
			t.Fatalf("an automatic run ending %s replaced the outcome-unknown: %+v", o.Kind, got)
		}
		if o.Kind == value.Ok && string(got["other"].Value) != "5" {
			t.Fatalf("an automatic run did not store an ordinary value: %+v", got["other"])
		}
	}
	got := Apply(prev, names, []script.Outcome{
		{Name: "post", Kind: value.Ok, Value: json.RawMessage(`"sent"`)},
		{Name: "stale", Kind: value.ScriptError},
	}, now, script.TierManual)
	if e := got["post"]; e.Status != value.Fresh || string(e.Value) != `"sent"` || e.FailureKind != "" {
		t.Fatalf("a manual run did not replace the outcome-unknown: %+v", e)
	}
	if e := got["stale"]; e.Status != value.Stale || e.FailureKind != value.ScriptError {
		t.Fatalf("a manual run's failure did not replace the outcome-unknown kind: %+v", e)
	}
}
