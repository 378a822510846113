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
)

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestFailureKeepsEarlierGoodValueAsStale(t *testing.T) {
	prev := Snapshot{
		"stars": {Value: json.RawMessage(`42`), Status: Fresh, RanAt: 1},
		"gone":  {Value: json.RawMessage(`1`), Status: Fresh},
	}
	got := Apply(prev, []string{"stars", "new"}, []script.Outcome{
		{Name: "stars", Kind: script.CapabilityDenied},
		{Name: "new", Kind: script.LimitExceeded},
	}, now, script.TierManual)
	if e := got["stars"]; e.Status != Stale || string(e.Value) != "42" || e.FailureKind != "capability-denied" {
		t.Fatalf("stars = %+v", e)
	}
	if e := got["new"]; e.Status != Error || e.Value != nil || e.FailureKind != "limit" {
		t.Fatalf("new = %+v", e)
	}
	if _, ok := got["gone"]; ok {
		t.Fatal("name no longer in the note kept")
	}
}

func TestDuplicatesLastWins(t *testing.T) {
	got := Apply(nil, []string{"x"}, []script.Outcome{
		{Name: "x", Kind: script.Ok, Value: json.RawMessage(`1`)},
		{Name: "x", Kind: script.Ok, Value: json.RawMessage(`2`)},
	}, now, script.TierManual)
	if string(got["x"].Value) != "2" || got["x"].Status != Fresh || got["x"].RanAt != now.UnixMilli() {
		t.Fatalf("x = %+v", got["x"])
	}
	got = Apply(nil, []string{"x"}, []script.Outcome{
		{Name: "x", Kind: script.Ok, Value: json.RawMessage(`1`)},
		{Name: "x", Kind: script.ScriptError},
	}, now, script.TierManual)
	if string(got["x"].Value) != "1" || got["x"].Status != Stale {
		t.Fatalf("failing last duplicate wiped the value: %+v", got["x"])
	}
}

func TestDemote(t *testing.T) {
	s := Snapshot{"a": {Value: json.RawMessage(`1`), Status: Fresh}, "b": {Status: Error, FailureKind: "limit"}}
	d := s.Demote()
	if d["a"].Status != Stale || d["b"].Status != Error {
		t.Fatalf("demoted %+v", d)
	}
	if s["a"].Status != Fresh {
		t.Fatal("Demote changed its receiver")
	}
}

func TestDecodeSkipsWhatItCannotUnderstand(t *testing.T) {
	raw := json.RawMessage(`{"__proto__":{"value":1,"status":"fresh"},"bad":7,"odd":{"status":"weird","value":1},` +
		`"novalue":{"status":"fresh"},"err":{"status":"error","value":5,"failureKind":"limit"},"constructor":{"value":[1],"status":"stale"}}`)
	s := Decode(raw)
	if len(s) != 3 || string(s["__proto__"].Value) != "1" || s["err"].Value != nil || s["constructor"].Status != Stale {
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
	if _, err := Record(st, key, names, []script.Outcome{{Name: "a", Kind: script.Ok, Value: json.RawMessage(`42`)}}, at, script.TierManual); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(st, key); err != nil || string(got["a"].Value) != `42` || got["a"].Status != Fresh {
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
	_, err := Record(st, key, names, []script.Outcome{{Name: "a", Kind: script.ScriptError}, {Name: "b", Kind: script.Ok, Value: big}}, at, script.TierManual)
	var over *state.OverCapError
	if !errors.As(err, &over) || over.Section != state.SectionValues || over.Limit != MaxSnapshotBytes {
		t.Fatalf("oversize run: %v", err)
	}
	if after, _ := os.ReadFile(files[0]); string(after) != string(before) {
		t.Fatalf("the stored values changed:\n%s\n%s", before, after)
	}
	if err := Save(st, key, Snapshot{"a": {Value: big, Status: Fresh}}); !errors.As(err, &over) {
		t.Fatalf("oversize Save: %v", err)
	}
	if after, _ := os.ReadFile(files[0]); string(after) != string(before) {
		t.Fatal("a refused Save changed the stored values")
	}
	// A failure after that keeps 42, now stale.
	got, err := Record(st, key, names, []script.Outcome{{Name: "a", Kind: script.ScriptError}}, at, script.TierManual)
	if err != nil || string(got["a"].Value) != `42` || got["a"].Status != Stale {
		t.Fatalf("after a failure: %+v %v", got, err)
	}
}

// An outcome-unknown stays stored through automatic runs, whatever they
// end with, until a manual run replaces it.
func TestOutcomeUnknownStaysUntilAManualRun(t *testing.T) {
	prev := Snapshot{
		"post":  {Status: Error, FailureKind: string(script.OutcomeUnknown), RanAt: 1},
		"stale": {Value: json.RawMessage(`7`), Status: Stale, FailureKind: string(script.OutcomeUnknown), RanAt: 1},
		"other": {Value: json.RawMessage(`1`), Status: Fresh, RanAt: 1},
	}
	names := []string{"post", "stale", "other"}
	for _, o := range []script.Outcome{
		{Kind: script.TierBlocked},
		{Kind: script.Ok, Value: json.RawMessage(`5`)},
		{Kind: script.CapabilityDenied},
	} {
		var outs []script.Outcome
		for _, n := range names {
			o.Name = n
			outs = append(outs, o)
		}
		got := Apply(prev, names, outs, now, script.TierAuto)
		if !reflect.DeepEqual(got["post"], prev["post"]) || got["stale"].Status != Stale || string(got["stale"].Value) != "7" ||
			got["stale"].FailureKind != string(script.OutcomeUnknown) {
			t.Fatalf("an automatic run ending %s replaced the outcome-unknown: %+v", o.Kind, got)
		}
		if o.Kind == script.Ok && string(got["other"].Value) != "5" {
			t.Fatalf("an automatic run did not store an ordinary value: %+v", got["other"])
		}
	}
	got := Apply(prev, names, []script.Outcome{
		{Name: "post", Kind: script.Ok, Value: json.RawMessage(`"sent"`)},
		{Name: "stale", Kind: script.ScriptError},
	}, now, script.TierManual)
	if e := got["post"]; e.Status != Fresh || string(e.Value) != `"sent"` || e.FailureKind != "" {
		t.Fatalf("a manual run did not replace the outcome-unknown: %+v", e)
	}
	if e := got["stale"]; e.Status != Stale || e.FailureKind != string(script.ScriptError) {
		t.Fatalf("a manual run's failure did not replace the outcome-unknown kind: %+v", e)
	}
}
