// Package state keeps markii's device state: each note's grant, stored
// values, cache entries and last-run record, one small file per note and
// kind under DIR/notes, so that reading or writing one note's entry costs
// the size of that entry and never the size of everything stored.
//
// Every change is a transaction: it holds an exclusive advisory lock on
// DIR/lock (flock on Unix, LockFileEx on Windows) that every markii
// process takes, re-reads the entry inside the lock, and commits by writing
// a temporary file, syncing it, renaming it over the entry and syncing the
// directory. Readers take no lock: a rename is atomic, so a reader sees the
// entry before or after a change and never half of one. A process that
// cannot get the lock within Options.LockWait changes nothing and says so.
//
// Nothing that is not a regular file is ever read or waited on; a file
// that cannot be understood is moved aside once, and reported, before
// anything replaces it. Directories are created 0700 and an existing
// directory's mode is never changed.
package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/markii/markii/internal/oserr"
	"github.com/markii/markii/runtime/internal/safefile"
)

// Section is the kind of a note's entry.
type Section string

// The sections of a note's device state (SPEC §6.7 keys).
const (
	// SectionGrant is the note's network and bundle grant.
	SectionGrant Section = "grant"
	// SectionValues is the note's value store snapshot.
	SectionValues Section = "values"
	// SectionCache is the note's cache.get snapshot.
	SectionCache Section = "cache"
	// SectionLastRun is the note's last-run record.
	SectionLastRun Section = "lastrun"
)

var sections = []Section{SectionGrant, SectionValues, SectionCache, SectionLastRun}

// MaxEntryBytes is the largest entry file read or written. The value and
// cache stores have their own, smaller caps.
const MaxEntryBytes = 8 << 20

// DefaultLockWait is how long a change waits for another markii process
// to finish its own.
const DefaultLockWait = 10 * time.Second

const (
	notesDir = "notes"
	lockName = "lock"
)

// Entries is the device state as the grant, value and cache stores use
// it. *Store keeps it on disk; *Memory keeps it for one process.
type Entries interface {
	// Get returns the entry of doc in sec, nil when there is none.
	Get(doc string, sec Section) (json.RawMessage, error)
	// Update replaces the entry of doc in sec with what fn returns for
	// the entry as it is now (nil: none); fn returning nil deletes it and
	// an error from fn changes nothing.
	Update(doc string, sec Section, fn func(cur json.RawMessage) (json.RawMessage, error)) error
	// List returns every entry of sec by document key.
	List(sec Section) (map[string]json.RawMessage, error)
	// UpdateAll applies fn, as Update does, to every entry of sec in one
	// transaction.
	UpdateAll(sec Section, fn func(doc string, cur json.RawMessage) (json.RawMessage, error)) error
}

// DocumentKey is the key of a note in the device state: the file:// URL of
// its absolute path.
func DocumentKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return u.String()
}

// Options configure a Store.
type Options struct {
	// Legacy is the single state file of earlier markii versions. When it
	// exists and DIR/notes does not, its contents are moved into the store
	// once, atomically, before the store is first used.
	Legacy string
	// LockWait bounds the wait for the lock; zero means DefaultLockWait.
	LockWait time.Duration
	// Warn receives what the store did on its own and the user should
	// know: a damaged file moved aside (*DamagedError), a migration that
	// could not happen. nil discards them.
	Warn func(error)
}

// Store is the device state on disk in one directory. It is safe for
// concurrent use by goroutines and by processes.
type Store struct {
	dir  string
	opts Options

	mu    sync.Mutex // serializes this process's transactions
	ready bool
	// dirErr is a sticky problem with the directory itself.
	dirErr error
	// lockWaited, when set, hears how long each transaction waited for
	// the lock (the tests measure it).
	lockWaited func(time.Duration)
}

var _ Entries = (*Store)(nil)

