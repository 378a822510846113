package run

import (
	"time"

	"github.com/markii/markii/runtime/host"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/runtime/values"
)

// Store is the device state a run reads and writes for one note, by the
// note's document key: its grant records, its stored values and its
// script cache.
type Store interface {
	// Grants is where grant records are kept.
	Grants() state.Entries
	// Values returns the values stored for a note.
	Values(doc string) (values.Snapshot, error)
	// RecordValues merges the outcomes of a run at tier into the note's
	// stored values (values.Apply); an over-cap result is refused and what
	// was stored is kept.
	RecordValues(doc string, names []string, outcomes []script.Outcome, ranAt time.Time, tier script.Tier) error
	// Cache returns the note's script cache as of now.
	Cache(doc string, now time.Time) (*host.MemoryCache, error)
	// SaveCache stores what a run put in the note's cache.
	SaveCache(doc string, c *host.MemoryCache) error
}

// DeviceStore is the Store kept in a state directory (state.Open).
type DeviceStore struct {
	State *state.Store
}

var _ Store = DeviceStore{}

// Grants implements Store.
func (d DeviceStore) Grants() state.Entries { return d.State }

// Values implements Store.
func (d DeviceStore) Values(doc string) (values.Snapshot, error) {
	return values.Load(d.State, doc)
}

// RecordValues implements Store.
func (d DeviceStore) RecordValues(doc string, names []string, outcomes []script.Outcome, ranAt time.Time, tier script.Tier) error {
	_, err := values.Record(d.State, doc, names, outcomes, ranAt, tier)
	return err
}

// Cache implements Store.
func (d DeviceStore) Cache(doc string, now time.Time) (*host.MemoryCache, error) {
	return host.LoadCache(d.State, doc, now)
}

// SaveCache implements Store.
func (d DeviceStore) SaveCache(doc string, c *host.MemoryCache) error {
	return host.SaveCache(d.State, doc, c)
}
