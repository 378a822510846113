package bundle

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync"
)

// Zip record signatures and sizes used to vet an archive before
// archive/zip parses it.
const (
	eocdSignature       = 0x06054b50
	eocdLen             = 22
	zip64LocatorSig     = 0x07064b50
	zip64LocatorLen     = 20
	zip64ExtraID        = 0x0001
	methodStore         = 0
	methodDeflate       = 8
	flagEncrypted       = 0x1
	unixTypeMask        = 0xF000
	unixSymlink         = 0xA000
	unixRegular         = 0x8000
	unixDirectory       = 0x4000
	sentinel16          = 0xFFFF
	sentinel32          = 0xFFFFFFFF
	maxEOCDCommentBytes = 0xFFFF
)

// ReadZip reads a zip archive at path into an in-memory snapshot under lim.
// Its size on disk is checked before it is read; every entry's name, type,
// method and declared size are checked before anything is inflated; the
// inflated bytes are counted and CRC-checked. Any problem refuses the whole
// archive with an *ArchiveError listing every offender. what ("bundle" or
// "pack") names the archive's kind in messages.
func ReadZip(path, what string, lim Limits) (*Files, error) {
	data, err := readArchiveFile(path, what, lim)
	if err != nil {
		return nil, err
	}
	return readZipBytes(path, what, data, lim)
}

// readArchiveFile reads a regular file of at most lim.ArchiveBytes, checking
// its size on the open handle before reading a byte.
func readArchiveFile(path, what string, lim Limits) ([]byte, error) {
	// O_NONBLOCK: a FIFO named like an archive must not block the open.
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &ArchiveError{Path: path, What: what, Problems: []string{"it is not a regular file"}}
	}
	if info.Size() > lim.ArchiveBytes {
		return nil, &ArchiveError{Path: path, What: what, Problems: []string{
			fmt.Sprintf("the archive is %d bytes, over the %s limit", info.Size(), mib(lim.ArchiveBytes))}}
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading the archive: %w", err)
	}
	return data, nil
}

// readZipBytes vets and inflates an archive already in memory.
func readZipBytes(path, what string, data []byte, lim Limits) (*Files, error) {
	if problem := vetDirectoryEnd(data, lim); problem != "" {
		return nil, &ArchiveError{Path: path, What: what, Problems: []string{problem}}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, &ArchiveError{Path: path, What: what, Problems: []string{"its zip structure is damaged (" + err.Error() + ")"}}
	}
	if len(zr.File) > lim.Entries {
		return nil, &ArchiveError{Path: path, What: what, Problems: []string{
			fmt.Sprintf("it has %d entries, over the limit of %d", len(zr.File), lim.Entries)}}
	}
	files, offenders := vetEntries(zr.File, lim)
	if len(offenders) > 0 {
		return nil, &ArchiveError{Path: path, What: what, Problems: offenders}
	}
	results := inflateAll(data, files)
	out := newFiles()
	var p problems
	for i, e := range files {
		if r := results[i]; r.problem != "" {
			p.add("entry %s %s", quote(e.file.Name), r.problem)
		} else {
			out.put(e.clean, r.data)
		}
	}
	if err := p.err(path, what); err != nil {
		return nil, err
	}
	return out, nil
}