// Open returns the store in dir. It does no I/O: problems are reported
// by the first call that needs the directory.
func Open(dir string, o Options) *Store {
	if o.LockWait <= 0 {
		o.LockWait = DefaultLockWait
	}
	return &Store{dir: dir, opts: o}
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// LockError is a change that did not happen because another process held
// the lock for the whole wait.
type LockError struct {
	Path   string
	Waited time.Duration
}

func (e *LockError) Error() string {
	return fmt.Sprintf("another markii process kept %s locked for %s; nothing was changed, try again", e.Path, e.Waited.Round(time.Millisecond))
}

// DamagedError is a stored file that could not be understood. It was
// moved to Aside (empty when moving it failed) and reads as absent.
type DamagedError struct {
	Path   string
	Aside  string
	Reason string
}

func (e *DamagedError) Error() string {
	if e.Aside == "" {
		return fmt.Sprintf("the state file %s is damaged (%s) and is ignored", e.Path, e.Reason)
	}
	return fmt.Sprintf("the state file %s was damaged (%s); it was moved to %s", e.Path, e.Reason, e.Aside)
}

// OverCapError is a write refused because the entry would be larger than
// its cap. What was stored before is kept unchanged.
type OverCapError struct {
	Section Section
	Size    int
	Limit   int
}

func (e *OverCapError) Error() string {
	return fmt.Sprintf("the note's %s would take %d bytes, over the %d-byte cap; what was stored before is kept", e.Section, e.Size, e.Limit)
}

// entryFile is what an entry file holds.
type entryFile struct {
	DocumentKey string          `json:"documentKey"`
	Data        json.RawMessage `json:"data"`
}

func (s *Store) notes() string { return filepath.Join(s.dir, notesDir) }

// fileName is the entry file of doc in sec: a hash of the document key, so
// that any key makes a short, safe name.
func fileName(doc string, sec Section) string {
	sum := sha256.Sum256([]byte(doc))
	return hex.EncodeToString(sum[:]) + "." + string(sec) + ".json"
}

// sectionOf returns the section of an entry file name.
func sectionOf(name string) (Section, bool) {
	base, ok := strings.CutSuffix(name, ".json")
	if !ok {
		return "", false
	}
	h, sec, ok := strings.Cut(base, ".")
	if !ok || len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		return "", false
	}
	for _, s := range sections {
		if Section(sec) == s {
			return s, true
		}
	}
	return "", false
}

func (s *Store) warn(err error) {
	if s.opts.Warn != nil && err != nil {
		s.opts.Warn(err)
	}
}

// prepare checks the directory and runs the migration once per Store.
func (s *Store) prepare() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prepareLocked()
}

func (s *Store) prepareLocked() error {
	if s.ready {
		return s.dirErr
	}
	s.ready = true
	if err := checkDir(s.dir); err != nil {
		s.dirErr = err
		return err
	}
	if s.opts.Legacy != "" {
		if _, err := os.Lstat(s.opts.Legacy); err == nil {
			if _, err := os.Lstat(s.notes()); errors.Is(err, fs.ErrNotExist) {
				s.warn(s.migrate())
			}
		}
	}
	return nil
}

// checkDir accepts a missing directory (it is made on the first write)
// and an existing one that is a directory owned by this user.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot use the state directory %s: %w", dir, oserr.Cause(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("the state directory %s is %s, not a directory", dir, safefile.Describe(fi.Mode().Type()))
	}
	if !ownedByMe(fi) {
		return fmt.Errorf("the state directory %s belongs to another user", dir)
	}
	return nil
}

// Get implements Entries. A damaged entry is moved aside, reported once
// through Options.Warn, and reads as absent; anything at the entry's path
// that is not a regular file is an error.
func (s *Store) Get(doc string, sec Section) (json.RawMessage, error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	data, damaged, err := s.readEntry(doc, sec)
	if err != nil || damaged == "" {
		return data, err
	}
	// Move it aside inside the lock, unless another process already did
	// or replaced it.
	err = s.transact(func() error {
		data, err = s.readEntryLocked(doc, sec)
		return err
	})
	return data, err
}

