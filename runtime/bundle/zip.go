package bundle

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Zip record signatures, sizes and field values markii reads itself.
// markii walks the central directory and checks every local header on its
// own rather than through archive/zip, so that the entry cap is enforced
// while records are read (archive/zip reads and allocates every record
// before a caller can count them) and so that the bytes markii inflates
// are the bytes every other tool sees.
const (
	eocdSignature       = 0x06054b50
	eocdLen             = 22
	zip64LocatorSig     = 0x07064b50
	zip64LocatorLen     = 20
	centralSignature    = 0x02014b50
	centralLen          = 46
	localSignature      = 0x04034b50
	localLen            = 30
	descriptorSignature = 0x08074b50
	zip64ExtraID        = 0x0001
	methodStore         = 0
	methodDeflate       = 8
	flagEncrypted       = 0x1
	flagDescriptor      = 0x8
	unixTypeMask        = 0xF000
	unixSymlink         = 0xA000
	unixRegular         = 0x8000
	unixDirectory       = 0x4000
	sentinel16          = 0xFFFF
	sentinel32          = 0xFFFFFFFF
	maxEOCDCommentBytes = 0xFFFF
	// maxNameBytes caps an entry name; longer names are refused before
	// they are kept, so names cannot hold more memory than the entries.
	maxNameBytes = 4096
)

// ReadZip reads a zip archive at path into an in-memory snapshot under lim.
// Its size on disk is checked before anything is read; the central
// directory is walked record by record and counted against lim.Entries as
// it is read; every entry's name, type, method and declared size are
// checked, and its local header is checked against its central record,
// before anything is inflated; the inflated bytes are counted and
// CRC-checked. Only the snapshot's bytes are held in memory, never the
// archive whole. Any problem refuses the whole archive with an
// *ArchiveError listing every offender. what ("bundle" or "pack") names
// the archive's kind in messages.
func ReadZip(path, what string, lim Limits) (*Files, error) {
	f, size, err := openArchiveFile(path, what, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readZip(path, what, f, size, lim)
}

// openArchiveFile opens a regular file of at most lim.ArchiveBytes,
// checking its size on the open handle before reading a byte.
func openArchiveFile(path, what string, lim Limits) (*os.File, int64, error) {
	// O_NONBLOCK: a FIFO named like an archive must not block the open.
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, 0, err
	case !info.Mode().IsRegular():
		f.Close()
		return nil, 0, archiveError(path, what, ProblemNotArchive, "it is not a regular file")
	case info.Size() > lim.ArchiveBytes:
		f.Close()
		return nil, 0, archiveError(path, what, ProblemTooLarge,
			"the archive is %d bytes, over the %s limit", info.Size(), mib(lim.ArchiveBytes))
	}
	return f, info.Size(), nil
}

// readZipBytes vets and inflates an archive already in memory.
func readZipBytes(path, what string, data []byte, lim Limits) (*Files, error) {
	return readZip(path, what, bytes.NewReader(data), int64(len(data)), lim)
}

// readZip vets and inflates the size-byte archive r.
func readZip(path, what string, r io.ReaderAt, size int64, lim Limits) (*Files, error) {
	end, err := readDirectoryEnd(r, size, lim)
	if err != nil {
		return nil, wrapIO(path, what, err)
	}
	entries, err := readCentralDirectory(r, end, lim)
	if err != nil {
		return nil, wrapIO(path, what, err)
	}
	files, offenders := vetEntries(entries, lim)
	if len(offenders) > 0 {
		return nil, &ArchiveError{Path: path, What: what, Problems: offenders}
	}
	if offenders := vetLocalHeaders(r, end, entries); len(offenders) > 0 {
		return nil, &ArchiveError{Path: path, What: what, Problems: offenders}
	}
	results := inflateAll(r, files)
	out := newFiles()
	var p problems
	for i, e := range files {
		if r := results[i]; r.problem != "" {
			p.add(ProblemContents, e.name, "entry %s %s", quote(e.name), r.problem)
		} else {
			out.put(e.clean, r.data)
		}
	}
	if err := p.err(path, what); err != nil {
		return nil, err
	}
	return out, nil
}

