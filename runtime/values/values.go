// Package values is the value store of a note's scripts: what each script
// name last produced and whether that value is fresh (from this run), stale
// (kept from an earlier run) or an error. A failed run never wipes a good
// value: it keeps it, marked stale. Failure text is never stored; only the
// failure kind is.
package values

import (
	"encoding/json"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/value"
)

// MaxSnapshotBytes is the largest snapshot persisted. A run whose
// snapshot would be larger is not stored at all (never truncated), and
// what was stored before is kept.
const MaxSnapshotBytes = 1_000_000

// Snapshot maps a script name to its entry. Every name, including
// `__proto__`, is an ordinary key.
type Snapshot map[string]value.Entry

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
		var e value.Entry
		if json.Unmarshal(v, &e) != nil {
			continue
		}
		switch e.Status {
		case value.Fresh, value.Stale:
			if len(e.Value) == 0 {
				continue
			}
		case value.Error:
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
		if e.Status == value.Fresh {
			e.Status = value.Stale
		}
		out[k] = e
	}
	return out
}

// Apply merges one run's outcomes (in document order) into the previous
// snapshot prev and returns the new snapshot. names are the script names
// the note has now; entries for any other name are dropped. Among
// duplicate names the last outcome wins. Each outcome is merged with
// value.Merge, the one rule for a stored value: a failure keeps the best
// value the name had (earlier in this run or from prev) as stale, and a
// stored outcome-unknown is replaced only by a manual run.
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
	manual := tier == script.TierManual
	for _, o := range outcomes {
		if inNote[o.Name] {
			out[o.Name] = value.Merge(out[o.Name], o.Kind, o.Value, ms, manual)
		}
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