// readEntry reads one entry file. damaged is the reason when the file is
// there but cannot be understood.
func (s *Store) readEntry(doc string, sec Section) (data json.RawMessage, damaged string, err error) {
	path := filepath.Join(s.notes(), fileName(doc, sec))
	raw, err := safefile.ReadFile(path, MaxEntryBytes, safefile.Options{NoFollow: true, OwnedByMe: true})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		var se *safefile.Error
		if errors.As(err, &se) && se.Problem == safefile.TooLarge {
			return nil, fmt.Sprintf("larger than %d bytes", MaxEntryBytes), nil
		}
		if se != nil {
			return nil, "", se
		}
		return nil, "", fmt.Errorf("cannot read %s: %w", path, oserr.Cause(err))
	}
	var f entryFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, "not valid JSON; it may have been cut short", nil
	}
	if f.DocumentKey != doc || len(f.Data) == 0 {
		return nil, "not an entry of this note", nil
	}
	return f.Data, "", nil
}

// readEntryLocked reads an entry inside a transaction, moving a damaged
// file aside.
func (s *Store) readEntryLocked(doc string, sec Section) (json.RawMessage, error) {
	data, damaged, err := s.readEntry(doc, sec)
	if err != nil || damaged == "" {
		return data, err
	}
	s.setAside(filepath.Join(s.notes(), fileName(doc, sec)), damaged)
	return nil, nil
}

// setAside renames a damaged file to NAME.bad-<ms> so that no rewrite
// destroys it, and reports where it went.
func (s *Store) setAside(path, reason string) {
	aside := fmt.Sprintf("%s.bad-%d", path, time.Now().UnixMilli())
	if err := os.Rename(path, aside); err != nil {
		aside = ""
	} else {
		_ = syncDir(filepath.Dir(path))
	}
	s.warn(&DamagedError{Path: path, Aside: aside, Reason: reason})
}

// Update implements Entries: inside the lock it re-reads the entry, calls
// fn and commits the result atomically. fn returning the entry unchanged
// writes nothing.
func (s *Store) Update(doc string, sec Section, fn func(cur json.RawMessage) (json.RawMessage, error)) error {
	if err := s.prepare(); err != nil {
		return err
	}
	return s.transact(func() error {
		cur, err := s.readEntryLocked(doc, sec)
		if err != nil {
			return err
		}
		next, err := fn(cur)
		if err != nil {
			return err
		}
		return s.commit(doc, sec, cur, next)
	})
}

// commit writes next over cur (nil next: delete).
func (s *Store) commit(doc string, sec Section, cur, next json.RawMessage) error {
	path := filepath.Join(s.notes(), fileName(doc, sec))
	switch {
	case next == nil:
		return s.remove(path, cur)
	case bytes.Equal(cur, next):
		return nil
	}
	body, err := encodeEntry(doc, sec, next)
	if err != nil {
		return err
	}
	if err := os.Mkdir(s.notes(), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("cannot create %s: %w", s.notes(), oserr.Cause(err))
	}
	return writeAtomic(path, append(body, '\n'))
}

// remove deletes the entry file at path, which holds cur (nil: there is
// none).
func (s *Store) remove(path string, cur json.RawMessage) error {
	if cur == nil {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot remove %s: %w", path, oserr.Cause(err))
	}
	return syncDir(s.notes())
}

// encodeEntry is the entry file for doc's data in sec: valid JSON, within
// MaxEntryBytes.
func encodeEntry(doc string, sec Section, data json.RawMessage) ([]byte, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("cannot store the note's %s: not valid JSON", sec)
	}
	body, err := json.Marshal(entryFile{DocumentKey: doc, Data: data})
	if err != nil {
		return nil, err
	}
	if len(body) > MaxEntryBytes {
		return nil, &OverCapError{Section: sec, Size: len(body), Limit: MaxEntryBytes}
	}
	return body, nil
}

