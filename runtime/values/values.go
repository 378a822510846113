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

// MaxSnapshotBytes is the largest snapshot persisted. A run whose
// snapshot would be larger is not stored at all (never truncated), and
// what was stored before is kept.
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
// an error entry. A stored outcome-unknown ("the request may have taken
// effect") stays as it is through runs at any tier but manual: only a run
// the user started replaces it, so an unattended run never hides that an
// earlier request may have done something.
func Apply(prev Snapshot, names []string, outcomes []script.Outcome, ranAt time.Time, tier script.Tier) Snapshot {
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
		if old, had := out[o.Name]; had && tier != script.TierManual && old.FailureKind == string(script.OutcomeUnknown) {
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

// Load reads a note's snapshot from the device state as stored (no
// demotion); a missing entry is an empty snapshot.
func Load(st state.Entries, documentKey string) (Snapshot, error) {
	raw, err := st.Get(documentKey, state.SectionValues)
	if err != nil || raw == nil {
		return Snapshot{}, err
	}
	return Decode(raw), nil
}

// Record merges one run's outcomes into the note's stored snapshot (see
// Apply) inside one transaction of st: the snapshot is re-read under the
// lock, so a concurrent run of the same note is merged, not overwritten.
// A merged snapshot over MaxSnapshotBytes is not written
// (*state.OverCapError) and the stored one stays byte-identical.
func Record(st state.Entries, documentKey string, names []string, outcomes []script.Outcome, ranAt time.Time, tier script.Tier) (Snapshot, error) {
	var snap Snapshot
	err := st.Update(documentKey, state.SectionValues, func(cur json.RawMessage) (json.RawMessage, error) {
		prev := Snapshot{}
		if cur != nil {
			prev = Decode(cur)
		}
		snap = Apply(prev, names, outcomes, ranAt, tier)
		return encodeCapped(snap)
	})
	return snap, err
}

// Save replaces a note's stored snapshot with s. A snapshot over
// MaxSnapshotBytes is refused (*state.OverCapError) and what was stored
// stays as it was.
func Save(st state.Entries, documentKey string, s Snapshot) error {
	return st.Update(documentKey, state.SectionValues, func(json.RawMessage) (json.RawMessage, error) {
		return encodeCapped(s)
	})
}

func encodeCapped(s Snapshot) (json.RawMessage, error) {
	if s == nil {
		s = Snapshot{}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxSnapshotBytes {
		return nil, &state.OverCapError{Section: state.SectionValues, Size: len(raw), Limit: MaxSnapshotBytes}
	}
	return raw, nil
}
