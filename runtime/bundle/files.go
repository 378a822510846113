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
// Problems lists every offender found; callers test them with their Kind
// and Entry, never by their text.
type ArchiveError struct {
	// Path is the archive or directory as the caller named it.
	Path string
	// What is "bundle" or "pack".
	What     string
	Problems []Problem
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
	clauses := make([]string, len(p))
	for i, pr := range p {
		clauses[i] = pr.text
	}
	return fmt.Sprintf("%s is not a valid Markii %s: %s%s", e.Path, what, strings.Join(clauses, "; "), more)
}

// Has reports whether e lists a problem of kind k with entry name entry
// ("" matches a problem of the archive as a whole).
func (e *ArchiveError) Has(k ProblemKind, entry string) bool {
	for _, p := range e.Problems {
		if p.Kind == k && p.Entry == entry {
			return true
		}
	}
	return false
}

// ProblemKind says what is wrong with an archive or one of its entries.
type ProblemKind int

// The kinds of problem that refuse an archive or a bundle directory.
const (
	// ProblemNotArchive: not a regular file, not a zip, or a damaged zip
	// structure.
	ProblemNotArchive ProblemKind = iota + 1
	// ProblemTooLarge: the archive, an entry or the total is over a limit.
	ProblemTooLarge
	// ProblemTooManyEntries: more entries than Limits.Entries.
	ProblemTooManyEntries
	// ProblemTooDeep: directories nested deeper than Limits.Depth.
	ProblemTooDeep
	// ProblemZIP64: ZIP64 records, sentinels or extra fields.
	ProblemZIP64
	// ProblemSplit: a multi-part archive.
	ProblemSplit
	// ProblemName: a name the jail refuses.
	ProblemName
	// ProblemDuplicate: two entries with one clean path (Other is the first).
	ProblemDuplicate
	// ProblemFileAndDirectory: a path that is both a file and a directory.
	ProblemFileAndDirectory
	// ProblemLink: a symbolic or hard link.
	ProblemLink
	// ProblemSpecialFile: a device, pipe, socket or other special file.
	ProblemSpecialFile
	// ProblemEncrypted: an encrypted entry.
	ProblemEncrypted
	// ProblemMethod: a compression method other than store and deflate.
	ProblemMethod
	// ProblemDirectoryContents: a directory entry that carries bytes.
	ProblemDirectoryContents
	// ProblemLocalHeader: an entry's local header is missing or disagrees
	// with its central-directory record (Field says where).
	ProblemLocalHeader
	// ProblemOverlap: two entries share a local header or their bytes
	// overlap (Other is the second entry).
	ProblemOverlap
	// ProblemContents: an entry's bytes are damaged, fail their CRC-32 or
	// inflate to other than their declared size.
	ProblemContents
	// ProblemUnreadable: a directory bundle's file could not be opened, or
	// changed while it was read.
	ProblemUnreadable
)

// HeaderField names the local-header field that disagrees with the
// central directory in a ProblemLocalHeader.
type HeaderField int

// The local-header fields checked against the central directory.
const (
	FieldNone HeaderField = iota
	FieldSignature
	FieldName
	FieldMethod
	FieldFlags
	FieldCRC
	FieldCompressedSize
	FieldSize
	FieldDataDescriptor
	FieldExtent
)

// headerFieldNames names each HeaderField.
var headerFieldNames = [...]string{
	FieldNone:           "none",
	FieldSignature:      "signature",
	FieldName:           "name",
	FieldMethod:         "compression method",
	FieldFlags:          "flags",
	FieldCRC:            "CRC-32",
	FieldCompressedSize: "compressed size",
	FieldSize:           "size",
	FieldDataDescriptor: "data descriptor",
	FieldExtent:         "extent",
}

func (f HeaderField) String() string {
	if f < 0 || int(f) >= len(headerFieldNames) {
		return "none"
	}
	return headerFieldNames[f]
}

// Problem is one reason an archive or a bundle directory is refused.
type Problem struct {
	Kind ProblemKind
	// Entry is the offending entry's name as stored in the archive (or its
	// path in a directory); "" for the archive as a whole.
	Entry string
	// Other is the second entry of a pair: the first holder of a
	// duplicate path, or the entry an overlapping one runs into.
	Other string
	// Field is the disagreeing local-header field of a ProblemLocalHeader.
	Field HeaderField
	text  string
}

// String is the problem as a short clause naming its offender.
func (p Problem) String() string { return p.text }

// problems collects the offenders of one archive.
type problems struct{ list []Problem }

// add records a problem of kind k with entry, described by the clause
// format makes.
func (p *problems) add(k ProblemKind, entry, format string, a ...any) {
	p.list = append(p.list, Problem{Kind: k, Entry: entry, text: fmt.Sprintf(format, a...)})
}

// addProblem records a problem built by the caller.
func (p *problems) addProblem(pr Problem) { p.list = append(p.list, pr) }

func (p *problems) err(path, what string) error {
	if len(p.list) == 0 {
		return nil
	}
	return &ArchiveError{Path: path, What: what, Problems: p.list}
}

// archiveError refuses a whole archive for one problem of the archive
// itself.
func archiveError(path, what string, k ProblemKind, format string, a ...any) *ArchiveError {
	var p problems
	p.add(k, "", format, a...)
	return &ArchiveError{Path: path, What: what, Problems: p.list}
}

// mib prints a byte count for a message.
func mib(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
