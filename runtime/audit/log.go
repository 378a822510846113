package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/markii/markii/runtime/internal/safefile"
	"github.com/markii/markii/runtime/state"
)

// FileName is the audit trail in the state directory.
const FileName = "audit.jsonl"

// EffectsName is the index of open effect claims in the state directory.
const EffectsName = "audit-effects.json"

// Defaults for Options.
const (
	DefaultMaxBytes = 128 << 20
	DefaultKeep     = 3
	// tailBytes is how much of the file an append reads to find the last
	// line: records are far smaller.
	tailBytes = 64 << 10
	// maxEffects bounds the open-claims index.
	maxEffects = 10_000
)

// Locker runs fn holding the device state's cross-process lock
// ((*state.Store).Locked).
type Locker func(fn func() error) error

// Options configure a Log.
type Options struct {
	// MaxBytes is the size at which the file is rotated; zero means
	// DefaultMaxBytes.
	MaxBytes int64
	// Keep is how many rotated files are kept; zero means DefaultKeep.
	Keep int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Log is the audit trail of one state directory. It is safe for
// concurrent use by goroutines and processes.
type Log struct {
	dir  string
	lock Locker
	opts Options
}

// Open returns the trail kept in dir, appended under lock.
func Open(dir string, lock Locker, o Options) *Log {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Keep <= 0 {
		o.Keep = DefaultKeep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Log{dir: dir, lock: lock, opts: o}
}

// ForStore returns the trail kept beside the device state st.
func ForStore(st *state.Store, o Options) *Log { return Open(st.Dir(), st.Locked, o) }

// Path is the current file of the trail.
func (l *Log) Path() string { return filepath.Join(l.dir, FileName) }

// Now is the log's clock.
func (l *Log) Now() time.Time { return l.opts.Now() }

// Append writes recs, in order, as whole lines at the end of the trail,
// under the lock. With sync set the file is synced before Append returns
// (claims and the end of a run).
func (l *Log) Append(sync bool, recs ...Record) error {
	if len(recs) == 0 {
		return nil
	}
	return l.lock(func() error { return l.appendLocked(sync, recs) })
}

func (l *Log) appendLocked(sync bool, recs []Record) error {
	f, prev, err := l.openForAppend()
	if err != nil {
		return err
	}
	defer f.Close()
	var buf bytes.Buffer
	if prev.torn {
		buf.WriteByte('\n')
	}
	last := prev.hash
	for _, r := range recs {
		r = r.clipped()
		r.V, r.Prev = Version, last
		if r.Time.IsZero() {
			r.Time = l.opts.Now()
		}
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("cannot encode an audit record: %w", err)
		}
		last = lineHash(line)
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("cannot append to the audit trail %s: %w", l.Path(), err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("cannot sync the audit trail %s: %w", l.Path(), err)
		}
	}
	// The head is not synced: after a crash it may lag the synced trail,
	// which the next append notices (it reads the trail's end instead)
	// and Verify names until then.
	return l.writeHead(head{Size: prev.size + int64(buf.Len()), Hash: last})
}

// tail is where an append goes on from: the hash of the last line, the
// current file's size, and whether it ends in a torn line.
type tail struct {
	hash string
	size int64
	torn bool
}

// openForAppend opens the current file for appending (rotating it first
// when it is full) and finds the hash of its last line: from the chain
// head when the head describes the file as it is, which is every append
// but the first after an older markii, a crash or a hand edit. Only then
// is the end of the trail read (at most tailBytes of it); the handle the
// records are written through is write-only.
func (l *Log) openForAppend() (*os.File, tail, error) {
	f, size, err := openAppend(l.Path())
	if err != nil {
		return nil, tail{}, err
	}
	t := tail{size: size}
	if h, ok := l.readHead(); ok && h.Size == size {
		t.hash = h.Hash
	} else if t, err = readTail(l.Path(), size); err != nil {
		f.Close()
		return nil, tail{}, err
	}
	if size < l.opts.MaxBytes {
		return f, t, nil
	}
	f.Close()
	if err := l.rotate(); err != nil {
		return nil, tail{}, err
	}
	f, _, err = openAppend(l.Path())
	// The torn state stays with the old file; the chain goes on.
	return f, tail{hash: t.hash}, err
}

// openAppend opens path for appending only, creating it 0600; a link or
// anything but a regular file at the path is refused.
func openAppend(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|openFlags, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot open the audit trail %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &safefile.Error{Path: path, Problem: safefile.NotRegular, Mode: fi.Mode().Type()}
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// readTail reads the hash of the last line of the file at path (size
// bytes long) from its last tailBytes, and whether it ends in a torn line.
// Appends call it only when the chain head does not describe the file.
func readTail(path string, size int64) (tail, error) {
	t := tail{size: size}
	if size == 0 {
		return t, nil
	}
	f, err := safefile.Open(path, safefile.Options{NoFollow: true})
	if err != nil {
		return tail{}, fmt.Errorf("cannot read the audit trail %s: %w", path, err)
	}
	defer f.Close()
	n := min(size, tailBytes)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
		return tail{}, fmt.Errorf("cannot read the audit trail %s: %w", path, err)
	}
	t.torn = buf[len(buf)-1] != '\n'
	body := bytes.TrimSuffix(buf, []byte{'\n'})
	if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	}
	t.hash = lineHash(body)
	return t, nil
}

// rotate shifts audit.N.jsonl to N+1 (dropping those past Keep) and the
// current file to audit.1.jsonl.
func (l *Log) rotate() error {
	os.Remove(l.rotated(l.opts.Keep))
	for i := l.opts.Keep - 1; i >= 1; i-- {
		if err := os.Rename(l.rotated(i), l.rotated(i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot rotate the audit trail: %w", err)
		}
	}
	if err := os.Rename(l.Path(), l.rotated(1)); err != nil {
		return fmt.Errorf("cannot rotate the audit trail: %w", err)
	}
	return nil
}

// rotated is the name of the i-th rotated file (1 is the newest).
func (l *Log) rotated(i int) string {
	return filepath.Join(l.dir, "audit."+strconv.Itoa(i)+".jsonl")
}

// Files are the trail's files, oldest first, that exist.
func (l *Log) Files() []string {
	var out []string
	for i := l.opts.Keep; i >= 1; i-- {
		if _, err := os.Lstat(l.rotated(i)); err == nil {
			out = append(out, l.rotated(i))
		}
	}
	if _, err := os.Lstat(l.Path()); err == nil {
		out = append(out, l.Path())
	}
	return out
}

func lineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}