// vetDirectoryEnd finds the end-of-central-directory record and refuses
// ZIP64 (sentinel values or a ZIP64 locator), split archives and an entry
// count over the cap, before archive/zip allocates anything per entry.
func vetDirectoryEnd(data []byte, lim Limits) string {
	at := findDirectoryEnd(data)
	if at < 0 {
		return "it is not a zip archive (no end-of-central-directory record)"
	}
	r := data[at+4:]
	disk := binary.LittleEndian.Uint16(r[0:])
	cdDisk := binary.LittleEndian.Uint16(r[2:])
	onDisk := binary.LittleEndian.Uint16(r[4:])
	count := binary.LittleEndian.Uint16(r[6:])
	size := binary.LittleEndian.Uint32(r[8:])
	offset := binary.LittleEndian.Uint32(r[12:])
	if at >= zip64LocatorLen && binary.LittleEndian.Uint32(data[at-zip64LocatorLen:]) == zip64LocatorSig {
		return "it is a ZIP64 archive, which markii does not open"
	}
	if onDisk == sentinel16 || count == sentinel16 || size == sentinel32 || offset == sentinel32 {
		return "it uses ZIP64 sentinel values, which markii does not open"
	}
	if disk != 0 || cdDisk != 0 || onDisk != count {
		return "it is a split (multi-part) archive"
	}
	if int(count) > lim.Entries {
		return fmt.Sprintf("it has %d entries, over the limit of %d", count, lim.Entries)
	}
	return ""
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

// zipEntry is a vetted regular file entry.
type zipEntry struct {
	file  *zip.File
	clean string
}

// vetEntries checks every central-directory entry and returns the regular
// files to inflate, or the list of offenders. Directory entries are
// validated and skipped.
func vetEntries(entries []*zip.File, lim Limits) ([]zipEntry, []string) {
	var p problems
	var out []zipEntry
	seen := map[string]string{}
	dirs := map[string]bool{}
	var declared uint64
	for _, f := range entries {
		name := f.Name
		isDir := strings.HasSuffix(name, "/")
		clean, err := CleanPath(strings.TrimSuffix(name, "/"))
		if err != nil {
			var pe *PathError
			errors.As(err, &pe)
			p.add("entry %s escapes or is malformed (%s)", quote(name), pe.Reason)
			continue
		}
		if prev, dup := seen[clean]; dup {
			p.add("entries %s and %s are the same path %s", quote(prev), quote(name), quote(clean))
			continue
		}
		seen[clean] = name
		if problem := entryProblem(f, isDir, lim); problem != "" {
			p.add("entry %s %s", quote(name), problem)
			continue
		}
		for d := parentDir(clean); d != ""; d = parentDir(d) {
			dirs[d] = true
		}
		if isDir {
			dirs[clean] = true
			continue
		}
		declared += f.UncompressedSize64
		if declared > uint64(lim.TotalBytes) {
			p.add("entry %s brings the declared total over the %s limit", quote(name), mib(lim.TotalBytes))
			break
		}
		out = append(out, zipEntry{file: f, clean: clean})
	}
	for _, e := range out {
		if dirs[e.clean] {
			p.add("entry %s is both a file and a directory", quote(e.file.Name))
		}
	}
	if len(p.list) > 0 {
		return nil, p.list
	}
	return out, nil
}

// entryProblem checks one entry's header fields; "" means acceptable.
func entryProblem(f *zip.File, isDir bool, lim Limits) string {
	unixType := (f.ExternalAttrs >> 16) & unixTypeMask
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0 || unixType == unixSymlink:
		return "is a symbolic link"
	case mode&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice|fs.ModeIrregular) != 0,
		unixType != 0 && unixType != unixRegular && unixType != unixDirectory:
		return "is a special file"
	case f.CompressedSize == sentinel32 || f.UncompressedSize == sentinel32 || hasZip64Extra(f.Extra):
		return "uses ZIP64 fields, which markii does not open"
	case f.Flags&flagEncrypted != 0:
		return "is encrypted"
	case f.Method != methodStore && f.Method != methodDeflate:
		return fmt.Sprintf("uses compression method %d (only stored and deflate are allowed)", f.Method)
	case isDir && f.UncompressedSize64 != 0:
		return "is a directory with contents"
	case f.UncompressedSize64 > uint64(lim.EntryBytes):
		return fmt.Sprintf("declares %d bytes, over the %s limit", f.UncompressedSize64, mib(lim.EntryBytes))
	}
	return ""
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
func inflateAll(data []byte, files []zipEntry) []inflated {
	results := make([]inflated, len(files))
	workers := min(runtime.GOMAXPROCS(0), 4, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			z := &inflater{data: data}
			for i := range next {
				results[i].data, results[i].problem = z.inflate(files[i].file)
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

// inflater decompresses entries of one in-memory archive, reusing one
// deflate reader.
type inflater struct {
	data []byte
	fr   io.ReadCloser
}

// inflate reads one entry, never producing more than its declared size,
// and verifies its CRC-32 itself. It returns a problem clause on failure.
func (z *inflater) inflate(f *zip.File) ([]byte, string) {
	declared := int64(f.UncompressedSize64)
	off, err := f.DataOffset()
	end := off + int64(f.CompressedSize64)
	if err != nil || off < 0 || end > int64(len(z.data)) || end < off {
		return nil, "has a damaged local header"
	}
	var src io.Reader = bytes.NewReader(z.data[off:end])
	if f.Method == methodDeflate {
		if z.fr == nil {
			z.fr = flate.NewReader(src)
		} else if err := z.fr.(flate.Resetter).Reset(src, nil); err != nil {
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
	case crc32.ChecksumIEEE(out) != f.CRC32:
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
