// Package value is a script's stored value and how a run ends: the
// outcome Kind, the value's Status, the stored Entry, and Merge, the one
// rule that turns a run's outcome into the entry a name keeps. It sits
// below both render, which draws values, and runtime, which produces and
// stores them, so that neither reaches into the other for these facts.
// It has no dependencies beyond the standard library.
package value

import (
	"bytes"
	"encoding/json"
)

// Kind is how a script's run ended, decided by the host from its own
// records.
type Kind string

// Outcome kinds. Ok, ScriptError, CapabilityDenied, TierBlocked and Limit
// are the Markii format's failure kinds; Crashed is markii's for a worker
// that died for a reason the host could not attribute to a limit.
const (
	Ok               Kind = "ok"
	ScriptError      Kind = "script-error"
	CapabilityDenied Kind = "capability-denied"
	TierBlocked      Kind = "tier-blocked"
	LimitExceeded    Kind = "limit"
	Crashed          Kind = "crashed"
	// OutcomeUnknown is markii's kind for an effectful request (POST,
	// PATCH) that was sent but whose answer was lost to a timeout or a
	// dropped connection: it may or may not have taken effect.
	OutcomeUnknown Kind = "outcome-unknown"
	// Offline is markii's kind for a network request that never reached
	// its server (the name did not resolve, the connection was refused,
	// timed out or reset, TLS failed), by the host's own record: nothing
	// was sent, and the note is not at fault.
	Offline Kind = "offline"
)

// IsFailure reports whether k is one of the kinds a failed run ends with.
func (k Kind) IsFailure() bool {
	switch k {
	case ScriptError, CapabilityDenied, TierBlocked, LimitExceeded, Crashed, OutcomeUnknown, Offline:
		return true
	}
	return false
}

// AsFailure maps a stored failure kind onto the closed set: a failure
// kind as is, "" for none, and ScriptError for anything else.
func (k Kind) AsFailure() Kind {
	if k == "" || k.IsFailure() {
		return k
	}
	return ScriptError
}

// UnknownOutcomePhrase is how every part of markii shows an
// OutcomeUnknown: the user must not take it for a failure to retry.
const UnknownOutcomePhrase = "outcome unknown: the request may have taken effect"

// Phrase is the words shown for a kind: "ok", "script error", "needs
// permission", "requires manual run", "limit exceeded", "crashed",
// UnknownOutcomePhrase, "offline", and "error" for anything else. It is display text,
// for the edge that shows an outcome; no layer reads it back.
func (k Kind) Phrase() string {
	switch k {
	case Ok:
		return "ok"
	case ScriptError:
		return "script error"
	case CapabilityDenied:
		return "needs permission"
	case TierBlocked:
		return "requires manual run"
	case LimitExceeded:
		return "limit exceeded"
	case Crashed:
		return "crashed"
	case OutcomeUnknown:
		return UnknownOutcomePhrase
	case Offline:
		return "offline"
	}
	return "error"
}

// Status is the state of a value a note reads.
type Status string

// The four value statuses of the Markii format. Missing is never stored:
// it is the absence of an entry.
const (
	Fresh   Status = "fresh"
	Stale   Status = "stale"
	Error   Status = "error"
	Missing Status = "missing"
)

// ValidStatus returns st when it is one of the four statuses, else
// Missing.
func ValidStatus(st Status) Status {
	switch st {
	case Fresh, Stale, Error, Missing:
		return st
	}
	return Missing
}

// Entry is one script name's stored value: what the device keeps, what a
// --values file gives, and what the renderer reads.
type Entry struct {
	// Value is the script's JSON value; empty when there is none.
	Value json.RawMessage `json:"value,omitempty"`
	// Status is fresh, stale or error; anything else reads as missing.
	Status Status `json:"status"`
	// FailureKind is how the last failed run of this name ended (one of
	// the failure kinds; a reader takes any other kind as ScriptError, see
	// Kind.AsFailure).
	FailureKind Kind `json:"failureKind,omitempty"`
	// RanAt is when the value's run happened, in Unix milliseconds.
	RanAt int64 `json:"ranAt,omitempty"`
}

// HasValue reports whether e carries a usable value: fresh or stale, with
// a value.
func (e Entry) HasValue() bool {
	return len(e.Value) > 0 && (e.Status == Fresh || e.Status == Stale)
}

// Values maps a script name to its stored entry. Every name, including
// `__proto__`, is an ordinary key.
type Values map[string]Entry

// Merge is the one rule for a stored value: the entry a script name has
// after a run of its script ended with kind (and, when Ok, the JSON value
// v), given the entry prev it had before (the zero Entry when it had
// none). ranAt is when the run happened, in Unix milliseconds; manual is
// whether the user started the run.
//
//   - Ok: a fresh entry with v (an empty v is JSON null).
//   - A failure keeps prev's value, marked stale, with the failure's kind;
//     without a value to keep it is an error entry.
//   - A stored OutcomeUnknown ("the request may have taken effect") stays
//     as it is through any run but a manual one, so an unattended run never
//     hides that an earlier request may have done something.
//
// The store (the run service), `render --run` and the viewer all merge
// with it, so a value reads the same everywhere.
func Merge(prev Entry, kind Kind, v json.RawMessage, ranAt int64, manual bool) Entry {
	if !manual && prev.FailureKind == OutcomeUnknown {
		return prev
	}
	if kind == Ok {
		if len(bytes.TrimSpace(v)) == 0 {
			v = json.RawMessage("null")
		}
		return Entry{Value: append(json.RawMessage(nil), v...), Status: Fresh, RanAt: ranAt}
	}
	if prev.HasValue() {
		prev.Status = Stale
		prev.FailureKind = kind
		return prev
	}
	return Entry{Status: Error, FailureKind: kind, RanAt: ranAt}
}