// structureError is one problem of the archive as a whole, found while
// reading its directory.
type structureError struct {
	kind ProblemKind
	text string
}

func (e *structureError) Error() string { return e.text }

func structural(k ProblemKind, format string, a ...any) error {
	return &structureError{kind: k, text: fmt.Sprintf(format, a...)}
}

// wrapIO turns a structureError into an *ArchiveError; an I/O error from
// the file itself is returned as it is.
func wrapIO(path, what string, err error) error {
	var se *structureError
	if errors.As(err, &se) {
		return archiveError(path, what, se.kind, "%s", se.text)
	}
	return fmt.Errorf("reading the archive: %w", err)
}

// directoryEnd is what the end-of-central-directory record says.
type directoryEnd struct {
	at      int64 // offset of the record itself
	count   int   // entries the record claims
	cdStart int64
	cdSize  int64
}

// readDirectoryEnd finds the end-of-central-directory record and refuses
// ZIP64 (sentinel values or a ZIP64 locator), split archives, an entry
// count over the cap, and a central directory that does not end where the
// record begins.
func readDirectoryEnd(r io.ReaderAt, size int64, lim Limits) (directoryEnd, error) {
	tailLen := min(size, eocdLen+maxEOCDCommentBytes+zip64LocatorLen)
	tail := make([]byte, tailLen)
	if _, err := r.ReadAt(tail, size-tailLen); err != nil && err != io.EOF {
		return directoryEnd{}, err
	}
	at := findDirectoryEnd(tail)
	if at < 0 {
		return directoryEnd{}, structural(ProblemNotArchive, "it is not a zip archive (no end-of-central-directory record)")
	}
	if at >= zip64LocatorLen && binary.LittleEndian.Uint32(tail[at-zip64LocatorLen:]) == zip64LocatorSig {
		return directoryEnd{}, structural(ProblemZIP64, "it is a ZIP64 archive, which markii does not open")
	}
	rec := parseEndRecord(tail[at+4:])
	if err := rec.refusal(lim); err != nil {
		return directoryEnd{}, err
	}
	end := directoryEnd{at: size - tailLen + int64(at), count: int(rec.count), cdStart: int64(rec.cdStart), cdSize: int64(rec.cdSize)}
	if end.cdStart+end.cdSize != end.at {
		return directoryEnd{}, structural(ProblemNotArchive,
			"its zip structure is damaged (the central directory does not end where the end record begins)")
	}
	return end, nil
}

// endRecord is the fields of an end-of-central-directory record.
type endRecord struct {
	disk, cdDisk, onDisk, count uint16
	cdSize, cdStart             uint32
}

// parseEndRecord reads an end-of-central-directory record after its
// signature.
func parseEndRecord(rec []byte) endRecord {
	return endRecord{
		disk:    binary.LittleEndian.Uint16(rec[0:]),
		cdDisk:  binary.LittleEndian.Uint16(rec[2:]),
		onDisk:  binary.LittleEndian.Uint16(rec[4:]),
		count:   binary.LittleEndian.Uint16(rec[6:]),
		cdSize:  binary.LittleEndian.Uint32(rec[8:]),
		cdStart: binary.LittleEndian.Uint32(rec[12:]),
	}
}

// refusal is why markii does not open an archive with this end record:
// ZIP64 sentinel values, a split archive or an entry count over the cap.
func (e endRecord) refusal(lim Limits) error {
	switch {
	case e.onDisk == sentinel16 || e.count == sentinel16 || e.cdSize == sentinel32 || e.cdStart == sentinel32:
		return structural(ProblemZIP64, "it uses ZIP64 sentinel values, which markii does not open")
	case e.disk != 0 || e.cdDisk != 0 || e.onDisk != e.count:
		return structural(ProblemSplit, "it is a split (multi-part) archive")
	case int(e.count) > lim.Entries:
		return structural(ProblemTooManyEntries, "it has %d entries, over the limit of %d", e.count, lim.Entries)
	}
	return nil
}

