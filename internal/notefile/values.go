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
	st, err := parseStatus(fields["status"])
	if err != nil {
		return value.Entry{}, err
	}
	e := value.Entry{Status: st}
	if v, ok := fields["value"]; ok && !isNull(v) {
		e.Value = v
	}
	if e.FailureKind, err = parseFailureKind(fields["failureKind"]); err != nil {
		return value.Entry{}, err
	}
	if (st == value.Fresh || st == value.Stale) && e.Value == nil {
		if _, ok := fields["value"]; !ok {
			return value.Entry{}, fmt.Errorf(`status %s needs a "value"`, st)
		}
		e.Value = json.RawMessage("null")
	}
	return e, nil
}

// parseStatus reads an entry's "status".
func parseStatus(raw json.RawMessage) (value.Status, error) {
	var status string
	if err := json.Unmarshal(raw, &status); err != nil {
		return "", errors.New(`"status" must be a string: fresh, stale, error or missing`)
	}
	st := value.Status(status)
	if value.ValidStatus(st) != st {
		return "", fmt.Errorf(`status %q is not fresh, stale, error or missing (to store an object that has a "status" key, wrap it: {"value": …, "status": "fresh"})`, status)
	}
	return st, nil
}

// parseFailureKind reads an entry's "failureKind"; absent or null is no
// kind.
func parseFailureKind(raw json.RawMessage) (value.Kind, error) {
	var kind value.Kind
	if raw == nil || isNull(raw) {
		return kind, nil
	}
	if err := json.Unmarshal(raw, &kind); err != nil || !kind.IsFailure() {
		return "", errors.New(`"failureKind" must be script-error, capability-denied, tier-blocked, limit, crashed or outcome-unknown`)
	}
	return kind, nil
}

// isNull reports whether raw is JSON null.
func isNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}
