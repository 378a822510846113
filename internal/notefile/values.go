package notefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/markii/markii/internal/oserr"
	"github.com/markii/markii/render/valuefmt"
	"github.com/markii/markii/value"
)

// MaxValuesFile is the largest --values file markii reads.
const MaxValuesFile = 16 << 20

// isEntryKey reports whether k is a key of a stored entry object; an object that has a
// "status" key and no key outside this set is read as an entry rather than
// as a bare value.
func isEntryKey(k string) bool {
	switch k {
	case "value", "status", "failureKind", "error", "ranAt":
		return true
	}
	return false
}

// ReadValues reads a values file (--values): a JSON object mapping each script name
// to either its value, or to an entry {"value": …, "status": …,
// "failureKind": …} as the value store keeps it. A member is an entry
// exactly when it is an object with a "status" key and no keys other than
// value, status, failureKind, error and ranAt; anything else (including an
// object without "status") is a bare value with status fresh. Statuses
// must be fresh, stale, error or missing; failure kinds script-error,
// capability-denied, tier-blocked or limit. Any other shape is an error
// naming the member.
func ReadValues(path string) (value.Values, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errorf("cannot read values file %s: it does not exist", path)
		}
		return nil, errorf("cannot read values file %s: %w", path, oserr.Cause(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxValuesFile+1))
	if err != nil {
		return nil, errorf("cannot read values file %s: %w", path, oserr.Cause(err))
	}
	if len(data) > MaxValuesFile {
		return nil, errorf("values file %s is larger than %d MB; pass a smaller file", path, MaxValuesFile>>20)
	}
	values, err := ParseValues(data)
	if err != nil {
		return nil, errorf("values file %s: %w", path, err)
	}
	return values, nil
}

// ParseValues decodes the body of a values file.
func ParseValues(data []byte) (value.Values, error) {
	if _, err := valuefmt.Decode(data); err != nil {
		return nil, fmt.Errorf("not valid JSON (%w); write a JSON object of name to value", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("the top level is not a JSON object; write an object of name to value")
	}
	values := value.Values{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := kt.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if _, dup := values[name]; dup {
			return nil, fmt.Errorf("%q appears twice; keep one", name)
		}
		entry, err := parseEntry(raw)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", name, err)
		}
		values[name] = entry
	}
	return values, nil
}

// parseEntry reads one member: an entry object or a bare value.
func parseEntry(raw json.RawMessage) (value.Entry, error) {
	var fields map[string]json.RawMessage
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) && json.Unmarshal(raw, &fields) == nil {
		if _, hasStatus := fields["status"]; hasStatus && onlyEntryKeys(fields) {
			return entryFromFields(fields)
		}
	}
	return value.Entry{Value: raw, Status: value.Fresh}, nil
}

func onlyEntryKeys(fields map[string]json.RawMessage) bool {
	for k := range fields {
		if !isEntryKey(k) {
			return false
		}
	}
	return true
}

func entryFromFields(fields map[string]json.RawMessage) (value.Entry, error) {
	var status string
	if err := json.Unmarshal(fields["status"], &status); err != nil {
		return value.Entry{}, errors.New(`"status" must be a string: fresh, stale, error or missing`)
	}
	st := value.Status(status)
	if value.ValidStatus(st) != st {
		return value.Entry{}, fmt.Errorf(`status %q is not fresh, stale, error or missing (to store an object that has a "status" key, wrap it: {"value": …, "status": "fresh"})`, status)
	}
	e := value.Entry{Status: st}
	if v, ok := fields["value"]; ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		e.Value = v
	}
	if k, ok := fields["failureKind"]; ok && !bytes.Equal(bytes.TrimSpace(k), []byte("null")) {
		var kind value.Kind
		if err := json.Unmarshal(k, &kind); err != nil || !kind.IsFailure() {
			return value.Entry{}, errors.New(`"failureKind" must be script-error, capability-denied, tier-blocked, limit, crashed or outcome-unknown`)
		}
		e.FailureKind = kind
	}
	if (st == value.Fresh || st == value.Stale) && e.Value == nil {
		if _, ok := fields["value"]; !ok {
			return value.Entry{}, fmt.Errorf(`status %s needs a "value"`, st)
		}
		e.Value = json.RawMessage("null")
	}
	return e, nil
}