// findDirectoryEnd returns the offset of the last end-of-central-directory
// record whose comment fits in data, or -1.
func findDirectoryEnd(data []byte) int {
	lowest := len(data) - eocdLen - maxEOCDCommentBytes
	if lowest < 0 {
		lowest = 0
	}
	for i := len(data) - eocdLen; i >= lowest; i-- {
		if binary.LittleEndian.Uint32(data[i:]) != eocdSignature {
			continue
		}
		comment := int(binary.LittleEndian.Uint16(data[i+20:]))
		if i+eocdLen+comment <= len(data) {
			return i
		}
	}
	return -1
}

// zipEntry is one central-directory record, as markii needs it.
type zipEntry struct {
	name          string
	flags         uint16
	method        uint16
	crc           uint32
	csize         uint32
	usize         uint32
	zip64Extra    bool
	externalAttrs uint32
	localAt       int64
	// Set by vetEntries for a regular file.
	clean string
	// Set by vetLocalHeaders: where the entry's data begins.
	dataAt int64
}

// readCentralDirectory reads the central directory record by record. The
// entry cap is checked before each record is kept, whatever the end record
// claims, so a lying count cannot make markii hold more records than the
// cap; a directory that holds other than the claimed count is refused.
func readCentralDirectory(r io.ReaderAt, end directoryEnd, lim Limits) ([]*zipEntry, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(r, end.cdStart, end.cdSize), 64<<10)
	entries := make([]*zipEntry, 0, end.count)
	var fixed [centralLen]byte
	var buf []byte
	for n := 0; ; n++ {
		if _, err := io.ReadFull(br, fixed[:1]); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if n >= lim.Entries {
			return nil, structural(ProblemTooManyEntries, "it has more than %d entries", lim.Entries)
		}
		e, err := readCentralRecord(br, n, &fixed, &buf)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	if len(entries) != end.count {
		return nil, structural(ProblemNotArchive,
			"its zip structure is damaged (the central directory holds %d entries, the end record says %d)", len(entries), end.count)
	}
	return entries, nil
}

// readCentralRecord reads the rest of central-directory record n, whose
// first byte is in fixed already; buf is scratch space for its name and
// extra field.
func readCentralRecord(br *bufio.Reader, n int, fixed *[centralLen]byte, buf *[]byte) (*zipEntry, error) {
	if _, err := io.ReadFull(br, fixed[1:]); err != nil {
		return nil, damagedDirectory(err)
	}
	h := fixed[:]
	if binary.LittleEndian.Uint32(h) != centralSignature {
		return nil, structural(ProblemNotArchive, "its zip structure is damaged (record %d of the central directory has no signature)", n+1)
	}
	nameLen := int(binary.LittleEndian.Uint16(h[28:]))
	extraLen := int(binary.LittleEndian.Uint16(h[30:]))
	commentLen := int(binary.LittleEndian.Uint16(h[32:]))
	if nameLen > maxNameBytes {
		return nil, structural(ProblemName, "record %d of the central directory has a %d-byte name, over the limit of %d", n+1, nameLen, maxNameBytes)
	}
	*buf = slices.Grow((*buf)[:0], nameLen+extraLen)[:nameLen+extraLen]
	if _, err := io.ReadFull(br, *buf); err != nil {
		return nil, damagedDirectory(err)
	}
	name, extra := (*buf)[:nameLen], (*buf)[nameLen:]
	if _, err := br.Discard(commentLen); err != nil {
		return nil, damagedDirectory(err)
	}
	return &zipEntry{
		name:          string(name),
		flags:         binary.LittleEndian.Uint16(h[8:]),
		method:        binary.LittleEndian.Uint16(h[10:]),
		crc:           binary.LittleEndian.Uint32(h[16:]),
		csize:         binary.LittleEndian.Uint32(h[20:]),
		usize:         binary.LittleEndian.Uint32(h[24:]),
		zip64Extra:    hasZip64Extra(extra),
		externalAttrs: binary.LittleEndian.Uint32(h[38:]),
		localAt:       int64(binary.LittleEndian.Uint32(h[42:])),
	}, nil
}

func damagedDirectory(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return structural(ProblemNotArchive, "its zip structure is damaged (the central directory is cut short)")
	}
	return err
}

