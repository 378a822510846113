package host

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/markii/markii/runtime/state"
)

// MaxCacheSnapshotBytes is the largest cache snapshot of one note. A
// cache.get write that would make it larger is refused; what was stored
// stays as it was.
const MaxCacheSnapshotBytes = 1_000_000

// MemoryCache keeps cache entries for one run: the note's stored entries
// plus this run's writes, which SaveCache merges into the device state.
// Its encoded size never exceeds MaxCacheSnapshotBytes.
type MemoryCache struct {
	mu      sync.Mutex
	entries map[string]cacheEntry
	size    int // the encoded snapshot's length
	changed map[string]bool
}

type cacheEntry struct {
	value json.RawMessage // compact JSON
	at    int64           // Unix milliseconds
	enc   []byte          // `"key":{"value":…,"storedAtMs":…}`
}

// NewMemoryCache returns an empty cache.
func NewMemoryCache() *MemoryCache {
	return &MemoryCache{entries: map[string]cacheEntry{}, size: 2, changed: map[string]bool{}}
}

// DecodeCache reads a persisted snapshot ({key: {value, storedAtMs}}).
// Entries it cannot trust (not an object, a value that is not JSON, a
// timestamp that is not a non-negative whole number of milliseconds or is
// in the future of now) are skipped; the rest survive. It never fails.
func DecodeCache(raw json.RawMessage, now time.Time) *MemoryCache {
	c := NewMemoryCache()
	for k, e := range decodeEntries(raw) {
		if time.UnixMilli(e.at).After(now) {
			continue
		}
		c.set(k, e)
	}
	return c
}

// decodeEntries returns the well-formed entries of a stored snapshot.
func decodeEntries(raw json.RawMessage) map[string]cacheEntry {
	out := map[string]cacheEntry{}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return out
	}
	for k, v := range obj {
		var e struct {
			Value      json.RawMessage `json:"value"`
			StoredAtMs json.RawMessage `json:"storedAtMs"`
		}
		if json.Unmarshal(v, &e) != nil || len(e.Value) == 0 {
			continue
		}
		var compact bytes.Buffer
		if json.Compact(&compact, e.Value) != nil {
			continue
		}
		at, ok := millis(e.StoredAtMs)
		if !ok {
			continue
		}
		out[k] = newEntry(k, compact.Bytes(), at)
	}
	return out
}

func newEntry(key string, value json.RawMessage, at int64) cacheEntry {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(key)
	name := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	out := make([]byte, 0, len(name)+len(value)+40)
	out = append(out, name...)
	out = append(out, `:{"value":`...)
	out = append(out, value...)
	out = append(out, `,"storedAtMs":`...)
	out = strconv.AppendInt(out, at, 10)
	out = append(out, '}')
	return cacheEntry{value: value, at: at, enc: out}
}

func millis(n json.RawMessage) (int64, bool) {
	if !strings.ContainsAny(string(n[:min(len(n), 1)]), "0123456789") {
		return 0, false
	}
	var f float64
	if err := json.Unmarshal(n, &f); err != nil || f < 0 || f != math.Trunc(f) || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// sizeWith is the snapshot's length with e stored under key.
func (c *MemoryCache) sizeWith(key string, e cacheEntry) int {
	size := c.size
	old, had := c.entries[key]
	if had {
		size -= len(old.enc)
	} else if len(c.entries) > 0 {
		size++ // the comma before it
	}
	return size + len(e.enc)
}

func (c *MemoryCache) set(key string, e cacheEntry) {
	c.size = c.sizeWith(key, e)
	c.entries[key] = e
}

// Get implements Cache.
func (c *MemoryCache) Get(key string) (json.RawMessage, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, time.Time{}, false
	}
	return append(json.RawMessage(nil), e.value...), time.UnixMilli(e.at), true
}

// Put implements Cache. A write that would take the snapshot over
// MaxCacheSnapshotBytes is refused with a *state.OverCapError and changes
// nothing.
func (c *MemoryCache) Put(key string, value json.RawMessage, at time.Time) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, value); err != nil {
		return err
	}
	e := newEntry(key, compact.Bytes(), max(at.UnixMilli(), 0))
	c.mu.Lock()
	defer c.mu.Unlock()
	if size := c.sizeWith(key, e); size > MaxCacheSnapshotBytes {
		return &state.OverCapError{Section: state.SectionCache, Size: size, Limit: MaxCacheSnapshotBytes}
	}
	c.set(key, e)
	c.changed[key] = true
	return nil
}

// Changed reports whether a Put was stored.
func (c *MemoryCache) Changed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.changed) > 0
}

// encode writes entries as a snapshot with sorted keys.
func encode(entries map[string]cacheEntry) json.RawMessage {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(entries[k].enc)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// LoadCache reads a note's persisted cache from the device state; a
// missing entry is an empty cache.
func LoadCache(st state.Entries, documentKey string, now time.Time) (*MemoryCache, error) {
	raw, err := st.Get(documentKey, state.SectionCache)
	if err != nil || raw == nil {
		return NewMemoryCache(), err
	}
	return DecodeCache(raw, now), nil
}

// SaveCache merges this run's cache writes into the note's stored cache
// inside one transaction of st: entries another process stored meanwhile
// survive. A merged snapshot over MaxCacheSnapshotBytes is not written
// (*state.OverCapError) and the stored one stays byte-identical.
func SaveCache(st state.Entries, documentKey string, c *MemoryCache) error {
	c.mu.Lock()
	changed := map[string]cacheEntry{}
	for k := range c.changed {
		changed[k] = c.entries[k]
	}
	c.mu.Unlock()
	if len(changed) == 0 {
		return nil
	}
	return st.Update(documentKey, state.SectionCache, func(cur json.RawMessage) (json.RawMessage, error) {
		merged := NewMemoryCache()
		for k, e := range decodeEntries(cur) {
			merged.set(k, e)
		}
		for k, e := range changed {
			merged.set(k, e)
		}
		if merged.size > MaxCacheSnapshotBytes {
			return nil, &state.OverCapError{Section: state.SectionCache, Size: merged.size, Limit: MaxCacheSnapshotBytes}
		}
		return encode(merged.entries), nil
	})
}
