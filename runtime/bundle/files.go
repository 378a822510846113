package bundle

import (
	"fmt"
	"sort"
	"strings"
)

// Limits bounds what opening an archive or a bundle directory may cost.
// Every check happens before the bytes it guards are read or inflated.
type Limits struct {
	// ArchiveBytes caps a zip's size on disk.
	ArchiveBytes int64
	// Entries caps the number of entries (files and directories).
	Entries int
	// EntryBytes caps one file's (declared and actual) size.
	EntryBytes int64
	// TotalBytes caps the sum of all files' sizes.
	TotalBytes int64
	// Depth caps directory nesting.
	Depth int
}

// DefaultLimits are the Markii format's caps: 256 MiB per entry and in
// total, plus markii's own caps on archive size, entry count and depth.
var DefaultLimits = Limits{
	ArchiveBytes: 256 << 20,
	Entries:      10_000,
	EntryBytes:   256 << 20,
	TotalBytes:   256 << 20,
	Depth:        32,
}

// Files is an immutable in-memory snapshot of an archive's or a
// directory's regular files, keyed by clean bundle-relative path.
type Files struct {
	data  map[string][]byte
	total int64
}

func newFiles() *Files { return &Files{data: map[string][]byte{}} }

func (f *Files) put(path string, b []byte) {
	f.data[path] = b
	f.total += int64(len(b))
}

// Get returns the bytes of a clean path. The slice must not be modified.
func (f *Files) Get(clean string) ([]byte, bool) {
	b, ok := f.data[clean]
	return b, ok
}

// Names returns every file's path, sorted.
func (f *Files) Names() []string {
	names := make([]string, 0, len(f.data))
	for n := range f.data {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Len is the number of files.
func (f *Files) Len() int { return len(f.data) }

// Size is the total number of bytes held.
func (f *Files) Size() int64 { return f.total }

// ArchiveError is an archive or bundle directory refused as a whole.
// Problems lists every offender found, each a short clause naming it.
type ArchiveError struct {
	// Path is the archive or directory as the caller named it.
	Path string
	// What is "bundle" or "pack".
	What     string
	Problems []string
}

func (e *ArchiveError) Error() string {
	const maxListed = 10
	p := e.Problems
	more := ""
	if len(p) > maxListed {
		more = fmt.Sprintf("; and %d more", len(p)-maxListed)
		p = p[:maxListed]
	}
	what := e.What
	if what == "" {
		what = "bundle"
	}
	return fmt.Sprintf("%s is not a valid Markii %s: %s%s", e.Path, what, strings.Join(p, "; "), more)
}

// problems collects the offenders of one archive.
type problems struct{ list []string }

func (p *problems) add(format string, a ...any) {
	p.list = append(p.list, fmt.Sprintf(format, a...))
}

func (p *problems) err(path, what string) error {
	if len(p.list) == 0 {
		return nil
	}
	return &ArchiveError{Path: path, What: what, Problems: p.list}
}

// mib prints a byte count for a message.
func mib(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