// hasZip64Extra reports whether a zip extra field block holds a ZIP64
// extended-information record.
func hasZip64Extra(extra []byte) bool {
	for len(extra) >= 4 {
		id := binary.LittleEndian.Uint16(extra)
		size := int(binary.LittleEndian.Uint16(extra[2:]))
		if id == zip64ExtraID {
			return true
		}
		if 4+size > len(extra) {
			return false
		}
		extra = extra[4+size:]
	}
	return false
}

// vetEntries checks every central-directory entry and returns the regular
// files to inflate, or the list of offenders. Directory entries are
// validated and skipped.
func vetEntries(entries []*zipEntry, lim Limits) ([]*zipEntry, []Problem) {
	v := &entryVet{lim: lim, seen: map[string]string{}, dirs: map[string]bool{}}
	for _, e := range entries {
		if !v.add(e) {
			break
		}
	}
	for _, e := range v.out {
		if v.dirs[e.clean] {
			v.p.add(ProblemFileAndDirectory, e.name, "entry %s is both a file and a directory", quote(e.name))
		}
	}
	if len(v.p.list) > 0 {
		return nil, v.p.list
	}
	return v.out, nil
}

// entryVet is vetEntries' state: the problems found, the files kept, the
// clean paths seen (to the entry name that claimed each), the directories
// the entries make and the declared total so far.
type entryVet struct {
	lim      Limits
	p        problems
	out      []*zipEntry
	seen     map[string]string
	dirs     map[string]bool
	declared uint64
}

// add vets one entry and keeps it when it is an acceptable regular file.
// It reports false when the declared total goes over the limit, after
// which no entry is read.
func (v *entryVet) add(e *zipEntry) bool {
	isDir := strings.HasSuffix(e.name, "/")
	clean, ok := v.claim(e, isDir)
	if !ok {
		return true
	}
	for d := parentDir(clean); d != ""; d = parentDir(d) {
		v.dirs[d] = true
	}
	if isDir {
		v.dirs[clean] = true
		return true
	}
	v.declared += uint64(e.usize)
	if v.declared > uint64(v.lim.TotalBytes) {
		v.p.add(ProblemTooLarge, e.name, "entry %s brings the declared total over the %s limit", quote(e.name), mib(v.lim.TotalBytes))
		return false
	}
	e.clean = clean
	v.out = append(v.out, e)
	return true
}

// claim is an entry's clean path when its name is a clean path no other
// entry has claimed and its fields are acceptable; else the problem is
// recorded.
func (v *entryVet) claim(e *zipEntry, isDir bool) (string, bool) {
	name := e.name
	clean, err := CleanPath(strings.TrimSuffix(name, "/"))
	if err != nil {
		var pe *PathError
		errors.As(err, &pe)
		v.p.add(ProblemName, name, "entry %s escapes or is malformed (%s)", quote(name), pe.Reason)
		return "", false
	}
	if prev, dup := v.seen[clean]; dup {
		v.p.addProblem(Problem{Kind: ProblemDuplicate, Entry: name, Other: prev,
			text: fmt.Sprintf("entries %s and %s are the same path %s", quote(prev), quote(name), quote(clean))})
		return "", false
	}
	v.seen[clean] = name
	if kind, problem := entryProblem(e, isDir, v.lim); problem != "" {
		v.p.add(kind, name, "entry %s %s", quote(name), problem)
		return "", false
	}
	return clean, true
}

// entryProblem checks one entry's central-directory fields; an empty
// clause means acceptable.
func entryProblem(e *zipEntry, isDir bool, lim Limits) (ProblemKind, string) {
	if kind, problem := fileTypeProblem(e.externalAttrs); problem != "" {
		return kind, problem
	}
	if kind, problem := formatProblem(e); problem != "" {
		return kind, problem
	}
	switch {
	case isDir && e.usize != 0:
		return ProblemDirectoryContents, "is a directory with contents"
	case int64(e.usize) > lim.EntryBytes:
		return ProblemTooLarge, fmt.Sprintf("declares %d bytes, over the %s limit", e.usize, mib(lim.EntryBytes))
	}
	return 0, ""
}

