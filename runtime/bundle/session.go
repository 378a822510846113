package bundle

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/markii/markii/runtime/script"
)

// Write budgets for one run.
const (
	// MaxWriteBytes caps one bundle.write.
	MaxWriteBytes = 16 << 20
	// MaxRunWriteBytes caps everything one run writes.
	MaxRunWriteBytes = 64 << 20
)

// Session is one run's view of a bundle: the snapshot taken at open plus
// the run's own .cache/ writes, behind the path jail, with the effective
// grants (declared in the manifest AND granted by the user) and the run's
// tier. Scripts get read, exists and write; there is no listing. A
// Session is safe for concurrent use.
type Session struct {
	b     *Bundle
	read  bool
	write bool
	tier  script.Tier

	mu      sync.Mutex
	writes  map[string][]byte
	written int64
	diags   []string
}

// Session starts a run's view. granted is what the user allowed; only
// grants the manifest also declares take effect. Writes need
// TierManual.
func (b *Bundle) Session(granted []Grant, tier script.Tier) *Session {
	s := &Session{b: b, tier: tier, writes: map[string][]byte{}}
	for _, g := range granted {
		if g == legacyWriteCache {
			g = GrantWriteCache
		}
		switch {
		case g == GrantRead && b.manifest.Declares(GrantRead):
			s.read = true
		case g == GrantWriteCache && b.manifest.Declares(GrantWriteCache):
			s.write = true
		}
	}
	return s
}

// Effective returns the grants in force for this run.
func (s *Session) Effective() []Grant {
	if s == nil {
		return nil
	}
	var out []Grant
	if s.read {
		out = append(out, GrantRead)
	}
	if s.write {
		out = append(out, GrantWriteCache)
	}
	return out
}

// notBundle is the reason a nil Session (a single-file note) gives.
func notBundle(what string) string { return what + " is only available in a bundle" }

func deny(reason string) error {
	return &script.Denial{Capability: script.CapBundle, Reason: reason}
}

// jail cleans a script-named path, turning a refusal into a denial.
func jail(op, name string) (string, error) {
	clean, err := CleanPath(name)
	if err != nil {
		return "", deny(op + ": " + err.Error())
	}
	return clean, nil
}

// Read returns a file's bytes and whether it exists. It needs the read
// grant; a path the jail refuses is a denial.
func (s *Session) Read(name string) ([]byte, bool, error) {
	if s == nil {
		return nil, false, deny(notBundle("bundle.read"))
	}
	if !s.read {
		return nil, false, deny(`bundle.read needs the "read" permission, declared in manifest.json and granted`)
	}
	clean, err := jail("bundle.read", name)
	if err != nil {
		return nil, false, err
	}
	data, ok := s.lookup(clean)
	return data, ok, nil
}

// Exists reports whether a file exists. It needs the read grant.
func (s *Session) Exists(name string) (bool, error) {
	if s == nil {
		return false, deny(notBundle("bundle.exists"))
	}
	if !s.read {
		return false, deny(`bundle.exists needs the "read" permission, declared in manifest.json and granted`)
	}
	clean, err := jail("bundle.exists", name)
	if err != nil {
		return false, err
	}
	_, ok := s.lookup(clean)
	return ok, nil
}

func (s *Session) lookup(clean string) ([]byte, bool) {
	s.mu.Lock()
	data, ok := s.writes[clean]
	s.mu.Unlock()
	if ok {
		return data, true
	}
	return s.b.files.Get(clean)
}

// Write stores data at a path strictly under .cache/. It needs the
// write:.cache/ grant and a manual run; manifest.json and the document are
// never writable. A zip bundle keeps the write in memory for this run (see
// Diagnostics); a directory bundle also saves it to disk atomically.
func (s *Session) Write(name string, data []byte) error {
	if s == nil {
		return deny(notBundle("bundle.write"))
	}
	clean, err := jail("bundle.write", name)
	if err != nil {
		return err
	}
	if err := s.writeRefusal(clean, len(data)); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.written+int64(len(data)) > MaxRunWriteBytes {
		return fmt.Errorf("bundle.write: this run has written over the %s limit", mib(MaxRunWriteBytes))
	}
	kept := append([]byte(nil), data...)
	if err := s.persist(clean, kept); err != nil {
		return err
	}
	s.writes[clean] = kept
	s.written += int64(len(data))
	return nil
}

