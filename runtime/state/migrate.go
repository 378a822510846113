package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/markii/markii/internal/oserr"
	"github.com/markii/markii/runtime/internal/safefile"
)

// MaxLegacyBytes is the largest earlier-version state file migrated; a
// larger one is moved aside and reported.
const MaxLegacyBytes = 64 << 20

// UnmigratedFileName holds, verbatim, the top-level keys of an earlier
// state file that name no note entry markii knows.
const UnmigratedFileName = "unmigrated.json"

// The top-level keys of the earlier single-file state (SPEC §6.7).
const (
	legacyNetGrants       = "markii.netGrants"
	legacyRunValuesPrefix = "markii.runValues:"
	legacyRunCachePrefix  = "markii.runCache:"
	legacyLastRunPrefix   = "markii.lastRun:"
)

// migrate moves the legacy file's contents into DIR/notes: every entry is
// written into a fresh directory beside it, synced, and that directory is
// renamed to notes in one step; only then is the legacy file removed. A
// crash at any point leaves either the old file or the complete new store
// (or both), never half of one. Called with s.mu held.
func (s *Store) migrate() error {
	legacy := s.opts.Legacy
	l, _, err := s.lock()
	if err != nil {
		return s.migrateError(err)
	}
	defer l.release()
	if _, err := os.Lstat(s.notes()); !errors.Is(err, fs.ErrNotExist) {
		return nil // another process migrated first
	}
	top, err := s.readLegacy()
	if err != nil || top == nil {
		return err
	}
	if err := s.install(top); err != nil {
		return err
	}
	if err := syncDir(s.dir); err != nil {
		return s.migrateError(err)
	}
	if err := os.Remove(legacy); err != nil {
		return fmt.Errorf("the state in %s was copied to %s but the old file could not be removed: %w", legacy, s.dir, oserr.Cause(err))
	}
	_ = syncDir(filepath.Dir(legacy))
	return nil
}

// install writes the legacy contents top into a fresh directory beside
// the store and renames it to notes in one step.
func (s *Store) install(top map[string]json.RawMessage) error {
	staging, err := os.MkdirTemp(s.dir, ".notes-migrating-*")
	if err != nil {
		return s.migrateError(oserr.Cause(err))
	}
	defer os.RemoveAll(staging) // gone after the rename; cleans up a failure
	unknown, err := stageLegacy(staging, top)
	if err == nil {
		err = s.keepUnmigrated(unknown)
	}
	if err != nil {
		return s.migrateError(err)
	}
	if err := os.Rename(staging, s.notes()); err != nil {
		return s.migrateError(oserr.Cause(err))
	}
	return nil
}

// migrateError says that the legacy state could not be moved, and why.
func (s *Store) migrateError(err error) error {
	return fmt.Errorf("the state in %s could not be moved to %s: %w", s.opts.Legacy, s.dir, err)
}

// readLegacy reads the legacy file's top-level object. It returns nil
// and no error when there is nothing to move: no file, or one set aside
// as too large or not a JSON object.
func (s *Store) readLegacy() (map[string]json.RawMessage, error) {
	legacy := s.opts.Legacy
	raw, err := safefile.ReadFile(legacy, MaxLegacyBytes, safefile.Options{NoFollow: true, OwnedByMe: true})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var se *safefile.Error
	if errors.As(err, &se) && se.Problem == safefile.TooLarge {
		s.setAside(legacy, fmt.Sprintf("larger than %d bytes", MaxLegacyBytes))
		return nil, nil
	}
	if err != nil {
		if se != nil {
			return nil, fmt.Errorf("the earlier state file was not moved: %v", se)
		}
		return nil, s.migrateError(oserr.Cause(err))
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		s.setAside(legacy, "not a JSON object; it may have been cut short")
		return nil, nil
	}
	return top, nil
}

// legacySections are the legacy file's per-note keys, by prefix, and
// the section each moves to.
var legacySections = []struct {
	prefix  string
	section Section
}{
	{legacyRunValuesPrefix, SectionValues},
	{legacyRunCachePrefix, SectionCache},
	{legacyLastRunPrefix, SectionLastRun},
}

// stageLegacy writes every entry of the legacy object top into staging,
// synced, and returns the keys that name no entry markii knows.
func stageLegacy(staging string, top map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	unknown := map[string]json.RawMessage{}
	for key, v := range top {
		known, err := stageLegacyKey(staging, key, v)
		if err != nil {
			return nil, err
		}
		if !known {
			unknown[key] = v
		}
	}
	return unknown, syncDir(staging)
}

// stageLegacyKey writes the entries of one legacy key into staging and
// reports whether it was a key markii knows.
func stageLegacyKey(staging, key string, v json.RawMessage) (bool, error) {
	if key == legacyNetGrants {
		var grants map[string]json.RawMessage
		if json.Unmarshal(v, &grants) != nil || grants == nil {
			return false, nil
		}
		for doc, rec := range grants {
			if err := stageEntry(staging, doc, SectionGrant, rec); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	for _, ls := range legacySections {
		if doc, ok := strings.CutPrefix(key, ls.prefix); ok {
			return true, stageEntry(staging, doc, ls.section, v)
		}
	}
	return false, nil
}

// stageEntry writes one note's section into staging.
func stageEntry(staging, doc string, sec Section, data json.RawMessage) error {
	body, err := json.Marshal(entryFile{DocumentKey: doc, Data: data})
	if err != nil {
		return err
	}
	return writeSynced(filepath.Join(staging, fileName(doc, sec)), append(body, '\n'))
}

// keepUnmigrated writes the legacy keys no entry took, verbatim, beside
// the store; none, nothing.
func (s *Store) keepUnmigrated(unknown map[string]json.RawMessage) error {
	if len(unknown) == 0 {
		return nil
	}
	body, err := json.Marshal(unknown)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(s.dir, UnmigratedFileName), body)
}

// writeSynced creates path with data and syncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	return errors.Join(werr, serr, f.Close())
}