// fileTypeProblem refuses an entry whose Unix file type (in its external
// attributes) is a symbolic link or a special file.
func fileTypeProblem(externalAttrs uint32) (ProblemKind, string) {
	switch (externalAttrs >> 16) & unixTypeMask {
	case 0, unixRegular, unixDirectory:
		return 0, ""
	case unixSymlink:
		return ProblemLink, "is a symbolic link"
	}
	return ProblemSpecialFile, "is a special file"
}

// formatProblem refuses an entry markii cannot read: ZIP64 fields,
// encryption, a method but stored and deflate.
func formatProblem(e *zipEntry) (ProblemKind, string) {
	switch {
	case e.csize == sentinel32 || e.usize == sentinel32 || e.zip64Extra:
		return ProblemZIP64, "uses ZIP64 fields, which markii does not open"
	case e.flags&flagEncrypted != 0:
		return ProblemEncrypted, "is encrypted"
	case e.method != methodStore && e.method != methodDeflate:
		return ProblemMethod, fmt.Sprintf("uses compression method %d (only stored and deflate are allowed)", e.method)
	}
	return 0, ""
}

// vetLocalHeaders reads every entry's local header and checks it against
// the entry's central record: the signature, the name, the method, the
// flags, the CRC-32 and both sizes (from the data descriptor when the
// flags say the sizes follow the data), and no ZIP64 fields of its own. It
// then refuses two entries that share a local header or whose bytes
// overlap, and any entry that runs into the central directory. It sets
// each entry's dataAt.
func vetLocalHeaders(r io.ReaderAt, end directoryEnd, entries []*zipEntry) []Problem {
	var p problems
	byOffset := slices.Clone(entries)
	slices.SortStableFunc(byOffset, func(a, b *zipEntry) int { return cmp.Compare(a.localAt, b.localAt) })
	type extent struct {
		e    *zipEntry
		stop int64
	}
	extents := make([]extent, 0, len(entries))
	var buf []byte
	for i, e := range byOffset {
		if i > 0 && byOffset[i-1].localAt == e.localAt {
			first := byOffset[i-1]
			p.addProblem(Problem{Kind: ProblemOverlap, Entry: e.name, Other: first.name,
				text: fmt.Sprintf("entries %s and %s share one local header", quote(first.name), quote(e.name))})
			continue
		}
		stop, field, clause := checkLocalHeader(r, end, e, &buf)
		if clause != "" {
			kind := ProblemLocalHeader
			if field == FieldNone {
				kind = ProblemZIP64
			}
			p.addProblem(Problem{Kind: kind, Entry: e.name, Field: field,
				text: fmt.Sprintf("entry %s %s", quote(e.name), clause)})
			continue
		}
		extents = append(extents, extent{e: e, stop: stop})
	}
	for i := 1; i < len(extents); i++ {
		prev, cur := extents[i-1], extents[i]
		if cur.e.localAt < prev.stop {
			p.addProblem(Problem{Kind: ProblemOverlap, Entry: cur.e.name, Other: prev.e.name,
				text: fmt.Sprintf("entries %s and %s overlap", quote(prev.e.name), quote(cur.e.name))})
		}
	}
	return p.list
}

// checkLocalHeader checks one entry's local header and returns where the
// entry's bytes (data descriptor included) stop, or the disagreeing field
// and a clause describing the problem. FieldNone with a clause is a ZIP64
// local header.
func checkLocalHeader(r io.ReaderAt, end directoryEnd, e *zipEntry, buf *[]byte) (int64, HeaderField, string) {
	lh, field, clause := readLocalHeader(r, end, e, buf)
	if clause != "" {
		return 0, field, clause
	}
	if lh.usesZIP64() {
		return 0, FieldNone, "uses ZIP64 fields in its local header, which markii does not open"
	}
	if field, clause := compareLocal(lh.name, lh.method, lh.flags, e); clause != "" {
		return 0, field, clause
	}
	// With the descriptor flag a writer may leave the local fields zero and
	// write them after the data; otherwise they must match.
	lazy := lh.flags&flagDescriptor != 0
	if field, clause := compareSizes(lh.crc, lh.csize, lh.usize, e, lazy); clause != "" {
		return 0, field, clause + " in its local header"
	}
	stop := lh.dataAt + int64(e.csize)
	if stop > end.cdStart {
		return 0, FieldExtent, "has data that runs into the central directory"
	}
	if lazy {
		var clause string
		if stop, clause = checkDescriptor(r, end, e, stop); clause != "" {
			return 0, FieldDataDescriptor, clause
		}
	}
	e.dataAt = lh.dataAt
	return stop, FieldNone, ""
}