// List implements Entries. Damaged entries are moved aside and reported.
func (s *Store) List(sec Section) (map[string]json.RawMessage, error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	var damaged bool
	err := s.each(sec, func(doc string, data json.RawMessage, _, bad string) error {
		if bad != "" {
			damaged = true
			return nil
		}
		out[doc] = data
		return nil
	})
	if err != nil || !damaged {
		return out, err
	}
	out = map[string]json.RawMessage{}
	err = s.transact(func() error {
		return s.eachLocked(sec, func(doc string, data json.RawMessage) error {
			out[doc] = data
			return nil
		})
	})
	return out, err
}

// UpdateAll implements Entries.
func (s *Store) UpdateAll(sec Section, fn func(doc string, cur json.RawMessage) (json.RawMessage, error)) error {
	if err := s.prepare(); err != nil {
		return err
	}
	return s.transact(func() error {
		type change struct {
			doc       string
			cur, next json.RawMessage
		}
		var changes []change
		err := s.eachLocked(sec, func(doc string, cur json.RawMessage) error {
			next, err := fn(doc, cur)
			if err != nil {
				return err
			}
			changes = append(changes, change{doc, cur, next})
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range changes {
			if err := s.commit(c.doc, sec, c.cur, c.next); err != nil {
				return err
			}
		}
		return nil
	})
}

// each visits every entry file of sec in name order; bad is the reason
// the entry at path is damaged (doc and data are then empty).
func (s *Store) each(sec Section, visit func(doc string, data json.RawMessage, path, bad string) error) error {
	ents, err := os.ReadDir(s.notes())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the state directory %s: %w", s.notes(), oserr.Cause(err))
	}
	for _, e := range ents {
		got, ok := sectionOf(e.Name())
		if !ok || got != sec {
			continue
		}
		path := filepath.Join(s.notes(), e.Name())
		f, bad, err := readEntry(path, e.Name(), sec)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := visit(f.DocumentKey, f.Data, path, bad); err != nil {
			return err
		}
	}
	return nil
}

// readEntry reads the entry file at path, named name, of section sec. bad
// says why a file that was read is not a usable entry (the entry is then
// empty); a file that is gone gives fs.ErrNotExist.
func readEntry(path, name string, sec Section) (f entryFile, bad string, err error) {
	raw, err := safefile.ReadFile(path, MaxEntryBytes, safefile.Options{NoFollow: true, OwnedByMe: true})
	if errors.Is(err, fs.ErrNotExist) {
		return f, "", err
	}
	var se *safefile.Error
	switch {
	case errors.As(err, &se) && se.Problem == safefile.TooLarge:
		bad = fmt.Sprintf("larger than %d bytes", MaxEntryBytes)
	case se != nil:
		return f, "", se
	case err != nil:
		return f, "", fmt.Errorf("cannot read %s: %w", path, oserr.Cause(err))
	case json.Unmarshal(raw, &f) != nil:
		bad = "not valid JSON; it may have been cut short"
	case len(f.Data) == 0 || fileName(f.DocumentKey, sec) != name:
		bad = "not the entry its name says"
	}
	if bad != "" {
		f = entryFile{}
	}
	return f, bad, nil
}

// eachLocked visits every sound entry of sec inside a transaction, moving
// damaged ones aside.
func (s *Store) eachLocked(sec Section, visit func(doc string, data json.RawMessage) error) error {
	return s.each(sec, func(doc string, data json.RawMessage, path, bad string) error {
		if bad != "" {
			s.setAside(path, bad)
			return nil
		}
		return visit(doc, data)
	})
}

// transact runs fn holding this process's mutex and the cross-process
// lock.
func (s *Store) transact(fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, waited, err := s.lock()
	if err != nil {
		return err
	}
	defer l.release()
	if s.lockWaited != nil {
		s.lockWaited(waited)
	}
	return fn()
}

// lock takes the cross-process lock, creating the directory (0700) when
// it does not exist. It reports how long it waited.
func (s *Store) lock() (*fileLock, time.Duration, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, 0, fmt.Errorf("cannot create the state directory %s: %w", s.dir, oserr.Cause(err))
	}
	return acquire(filepath.Join(s.dir, lockName), s.opts.LockWait)
}

