package host

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/markii/markii/runtime/state"
)

// MaxCacheSnapshotBytes is the largest persisted cache snapshot; a larger
// one is dropped whole, never truncated.
const MaxCacheSnapshotBytes = 1_000_000

// MemoryCache keeps cache entries for one run. Its Snapshot can be
// persisted by the caller.
type MemoryCache struct {
	mu      sync.Mutex
	entries map[string]cacheEntry
	changed bool
}

type cacheEntry struct {
	Value      json.RawMessage `json:"value"`
	StoredAtMs json.RawMessage `json:"storedAtMs"`
}

// NewMemoryCache returns an empty cache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{entries: map[string]cacheEntry{}} }

// DecodeCache reads a persisted snapshot ({key: {value, storedAtMs}}).
// Entries it cannot trust (not an object, a value that is not JSON, a
// timestamp that is not a non-negative whole number of milliseconds or is
// in the future of now) are skipped; the rest survive. It never fails.
func DecodeCache(raw json.RawMessage, now time.Time) *MemoryCache {
	c := NewMemoryCache()
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return c
	}
	for k, v := range obj {
		var e cacheEntry
		if json.Unmarshal(v, &e) != nil || len(e.Value) == 0 || !json.Valid(e.Value) {
			continue
		}
		at, ok := millis(e.StoredAtMs)
		if !ok || at.After(now) {
			continue
		}
		c.entries[k] = e
	}
	return c
}

func millis(n json.RawMessage) (time.Time, bool) {
	if !strings.ContainsAny(string(n[:min(len(n), 1)]), "0123456789") {
		return time.Time{}, false
	}
	var f float64
	if err := json.Unmarshal(n, &f); err != nil || f < 0 || f != math.Trunc(f) || f > 1<<53 {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(f)), true
}

// Get implements Cache.
func (c *MemoryCache) Get(key string) (json.RawMessage, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, time.Time{}, false
	}
	at, ok := millis(e.StoredAtMs)
	if !ok {
		return nil, time.Time{}, false
	}
	return append(json.RawMessage(nil), e.Value...), at, true
}

// Put implements Cache.
func (c *MemoryCache) Put(key string, value json.RawMessage, at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = cacheEntry{Value: append(json.RawMessage(nil), value...), StoredAtMs: json.RawMessage(strconv.FormatInt(max(at.UnixMilli(), 0), 10))}
	c.changed = true
	return nil
}

// Changed reports whether Put was called.
func (c *MemoryCache) Changed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// Snapshot encodes the cache with sorted keys. ok is false when it would be
// over MaxCacheSnapshotBytes; the caller then drops the stored snapshot.
func (c *MemoryCache) Snapshot() (raw json.RawMessage, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.entries))
	for k := range c.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := make(map[string]cacheEntry, len(keys))
	for _, k := range keys {
		m[k] = c.entries[k]
	}
	raw, err := json.Marshal(m)
	if err != nil || len(raw) > MaxCacheSnapshotBytes {
		return nil, false
	}
	return raw, true
}

// CacheStateKey is the device-state key of a note's cache snapshot.
func CacheStateKey(documentKey string) string { return state.KeyRunCachePrefix + documentKey }

// LoadCache reads a note's persisted cache from the device state.
func LoadCache(st *state.Store, documentKey string, now time.Time) *MemoryCache {
	raw, ok := st.GetRaw(CacheStateKey(documentKey))
	if !ok {
		return NewMemoryCache()
	}
	return DecodeCache(raw, now)
}

// SaveCache persists a note's cache when it changed; a snapshot over
// MaxCacheSnapshotBytes is dropped whole.
func SaveCache(st *state.Store, documentKey string, c *MemoryCache) error {
	if !c.Changed() {
		return nil
	}
	raw, ok := c.Snapshot()
	if !ok {
		return st.Delete(CacheStateKey(documentKey))
	}
	return st.SetRaw(CacheStateKey(documentKey), raw)
}
