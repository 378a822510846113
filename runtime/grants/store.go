package grants

import (
	"encoding/json"
	"errors"
	"sort"

	"github.com/markii/markii/runtime/state"
)

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

// Store reads and writes grants in the device state, one record per note.
// Every read re-validates each record with today's rules; a record that
// fails in any part is ignored whole (never a partial grant). It never
// panics.
type Store struct {
	st state.Entries
}

// NewStore returns a Store over st.
func NewStore(st state.Entries) *Store { return &Store{st: st} }

// Lookup returns the valid record stored for the document key. An error
// means the device state could not be read (not that there is no grant).
func (s *Store) Lookup(docKey string) (Record, bool, error) {
	raw, err := s.st.Get(docKey, state.SectionGrant)
	if err != nil || raw == nil {
		return Record{}, false, err
	}
	r, ok := parseRecord(raw)
	return r, ok, nil
}

// All returns every valid record by document key, and how many stored
// records were ignored as invalid.
func (s *Store) All() (map[string]Record, int, error) {
	raw, err := s.st.List(state.SectionGrant)
	if err != nil {
		return nil, 0, err
	}
	out := map[string]Record{}
	invalid := 0
	for doc, v := range raw {
		r, ok := parseRecord(v)
		if !ok {
			invalid++
			continue
		}
		out[doc] = r
	}
	return out, invalid, nil
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
	var ok bool
	if r.AllowedHosts, ok = recordHosts(fields["allowedHosts"]); !ok {
		return Record{}, false
	}
	if r.AllowedBundleGrants, ok = recordBundleGrants(fields["allowedBundleGrants"]); !ok {
		return Record{}, false
	}
	if len(r.AllowedHosts) == 0 && len(r.AllowedBundleGrants) == 0 {
		return Record{}, false
	}
	r.AllowedHosts = uniqueSorted(r.AllowedHosts)
	return r, true
}

// recordHosts reads a record's allowedHosts: a list, every host one a
// question can name. A missing key or null is not a record.
func recordHosts(raw json.RawMessage) ([]string, bool) {
	var hosts []string
	if raw == nil || json.Unmarshal(raw, &hosts) != nil || hosts == nil {
		return nil, false
	}
	for _, h := range hosts {
		if !Presentable(h) {
			return nil, false
		}
	}
	return hosts, true
}

// recordBundleGrants reads a record's allowedBundleGrants, normalized;
// missing or null is none.
func recordBundleGrants(raw json.RawMessage) ([]string, bool) {
	if raw == nil || string(raw) == "null" {
		return nil, true
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	return normalizeBundleGrants(list)
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
	return s.st.Update(docKey, state.SectionGrant, func(json.RawMessage) (json.RawMessage, error) {
		return raw, nil
	})
}

// Reset deletes the document's record. It reports whether one existed.
func (s *Store) Reset(docKey string) (bool, error) {
	found := false
	err := s.st.Update(docKey, state.SectionGrant, func(cur json.RawMessage) (json.RawMessage, error) {
		found = cur != nil
		return nil, nil
	})
	return found && err == nil, err
}

// ResetAll deletes every record and reports how many there were.
func (s *Store) ResetAll() (int, error) {
	n := 0
	err := s.st.UpdateAll(state.SectionGrant, func(string, json.RawMessage) (json.RawMessage, error) {
		n++
		return nil, nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