// acquire opens path (a regular file, never a link) and locks it
// exclusively, polling until wait has passed.
func acquire(path string, wait time.Duration) (*fileLock, time.Duration, error) {
	f, err := openLockFile(path)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	delay := time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, 0, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if ok {
			return &fileLock{f: f}, time.Since(start), nil
		}
		waited := time.Since(start)
		if waited >= wait {
			f.Close()
			return nil, waited, &LockError{Path: path, Waited: waited}
		}
		time.Sleep(min(delay, wait-waited))
		delay = min(delay*2, 20*time.Millisecond)
	}
}

type fileLock struct{ f *os.File }

// release drops the lock (closing the descriptor releases it).
func (l *fileLock) release() { l.f.Close() }

func openLockFile(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &safefile.Error{Path: path, Problem: safefile.NotRegular, Mode: fi.Mode().Type()}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|lockOpenFlags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", path, oserr.Cause(err))
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &safefile.Error{Path: path, Problem: safefile.NotRegular, Mode: fi.Mode().Type()}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeAtomic replaces path with data: a temporary sibling (0600) is
// written and synced, renamed over path, and the directory is synced.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, oserr.Cause(err))
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, oserr.Cause(err))
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot replace %s: %w", path, oserr.Cause(err))
	}
	return syncDir(dir)
}

// Memory is Entries kept in memory: for a note with no identity (read
// from stdin), whose answers last for one run.
type Memory struct {
	mu sync.Mutex
	m  map[Section]map[string]json.RawMessage
}

var _ Entries = (*Memory)(nil)

// Get implements Entries.
func (m *Memory) Get(doc string, sec Section) (json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return clone(m.m[sec][doc]), nil
}

// Update implements Entries.
func (m *Memory) Update(doc string, sec Section, fn func(json.RawMessage) (json.RawMessage, error)) error {
	return m.update(sec, func(d string, cur json.RawMessage) (json.RawMessage, error) {
		if d != doc {
			return cur, nil
		}
		return fn(cur)
	}, doc)
}

// List implements Entries.
func (m *Memory) List(sec Section) (map[string]json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]json.RawMessage{}
	for k, v := range m.m[sec] {
		out[k] = clone(v)
	}
	return out, nil
}

// UpdateAll implements Entries.
func (m *Memory) UpdateAll(sec Section, fn func(doc string, cur json.RawMessage) (json.RawMessage, error)) error {
	return m.update(sec, fn)
}

// update applies fn to every entry of sec and to the documents in
// include, which may have none.
func (m *Memory) update(sec Section, fn func(doc string, cur json.RawMessage) (json.RawMessage, error), include ...string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	docs := map[string]bool{}
	for d := range m.m[sec] {
		docs[d] = true
	}
	for _, d := range include {
		docs[d] = true
	}
	next := map[string]json.RawMessage{}
	keys := make([]string, 0, len(docs))
	for d := range docs {
		keys = append(keys, d)
	}
	sort.Strings(keys)
	for _, d := range keys {
		v, err := fn(d, clone(m.m[sec][d]))
		if err != nil {
			return err
		}
		if v != nil {
			next[d] = clone(v)
		}
	}
	if m.m == nil {
		m.m = map[Section]map[string]json.RawMessage{}
	}
	m.m[sec] = next
	return nil
}

func clone(v json.RawMessage) json.RawMessage {
	if v == nil {
		return nil
	}
	return append(json.RawMessage(nil), v...)
}

// Locked runs fn holding the lock every markii process takes for a change
// of the device state, so that the audit trail kept beside it is appended
// by one process at a time. fn must not call the Store.
func (s *Store) Locked(fn func() error) error {
	if err := s.prepare(); err != nil {
		return err
	}
	return s.transact(fn)
}

// WriteAtomic replaces path with data the way entries are committed: a
// synced temporary sibling (0600) renamed over path, then the directory
// synced.
func WriteAtomic(path string, data []byte) error { return writeAtomic(path, data) }
