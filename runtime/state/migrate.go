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
	fail := func(err error) error {
		return fmt.Errorf("the state in %s could not be moved to %s: %w", legacy, s.dir, err)
	}
	l, _, err := s.lock()
	if err != nil {
		return fail(err)
	}
	defer l.release()
	if _, err := os.Lstat(s.notes()); !errors.Is(err, fs.ErrNotExist) {
		return nil // another process migrated first
	}
	raw, err := safefile.ReadFile(legacy, MaxLegacyBytes, safefile.Options{NoFollow: true, OwnedByMe: true})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var se *safefile.Error
	if errors.As(err, &se) && se.Problem == safefile.TooLarge {
		s.setAside(legacy, fmt.Sprintf("larger than %d bytes", MaxLegacyBytes))
		return nil
	}
	if err != nil {
		if se != nil {
			return fmt.Errorf("the earlier state file was not moved: %v", se)
		}
		return fail(oserr.Cause(err))
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		s.setAside(legacy, "not a JSON object; it may have been cut short")
		return nil
	}

	staging, err := os.MkdirTemp(s.dir, ".notes-migrating-*")
	if err != nil {
		return fail(oserr.Cause(err))
	}
	defer os.RemoveAll(staging) // gone after the rename; cleans up a failure
	unknown := map[string]json.RawMessage{}
	put := func(doc string, sec Section, data json.RawMessage) error {
		body, err := json.Marshal(entryFile{DocumentKey: doc, Data: data})
		if err != nil {
			return err
		}
		return writeSynced(filepath.Join(staging, fileName(doc, sec)), append(body, '\n'))
	}
	for key, v := range top {
		var err error
		switch {
		case key == legacyNetGrants:
			var grants map[string]json.RawMessage
			if json.Unmarshal(v, &grants) != nil || grants == nil {
				unknown[key] = v
				continue
			}
			for doc, rec := range grants {
				if err = put(doc, SectionGrant, rec); err != nil {
					break
				}
			}
		case strings.HasPrefix(key, legacyRunValuesPrefix):
			err = put(strings.TrimPrefix(key, legacyRunValuesPrefix), SectionValues, v)
		case strings.HasPrefix(key, legacyRunCachePrefix):
			err = put(strings.TrimPrefix(key, legacyRunCachePrefix), SectionCache, v)
		case strings.HasPrefix(key, legacyLastRunPrefix):
			err = put(strings.TrimPrefix(key, legacyLastRunPrefix), SectionLastRun, v)
		default:
			unknown[key] = v
		}
		if err != nil {
			return fail(err)
		}
	}
	if err := syncDir(staging); err != nil {
		return fail(err)
	}
	if len(unknown) > 0 {
		body, err := json.Marshal(unknown)
		if err == nil {
			err = writeAtomic(filepath.Join(s.dir, UnmigratedFileName), body)
		}
		if err != nil {
			return fail(err)
		}
	}
	if err := os.Rename(staging, s.notes()); err != nil {
		return fail(oserr.Cause(err))
	}
	if err := syncDir(s.dir); err != nil {
		return fail(err)
	}
	if err := os.Remove(legacy); err != nil {
		return fmt.Errorf("the state in %s was copied to %s but the old file could not be removed: %w", legacy, s.dir, oserr.Cause(err))
	}
	_ = syncDir(filepath.Dir(legacy))
	return nil
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
