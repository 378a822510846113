package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/markii/markii/runtime/internal/safefile"
)

// HeadName is the chain head in the state directory: the size of the
// current trail file and the hash of its last record, rewritten under the
// state lock with every append. An append takes the previous hash from it
// instead of reading the trail, and Verify checks the last line against
// it, so an edited last line is found although no record follows it yet.
const HeadName = "audit-head.json"

// maxHeadBytes bounds the head file when it is read.
const maxHeadBytes = 4 << 10

// head is the content of the head file. Hash is the SHA-256 of the last
// line written (in this file, or in the file rotated before it when this
// one is still empty); Size is the current file's length once it was
// written.
type head struct {
	V    int    `json:"v"`
	Size int64  `json:"size"`
	Hash string `json:"hash"`
}

func (l *Log) headPath() string { return filepath.Join(l.dir, HeadName) }

// readHead returns the chain head; ok is false when there is none or it
// cannot be used (an older trail, a crash while it was written, an edit).
func (l *Log) readHead() (h head, ok bool) {
	data, err := safefile.ReadFile(l.headPath(), maxHeadBytes, safefile.Options{NoFollow: true})
	if err != nil || json.Unmarshal(data, &h) != nil || h.V != Version || h.Size < 0 {
		return head{}, false
	}
	return h, true
}

// writeHead rewrites the chain head in place, unsynced (it is one short
// line; a torn or lagging head is only a head the next append does not
// trust and Verify names).
func (l *Log) writeHead(h head) error {
	h.V = Version
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	path := l.headPath()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|openFlags, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write the audit trail's head %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &safefile.Error{Path: path, Problem: safefile.NotRegular, Mode: fi.Mode().Type()}
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.WriteAt(data, 0)
	}
	if err != nil {
		return fmt.Errorf("cannot write the audit trail's head %s: %w", path, err)
	}
	return nil
}

// headSnapshot is the chain head and the current file's size, taken
// together under the lock so that records appended while Verify reads
// are neither checked nor mistaken for damage.
type headSnapshot struct {
	head    head
	ok      bool
	missing bool
	size    int64
}

func (l *Log) snapshotHead() headSnapshot {
	var s headSnapshot
	take := func() error {
		s.head, s.ok = l.readHead()
		_, err := os.Lstat(l.headPath())
		s.missing = errors.Is(err, fs.ErrNotExist)
		if fi, err := os.Lstat(l.Path()); err == nil {
			s.size = fi.Size()
		}
		return nil
	}
	if l.lock(take) != nil {
		// The lock cannot be had (a read-only state directory): check
		// the files as they are.
		take()
	}
	return s
}

// check compares the chain head with the current file as Verify read it:
// its last line is number n and hashes to last. It returns the problem
// found, if any.
func (s headSnapshot) check(l *Log, n int, last string) *Damage {
	h := s.head
	switch {
	case s.missing && s.size == 0:
		return nil
	case s.missing:
		return &Damage{File: l.headPath(), Why: "it is missing, so the last line of " + FileName + " cannot be checked (the next record markii appends restores it)"}
	case !s.ok:
		return &Damage{File: l.headPath(), Why: "it is not a chain head (a torn or edited file)"}
	case h.Size < s.size:
		return &Damage{File: l.Path(), Line: n, Why: fmt.Sprintf("the file goes on past the %d bytes markii last wrote: lines were added or changed without markii (or markii stopped between a record and its head)", h.Size)}
	case h.Size > s.size:
		return &Damage{File: l.Path(), Line: n, Why: fmt.Sprintf("the file is shorter than the %d bytes markii last wrote: lines were removed or cut", h.Size)}
	case s.size > 0 && h.Hash != last:
		return &Damage{File: l.Path(), Line: n, Why: "it was changed after it was written (its hash does not match the chain head in " + HeadName + ")"}
	}
	return nil
}
