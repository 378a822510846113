package render

import (
	"strconv"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/valuefmt"
	"github.com/markii/markii/value"
)

// Failure returns the style of a failure kind's marker: danger for script
// errors, denials and crashes, warning for tier-blocked and for an unknown
// outcome (the request may have taken effect), limit (violet) for limits,
// and the dim style for anything else.
func (s Styles) Failure(kind value.Kind) ansi.Style {
	switch kind {
	case value.ScriptError, value.CapabilityDenied, value.Crashed:
		return s.Danger
	case value.TierBlocked, value.OutcomeUnknown:
		return s.Warning
	case value.LimitExceeded:
		return s.Limit
	}
	return s.Dim
}

// Resolved is the outcome of reading a value path.
type Resolved struct {
	// Value is the value at the path as valuefmt.Decode produces it (nil,
	// bool, float64, string, []any or valuefmt.Object); nil unless Status
	// is value.Fresh or value.Stale.
	Value any
	// Status is the path's status: the root entry's when the path
	// resolves, value.Missing when the root is absent, malformed or the path
	// breaks part way.
	Status value.Status
	// FailureKind is the root entry's failure kind (value.Kind.AsFailure),
	// carried even when the path breaks part way.
	FailureKind value.Kind
}

// HasValue reports whether r carries a usable value (fresh or stale).
func (r Resolved) HasValue() bool { return r.Status == value.Fresh || r.Status == value.Stale }

// Suffix is the quiet state marker a data-bound component appends: "
// (stale)", " (<failure phrase>)" for an error, or "" otherwise.
func (r Resolved) Suffix() string {
	switch r.Status {
	case value.Stale:
		if r.FailureKind == value.Offline {
			// The last run could not reach the network: the value is the
			// one from before, and the reader should know why.
			return " (stale, offline)"
		}
		return " (stale)"
	case value.Error:
		return " (" + r.FailureKind.Phrase() + ")"
	}
	return ""
}

// SuffixStyle is the style of Suffix: the failure color for an error,
// else dim.
func (r Resolved) SuffixStyle(s Styles) ansi.Style {
	if r.Status == value.Error {
		return s.Failure(r.FailureKind)
	}
	return s.Dim
}

// decodedEntry is a store entry with its JSON decoded once.
type decodedEntry struct {
	value       any
	status      value.Status
	failureKind value.Kind
}

// ValueReader resolves value paths against a value.Values store, decoding each
// entry's JSON at most once. It is not safe for concurrent use; a layout
// makes its own.
type ValueReader struct {
	values  value.Values
	decoded map[string]decodedEntry
}

// NewValueReader returns a reader over values (nil means no values).
func NewValueReader(values value.Values) *ValueReader {
	return &ValueReader{values: values}
}

// root returns the decoded entry of a store name; ok is false when the
// name is absent.
func (r *ValueReader) root(name string) (decodedEntry, bool) {
	if e, ok := r.decoded[name]; ok {
		return e, true
	}
	raw, ok := r.values[name]
	if !ok {
		return decodedEntry{}, false
	}
	e := decodedEntry{status: value.ValidStatus(raw.Status), failureKind: raw.FailureKind.AsFailure()}
	switch e.status {
	case value.Fresh, value.Stale:
		if len(raw.Value) == 0 {
			e.value = nil
			break
		}
		v, err := valuefmt.Decode(raw.Value)
		if err != nil {
			// A malformed entry reads as missing.
			e.status = value.Missing
			break
		}
		e.value = v
	}
	if r.decoded == nil {
		r.decoded = map[string]decodedEntry{}
	}
	r.decoded[name] = e
	return e, true
}

// Resolve reads a dotted value path: the first segment names a store
// entry, every later segment is an own key of an object or an index of an
// array ("list.0"; "length" gives an array's length). A path starting
// with "@" reads the vault, which markii does not have, so it is always
// missing.
func (r *ValueReader) Resolve(path string) Resolved {
	if path == "" || strings.HasPrefix(path, "@") {
		return Resolved{Status: value.Missing}
	}
	name, rest, more := strings.Cut(path, ".")
	e, ok := r.root(name)
	if !ok {
		return Resolved{Status: value.Missing}
	}
	if e.status != value.Fresh && e.status != value.Stale {
		if more {
			return Resolved{Status: value.Missing, FailureKind: e.failureKind}
		}
		return Resolved{Status: e.status, FailureKind: e.failureKind}
	}
	cur := e.value
	for more {
		var key string
		key, rest, more = strings.Cut(rest, ".")
		next, ok := ownKey(cur, key)
		if !ok {
			return Resolved{Status: value.Missing, FailureKind: e.failureKind}
		}
		cur = next
	}
	return Resolved{Value: cur, Status: e.status, FailureKind: e.failureKind}
}

// ownKey looks key up as an own property of v.
func ownKey(v any, key string) (any, bool) {
	switch t := v.(type) {
	case valuefmt.Object:
		return t.Get(key)
	case []any:
		return arrayKey(t, key)
	}
	return nil, false
}

// arrayKey looks key up as an own property of array a: its length, or an
// element by its index.
func arrayKey(a []any, key string) (any, bool) {
	if key == "length" {
		return float64(len(a)), true
	}
	i, ok := arrayIndex(key)
	if !ok || i >= len(a) {
		return nil, false
	}
	return a[i], true
}

// arrayIndex reads key as an array index written without a sign or a
// leading zero.
func arrayIndex(key string) (int, bool) {
	if key == "" || (len(key) > 1 && key[0] == '0') || key[0] == '+' {
		return 0, false
	}
	i, err := strconv.Atoi(key)
	return i, err == nil && i >= 0
}
