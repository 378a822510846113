// Package state keeps markii's device state: one JSON object in state.json
// inside the user's config directory. Every update rewrites the whole file
// atomically (temp sibling, 0600, rename) in a 0700 directory. A missing,
// corrupt or hostile file reads as an empty store and never panics; a file
// that could not be understood is moved aside before it is replaced, so no
// data is destroyed.
package state

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/markii/markii/runtime/config"
)

// FileName is the state file's name inside the config directory.
const FileName = "state.json"

// MaxFileBytes is the largest state file read; a larger one reads as empty.
const MaxFileBytes = 64 << 20

// Key prefixes and names of the Markii device state (SPEC §6.7).
const (
	KeyNetGrants       = "markii.netGrants"
	KeyRunValuesPrefix = "markii.runValues:"
	KeyRunCachePrefix  = "markii.runCache:"
	KeyLastRunPrefix   = "markii.lastRun:"
)

// Dir returns the directory that holds state.json for the platform goos:
// the user's markii config directory (see config.Dir).
func Dir(goos string, getenv func(string) string) (string, error) {
	return config.Dir(goos, getenv)
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

// Store is the device state of one process. It is safe for concurrent use.
type Store struct {
	dir string
	mu  sync.Mutex
	// data holds every top-level key of the file as raw JSON.
	data map[string]json.RawMessage
	// unreadable is set when the file existed but could not be understood;
	// the next write moves it aside first.
	unreadable bool
}

// Open reads dir/state.json once. Any read problem (missing file, bad
// JSON, a value that is not an object, an oversized file) yields an empty
// store; Open never fails.
func Open(dir string) *Store {
	s := &Store{dir: dir}
	s.data, s.unreadable = readFile(s.path())
	return s
}

func (s *Store) path() string { return filepath.Join(s.dir, FileName) }

// readFile loads the file into a fresh map. unreadable reports a file that
// exists but is not a JSON object markii can use.
func readFile(path string) (data map[string]json.RawMessage, unreadable bool) {
	data = map[string]json.RawMessage{}
	f, err := os.Open(path)
	if err != nil {
		return data, !errors.Is(err, os.ErrNotExist)
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil || len(raw) > MaxFileBytes {
		return data, true
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return data, true
	}
	for k, v := range obj {
		data[k] = v
	}
	return data, false
}

// GetRaw returns the raw JSON stored under key.
func (s *Store) GetRaw(key string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	if !ok {
		return nil, false
	}
	return append(json.RawMessage(nil), v...), true
}

// Get decodes the value under key into v. It reports false when the key is
// absent or its value does not decode into v (the caller then treats the
// entry as missing).
func (s *Store) Get(key string, v any) bool {
	raw, ok := s.GetRaw(key)
	if !ok {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// Keys returns every key, sorted.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Set stores v (marshalled to JSON) under key and rewrites the file.
func (s *Store) Set(key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cannot store %q: %w", key, err)
	}
	return s.SetRaw(key, raw)
}

// SetRaw stores raw JSON under key and rewrites the file. raw must be valid
// JSON.
func (s *Store) SetRaw(key string, raw json.RawMessage) error {
	if !json.Valid(raw) {
		return fmt.Errorf("cannot store %q: not valid JSON", key)
	}
	return s.update(map[string]json.RawMessage{key: append(json.RawMessage(nil), raw...)}, nil)
}

// Delete removes key and rewrites the file.
func (s *Store) Delete(key string) error {
	return s.update(nil, []string{key})
}

// update re-reads the file so that keys another markii process wrote since
// Open survive (when the file is readable), applies only this change and
// writes the whole file atomically.
// The in-memory store is updated even when the write fails.
func (s *Store) update(set map[string]json.RawMessage, del []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	disk, unreadable := readFile(s.path())
	if !unreadable {
		s.data = disk
	}
	for k, v := range set {
		s.data[k] = v
	}
	for _, k := range del {
		delete(s.data, k)
	}
	if unreadable || s.unreadable {
		s.setAside()
	}
	return s.write()
}

// setAside renames an unreadable state file to state.json.bad-<time> so a
// rewrite never destroys it.
func (s *Store) setAside() {
	p := s.path()
	if _, err := os.Lstat(p); err != nil {
		s.unreadable = false
		return
	}
	aside := fmt.Sprintf("%s.bad-%d", p, time.Now().UnixMilli())
	if os.Rename(p, aside) == nil {
		s.unreadable = false
	}
}

// write serializes the store with sorted keys and replaces the file.
func (s *Store) write() error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", s.dir, err)
	}
	_ = os.Chmod(s.dir, 0o700)
	var buf bytes.Buffer
	buf.WriteString("{\n")
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		name, _ := json.Marshal(k)
		buf.WriteString("  ")
		buf.Write(name)
		buf.WriteString(": ")
		buf.Write(s.data[k])
		if i < len(keys)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("}\n")
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(s.dir, fmt.Sprintf(".%s.%d.%d.%s.tmp", FileName, os.Getpid(), time.Now().UnixMilli(), hex.EncodeToString(rnd[:])))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write the device state in %s: %w", s.dir, err)
	}
	_, werr := f.Write(buf.Bytes())
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(tmp, 0o600)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write the device state in %s: %w", s.dir, err)
	}
	if err := os.Rename(tmp, s.path()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot replace %s: %w", s.path(), err)
	}
	return nil
}