// writeRefusal is why a write of n bytes to the clean path may not be
// made: the manifest or the document, a path outside .cache/, no
// permission, an automatic run, or over the size of one write.
func (s *Session) writeRefusal(clean string, n int) error {
	switch {
	case clean == ManifestName || clean == s.b.manifest.Document:
		return deny(fmt.Sprintf("bundle.write: %s is never writable", quote(clean)))
	case firstSegment(clean) != CacheDir || clean == CacheDir:
		return deny(fmt.Sprintf("bundle.write: %s is outside .cache/ (writes go only under .cache/)", quote(clean)))
	case !s.write:
		return deny(`bundle.write needs the "write:.cache/" permission, declared in manifest.json and granted`)
	case s.tier != script.TierManual:
		return &script.Denial{Capability: script.CapBundle, TierBlocked: true,
			Reason: "bundle.write is only available on a manual run"}
	case n > MaxWriteBytes:
		return fmt.Errorf("bundle.write: %d bytes is over the %s limit for one write", n, mib(MaxWriteBytes))
	}
	return nil
}

// persist saves a write of a directory bundle to disk; for a zip bundle it
// notes, once, that writes stay in memory. s.mu is held.
func (s *Session) persist(clean string, kept []byte) error {
	if s.b.form == Directory {
		if err := persistCacheWrite(s.b.path, clean, kept); err != nil {
			return fmt.Errorf("bundle.write: could not save %s: %w", quote(clean), err)
		}
		return nil
	}
	if len(s.diags) == 0 {
		s.diags = append(s.diags, fmt.Sprintf("%s is a zip bundle, so .cache/ writes from this run are kept in memory only", filepath.Base(s.b.path)))
	}
	return nil
}

// Written returns the paths this run wrote, sorted, for diagnostics.
func (s *Session) Written() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.writes))
	for p := range s.writes {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Diagnostics are notes about this run for a verbose diagnostics surface.
func (s *Session) Diagnostics() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.diags...)
}

// ModuleError is a bundle module that cannot be loaded: missing, or not
// Lua source text. It is a script error, not a denial.
type ModuleError struct {
	Path   string
	Reason string
	// Err is the cause (ErrBytecode for compiled code; nil otherwise).
	Err error
}

func (e *ModuleError) Error() string { return "require: " + e.Reason }

// Unwrap returns the cause (nil when there is none).
func (e *ModuleError) Unwrap() error { return e.Err }

// Module returns the source text of a bundle-local module for
// `require "scripts/x"`: the name plus ".lua" unless it already ends in
// ".lua", jailed, read from the snapshot taken at open (never from this
// run's writes) with the read grant. A missing module and compiled
// bytecode are *ModuleError; a refused path or a missing grant is a
// *script.Denial.
func (s *Session) Module(name string) (string, error) {
	if s == nil {
		return "", &script.Denial{Capability: script.CapRequire, Reason: notBundle("require of a bundle module")}
	}
	if !IsLocalModule(name) {
		return "", &ModuleError{Path: name, Reason: fmt.Sprintf("%s is not a bundle module (bundle modules start with scripts/, assets/ or .cache/)", quote(name))}
	}
	clean, err := ModulePath(name)
	if err != nil {
		return "", &script.Denial{Capability: script.CapRequire, Reason: "require: " + err.Error(), Err: err}
	}
	if !s.read {
		return "", &script.Denial{Capability: script.CapRequire,
			Reason: `require of a bundle module needs the "read" permission, declared in manifest.json and granted`}
	}
	data, ok := s.b.files.Get(clean)
	if !ok {
		return "", &ModuleError{Path: clean, Reason: fmt.Sprintf("no bundle module at %s", quote(clean))}
	}
	if isBytecode(data) {
		return "", &ModuleError{Path: clean, Reason: fmt.Sprintf("%s is refused: %s", quote(clean), ErrBytecode), Err: ErrBytecode}
	}
	return string(data), nil
}

// hasPrefixDir reports whether clean lies under dir.
func hasPrefixDir(clean, dir string) bool { return strings.HasPrefix(clean, dir+"/") }