// localHeader is the fields of an entry's local header that are checked
// against its central record, and where its data begins.
type localHeader struct {
	flags, method     uint16
	crc, csize, usize uint32
	name              string
	zip64Extra        bool
	dataAt            int64
}

// usesZIP64 reports whether the local header has ZIP64 sentinel sizes or
// a ZIP64 extra field.
func (lh localHeader) usesZIP64() bool {
	return lh.csize == sentinel32 || lh.usize == sentinel32 || lh.zip64Extra
}

// readLocalHeader reads entry e's local header, which must lie before the
// central directory and start with its signature; buf is scratch space
// for its name and extra field.
func readLocalHeader(r io.ReaderAt, end directoryEnd, e *zipEntry, buf *[]byte) (localHeader, HeaderField, string) {
	var h [localLen]byte
	if e.localAt+localLen > end.cdStart {
		return localHeader{}, FieldExtent, "has its local header outside the archive's entries"
	}
	if _, err := r.ReadAt(h[:], e.localAt); err != nil {
		return localHeader{}, FieldExtent, "has an unreadable local header"
	}
	if binary.LittleEndian.Uint32(h[:]) != localSignature {
		return localHeader{}, FieldSignature, "has no local header where the central directory says"
	}
	nameLen := int64(binary.LittleEndian.Uint16(h[26:]))
	extraLen := int64(binary.LittleEndian.Uint16(h[28:]))
	lh := localHeader{
		flags:  binary.LittleEndian.Uint16(h[6:]),
		method: binary.LittleEndian.Uint16(h[8:]),
		crc:    binary.LittleEndian.Uint32(h[14:]),
		csize:  binary.LittleEndian.Uint32(h[18:]),
		usize:  binary.LittleEndian.Uint32(h[22:]),
		dataAt: e.localAt + localLen + nameLen + extraLen,
	}
	if lh.dataAt > end.cdStart {
		return localHeader{}, FieldExtent, "has a local header that runs into the central directory"
	}
	*buf = slices.Grow((*buf)[:0], int(nameLen+extraLen))[:nameLen+extraLen]
	if _, err := r.ReadAt(*buf, e.localAt+localLen); err != nil {
		return localHeader{}, FieldExtent, "has an unreadable local header"
	}
	lh.name, lh.zip64Extra = string((*buf)[:nameLen]), hasZip64Extra((*buf)[nameLen:])
	return lh, FieldNone, ""
}

// compareLocal compares a local header's name, method and flags with the
// central record's, and returns the first that differs with a clause
// describing it.
func compareLocal(name string, method, flags uint16, e *zipEntry) (HeaderField, string) {
	switch {
	case name != e.name:
		return FieldName, fmt.Sprintf("has the name %s in its local header", quote(name))
	case method != e.method:
		return FieldMethod, fmt.Sprintf("has compression method %d in its local header but %d in the central directory", method, e.method)
	case flags != e.flags:
		return FieldFlags, fmt.Sprintf("has flags %#04x in its local header but %#04x in the central directory", flags, e.flags)
	}
	return FieldNone, ""
}

// checkDescriptor checks the data descriptor after an entry's data, at
// stop, and returns where it ends, or a clause describing the problem.
func checkDescriptor(r io.ReaderAt, end directoryEnd, e *zipEntry, stop int64) (int64, string) {
	var d [16]byte
	n, _ := r.ReadAt(d[:min(16, end.cdStart-stop)], stop)
	desc := d[:n]
	if len(desc) >= 4 && binary.LittleEndian.Uint32(desc) == descriptorSignature {
		desc = desc[4:]
		stop += 4
	}
	if len(desc) < 12 {
		return 0, "has no data descriptor after its data"
	}
	dcrc := binary.LittleEndian.Uint32(desc)
	dcsize := binary.LittleEndian.Uint32(desc[4:])
	dusize := binary.LittleEndian.Uint32(desc[8:])
	if _, clause := compareSizes(dcrc, dcsize, dusize, e, false); clause != "" {
		return 0, clause + " in its data descriptor"
	}
	return stop + 12, ""
}

