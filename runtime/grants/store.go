package grants

import (
	"encoding/json"
	"errors"
	"sort"
	"sync"
)

// StateKey is the device-state key that holds every note's grant.
const StateKey = "markii.netGrants"

// State is the device state file the grants live in; *state.Store
// satisfies it.
type State interface {
	GetRaw(key string) (json.RawMessage, bool)
	SetRaw(key string, raw json.RawMessage) error
}

// Bundle file grants a record may hold.
const (
	BundleRead       = "read"
	BundleWriteCache = "write:.cache/"
	legacyWriteCache = "write:cache/"
)

// Record is one note's stored grant: the closure key it was made for, the
// hosts allowed, and the bundle file grants allowed.
type Record struct {
	Key                 string   `json:"key"`
	AllowedHosts        []string `json:"allowedHosts"`
	AllowedBundleGrants []string `json:"allowedBundleGrants,omitempty"`
}

// Store reads and writes grants in the device state. Every read
// re-validates each record with today's rules; a record that fails in any
// part is ignored whole (never a partial grant), and content that is not
// understood reads as no grants at all. It never panics.
type Store struct {
	st State
}

// NewStore returns a Store over st.
func NewStore(st State) *Store { return &Store{st: st} }

// Lookup returns the valid record stored for the document key.
func (s *Store) Lookup(docKey string) (Record, bool) {
	all, _ := s.All()
	r, ok := all[docKey]
	return r, ok
}

// All returns every valid record by document key, and how many stored
// records were ignored as invalid.
func (s *Store) All() (map[string]Record, int) {
	out := map[string]Record{}
	raw := s.entries()
	invalid := 0
	for doc, v := range raw {
		r, ok := parseRecord(v)
		if !ok {
			invalid++
			continue
		}
		out[doc] = r
	}
	return out, invalid
}

// entries returns the raw per-document values, or an empty map when the
// stored value is not a JSON object.
func (s *Store) entries() map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	raw, ok := s.st.GetRaw(StateKey)
	if !ok {
		return m
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return m
	}
	return obj
}

// parseRecord validates one stored record.
func parseRecord(raw json.RawMessage) (Record, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return Record{}, false
	}
	var r Record
	if json.Unmarshal(fields["key"], &r.Key) != nil || !validKey(r.Key) {
		return Record{}, false
	}
	hostsRaw, ok := fields["allowedHosts"]
	if !ok || json.Unmarshal(hostsRaw, &r.AllowedHosts) != nil || r.AllowedHosts == nil {
		return Record{}, false
	}
	for _, h := range r.AllowedHosts {
		if !Presentable(h) {
			return Record{}, false
		}
	}
	if bg, ok := fields["allowedBundleGrants"]; ok && string(bg) != "null" {
		var list []string
		if json.Unmarshal(bg, &list) != nil {
			return Record{}, false
		}
		norm, ok := normalizeBundleGrants(list)
		if !ok {
			return Record{}, false
		}
		r.AllowedBundleGrants = norm
	}
	if len(r.AllowedHosts) == 0 && len(r.AllowedBundleGrants) == 0 {
		return Record{}, false
	}
	r.AllowedHosts = uniqueSorted(r.AllowedHosts)
	return r, true
}

func validKey(k string) bool {
	if len(k) != 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// normalizeBundleGrants accepts only the known bundle grants (the legacy
// write spelling is rewritten).
func normalizeBundleGrants(list []string) ([]string, bool) {
	var out []string
	for _, g := range list {
		switch g {
		case BundleRead, BundleWriteCache:
		case legacyWriteCache:
			g = BundleWriteCache
		default:
			return nil, false
		}
		out = append(out, g)
	}
	return uniqueSorted(out), true
}

func uniqueSorted(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Put stores r for the document key, replacing any earlier record. A
// record that would not pass the read-time checks is refused.
func (s *Store) Put(docKey string, r Record) error {
	r.AllowedHosts = uniqueSorted(r.AllowedHosts)
	if r.AllowedHosts == nil {
		r.AllowedHosts = []string{}
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, ok := parseRecord(raw); !ok {
		return errors.New("the grant is not valid and was not stored")
	}
	m := s.entries()
	m[docKey] = raw
	return s.write(m)
}

// Reset deletes the document's record. It reports whether one existed.
func (s *Store) Reset(docKey string) (bool, error) {
	m := s.entries()
	if _, ok := m[docKey]; !ok {
		return false, nil
	}
	delete(m, docKey)
	return true, s.write(m)
}

// ResetAll deletes every record and reports how many there were.
func (s *Store) ResetAll() (int, error) {
	m := s.entries()
	if _, ok := s.st.GetRaw(StateKey); !ok {
		return 0, nil
	}
	return len(m), s.write(map[string]json.RawMessage{})
}

func (s *Store) write(m map[string]json.RawMessage) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.st.SetRaw(StateKey, raw)
}

// MemoryState is a State kept in memory: for a note with no identity (read
// from stdin), whose answers last for one run.
type MemoryState struct {
	mu sync.Mutex
	m  map[string]json.RawMessage
}

// GetRaw implements State.
func (s *MemoryState) GetRaw(key string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return append(json.RawMessage(nil), v...), ok
}

// SetRaw implements State.
func (s *MemoryState) SetRaw(key string, raw json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]json.RawMessage{}
	}
	s.m[key] = append(json.RawMessage(nil), raw...)
	return nil
}
