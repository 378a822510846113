// Package values is the value store of a note's scripts: what each script
// name last produced and whether that value is fresh (from this run), stale
// (kept from an earlier run) or an error. A failed run never wipes a good
// value: it keeps it, marked stale. Failure text is never stored; only the
// failure kind is.
package values

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
)

// Status is the state of one stored value.
type Status string

// The stored statuses. Missing is never stored: it is the absence of an
// entry.
const (
	Fresh Status = "fresh"
	Stale Status = "stale"
	Error Status = "error"
)

// MaxSnapshotBytes is the largest snapshot persisted; a larger one is
// dropped whole, never truncated.
const MaxSnapshotBytes = 1_000_000

// Entry is one name's stored outcome.
type Entry struct {
	// Value is the JSON value; empty when there is none.
	Value json.RawMessage `json:"value,omitempty"`
	// Status is fresh, stale or error.
	Status Status `json:"status"`
	// FailureKind is the outcome kind of the last failed run of this name
	// (script-error, capability-denied, tier-blocked, limit, crashed).
	FailureKind string `json:"failureKind,omitempty"`
	// RanAt is when the value's run happened, in Unix milliseconds.
	RanAt int64 `json:"ranAt,omitempty"`
}

// Snapshot maps a script name to its entry. Every name, including
// `__proto__`, is an ordinary key.
type Snapshot map[string]Entry

// Decode reads a persisted snapshot. Entries it cannot understand (not an
// object, an unknown status, a value that is not JSON) are skipped; the rest
// survive. It never fails.
func Decode(raw json.RawMessage) Snapshot {
	out := Snapshot{}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return out
	}
	for name, v := range obj {
		var e Entry
		if json.Unmarshal(v, &e) != nil {
			continue
		}
		switch e.Status {
		case Fresh, Stale:
			if len(e.Value) == 0 {
				continue
			}
		case Error:
			e.Value = nil
		default:
			continue
		}
		out[name] = e
	}
	return out
}

// Encode serializes s with sorted names. ok is false when the JSON would be
// over MaxSnapshotBytes: the caller then drops the snapshot whole.
func Encode(s Snapshot) (raw json.RawMessage, ok bool) {
	if s == nil {
		s = Snapshot{}
	}
	raw, err := json.Marshal(s)
	if err != nil || len(raw) > MaxSnapshotBytes {
		return nil, false
	}
	return raw, true
}

// Demote returns a copy of s as a reopened note sees it: fresh values become
// stale.
func (s Snapshot) Demote() Snapshot {
	out := make(Snapshot, len(s))
	for k, e := range s {
		if e.Status == Fresh {
			e.Status = Stale
		}
		out[k] = e
	}
	return out
}

// Apply merges one run's outcomes (in document order) into the previous
// snapshot prev and returns the new snapshot. names are the script names
// the note has now; entries for any other name are dropped. Among
// duplicate names the last outcome wins. A failure keeps the best value the
// name had (earlier in this run or from prev) as stale; without one it is
// an error entry.
func Apply(prev Snapshot, names []string, outcomes []script.Outcome, ranAt time.Time) Snapshot {
	inNote := map[string]bool{}
	for _, n := range names {
		inNote[n] = true
	}
	out := Snapshot{}
	for k, e := range prev {
		if inNote[k] {
			out[k] = e
		}
	}
	ms := ranAt.UnixMilli()
	for _, o := range outcomes {
		if !inNote[o.Name] {
			continue
		}
		if o.Kind == script.Ok {
			v := o.Value
			if len(bytes.TrimSpace(v)) == 0 {
				v = json.RawMessage("null")
			}
			out[o.Name] = Entry{Value: append(json.RawMessage(nil), v...), Status: Fresh, RanAt: ms}
			continue
		}
		old, had := out[o.Name]
		if had && len(old.Value) > 0 && (old.Status == Fresh || old.Status == Stale) {
			old.Status = Stale
			old.FailureKind = string(o.Kind)
			out[o.Name] = old
			continue
		}
		out[o.Name] = Entry{Status: Error, FailureKind: string(o.Kind), RanAt: ms}
	}
	return out
}

// StateKey is the device-state key of a note's value snapshot.
func StateKey(documentKey string) string { return state.KeyRunValuesPrefix + documentKey }

// Load reads a note's snapshot from the device state as stored (no
// demotion); a missing or unreadable entry is an empty snapshot.
func Load(st *state.Store, documentKey string) Snapshot {
	raw, ok := st.GetRaw(StateKey(documentKey))
	if !ok {
		return Snapshot{}
	}
	return Decode(raw)
}

// Save persists a note's snapshot. A snapshot over MaxSnapshotBytes is
// dropped whole: the stored entry is removed.
func Save(st *state.Store, documentKey string, s Snapshot) error {
	raw, ok := Encode(s)
	if !ok {
		return st.Delete(StateKey(documentKey))
	}
	return st.SetRaw(StateKey(documentKey), raw)
}