// compareSizes compares a header's CRC-32 and sizes with the central
// record's; with lazy, zero is also accepted for each.
func compareSizes(crc, csize, usize uint32, e *zipEntry, lazy bool) (HeaderField, string) {
	differs := func(got, want uint32) bool { return got != want && !(lazy && got == 0) }
	switch {
	case differs(crc, e.crc):
		return FieldCRC, fmt.Sprintf("has CRC-32 %08x, not the central directory's %08x,", crc, e.crc)
	case differs(csize, e.csize):
		return FieldCompressedSize, fmt.Sprintf("has compressed size %d, not the central directory's %d,", csize, e.csize)
	case differs(usize, e.usize):
		return FieldSize, fmt.Sprintf("has size %d, not the central directory's %d,", usize, e.usize)
	}
	return FieldNone, ""
}

// parentDir returns the clean path's parent directory, "" at the top.
func parentDir(clean string) string {
	i := strings.LastIndexByte(clean, '/')
	if i < 0 {
		return ""
	}
	return clean[:i]
}

type inflated struct {
	data    []byte
	problem string
}

// inflateAll inflates and checks every vetted entry, spreading the work over
// the available CPUs. Each entry yields at most its declared size, and the
// declared sizes were already checked against the per-entry and total caps,
// so the inflated total cannot pass the total cap either.
func inflateAll(r io.ReaderAt, files []*zipEntry) []inflated {
	results := make([]inflated, len(files))
	workers := min(runtime.GOMAXPROCS(0), 4, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			z := &inflater{r: r}
			for i := range next {
				results[i].data, results[i].problem = z.inflate(files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// inflater decompresses entries of one archive, reusing one buffered
// reader and one deflate reader.
type inflater struct {
	r  io.ReaderAt
	br *bufio.Reader
	fr io.ReadCloser
}

// inflate reads one entry, whose local header was vetted, never producing
// more than its declared size, and verifies its CRC-32 itself. It returns
// a problem clause on failure.
func (z *inflater) inflate(e *zipEntry) ([]byte, string) {
	declared := int64(e.usize)
	section := io.NewSectionReader(z.r, e.dataAt, int64(e.csize))
	var src io.Reader = section
	if e.method == methodDeflate {
		if z.br == nil {
			z.br = bufio.NewReaderSize(section, 32<<10)
		} else {
			z.br.Reset(section)
		}
		if z.fr == nil {
			z.fr = flate.NewReader(z.br)
		} else if err := z.fr.(flate.Resetter).Reset(z.br, nil); err != nil {
			return nil, "has damaged compressed data"
		}
		src = z.fr
	}
	out, err := readExactly(src, declared)
	switch {
	case errors.Is(err, errTooLong):
		return nil, fmt.Sprintf("inflates to more than its declared %d bytes", declared)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Sprintf("inflates to %d bytes, not its declared %d", len(out), declared)
	case err != nil:
		return nil, "has damaged compressed data"
	case crc32.ChecksumIEEE(out) != e.crc:
		return nil, "fails its CRC-32 check"
	}
	return out, ""
}

var errTooLong = errors.New("more bytes than declared")

// readExactly reads exactly n bytes from r and then checks that r has
// nothing more. Memory grows with the bytes actually produced, never with
// the declared size alone.
func readExactly(r io.Reader, n int64) ([]byte, error) {
	const step = 1 << 20
	buf := make([]byte, 0, min(n, step))
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, min(n-int64(len(buf)), int64(cap(buf))))...)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(int64(cap(buf)), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			if int64(len(buf)) < n {
				return buf, io.ErrUnexpectedEOF
			}
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	var probe [1]byte
	for {
		m, err := r.Read(probe[:])
		if m > 0 {
			return buf, errTooLong
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
