package bundle

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// zipBytes writes entries (Raw entries as given, others deflated through
// the streaming writer, which puts their sizes in a data descriptor) and
// returns the archive.
func zipBytes(t testing.TB, entries []entry) []byte {
	t.Helper()
	return mustRead(t, writeZip(t, t.TempDir(), "a.mkz", entries))
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// localHeaderOf returns the offset of the local header that carries name.
func localHeaderOf(t testing.TB, data []byte, name string) int {
	t.Helper()
	for i := 0; i+localLen <= len(data); i++ {
		if binary.LittleEndian.Uint32(data[i:]) != localSignature {
			continue
		}
		n := int(binary.LittleEndian.Uint16(data[i+26:]))
		if i+localLen+n <= len(data) && string(data[i+localLen:i+localLen+n]) == name {
			return i
		}
	}
	t.Fatalf("no local header for %q", name)
	return -1
}

// centralRecordOf returns the offset of the central-directory record of name.
func centralRecordOf(t testing.TB, data []byte, name string) int {
	t.Helper()
	for i := 0; i+centralLen <= len(data); i++ {
		if binary.LittleEndian.Uint32(data[i:]) != centralSignature {
			continue
		}
		n := int(binary.LittleEndian.Uint16(data[i+28:]))
		if i+centralLen+n <= len(data) && string(data[i+centralLen:i+centralLen+n]) == name {
			return i
		}
	}
	t.Fatalf("no central record for %q", name)
	return -1
}

// openBytes writes data as an archive and opens it as a bundle.
func openBytes(t testing.TB, data []byte) error {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.mkz")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p)
	return err
}

// wantProblem asserts err is an *ArchiveError holding a problem of kind
// for entry (and, when field is not FieldNone, that field).
func wantProblem(t testing.TB, err error, kind ProblemKind, entryName string, field HeaderField) Problem {
	t.Helper()
	var ae *ArchiveError
	if !errors.As(err, &ae) {
		t.Fatalf("got %T %v, want *ArchiveError", err, err)
	}
	for _, p := range ae.Problems {
		if p.Kind == kind && p.Entry == entryName && (field == FieldNone || p.Field == field) {
			return p
		}
	}
	t.Fatalf("%v: no problem of kind %d for %q (field %v); problems %+v", err, kind, entryName, field, ae.Problems)
	return Problem{}
}

const victim = "assets/t.txt"

// storedVictim is a stored entry with its sizes in its local header.
func storedVictim() entry {
	data := []byte("truthful contents")
	return entry{Name: victim, Raw: true, Method: zip.Store, Data: data,
		CRC: crc32.ChecksumIEEE(data), Declared: uint64(len(data))}
}

func TestZipLocalHeaderMustMatchCentralDirectory(t *testing.T) {
	base := zipBytes(t, append(basicEntries(), storedVictim()))
	if err := openBytes(t, base); err != nil {
		t.Fatalf("the unmodified archive is refused: %v", err)
	}
	cases := []struct {
		name  string
		field HeaderField
		patch func(b []byte, at int)
	}{
		{"name", FieldName, func(b []byte, at int) { b[at+localLen+len(victim)-1] = 'X' }},
		{"method", FieldMethod, func(b []byte, at int) { binary.LittleEndian.PutUint16(b[at+8:], methodDeflate) }},
		{"flags", FieldFlags, func(b []byte, at int) { binary.LittleEndian.PutUint16(b[at+6:], 0x0800) }},
		{"crc", FieldCRC, func(b []byte, at int) { b[at+14] ^= 0x5a }},
		{"compressed size", FieldCompressedSize, func(b []byte, at int) { b[at+18]-- }},
		{"size", FieldSize, func(b []byte, at int) { b[at+22]++ }},
		{"signature", FieldSignature, func(b []byte, at int) { b[at] = 'Q' }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := bytes.Clone(base)
			c.patch(b, localHeaderOf(t, base, victim))
			p := wantProblem(t, openBytes(t, b), ProblemLocalHeader, victim, c.field)
			t.Logf("%s", p)
		})
	}
}

func TestZipDataDescriptorMustMatchCentralDirectory(t *testing.T) {
	// The streaming writer leaves the local sizes zero, sets the
	// descriptor flag and writes the sizes after the data.
	data := []byte("streamed contents, streamed contents")
	base := zipBytes(t, append(basicEntries(), entry{Name: victim, Data: data}))
	if err := openBytes(t, base); err != nil {
		t.Fatalf("the unmodified archive is refused: %v", err)
	}
	at := localHeaderOf(t, base, victim)
	if binary.LittleEndian.Uint16(base[at+6:])&flagDescriptor == 0 {
		t.Fatal("the writer did not use a data descriptor")
	}
	c := centralRecordOf(t, base, victim)
	csize := int(binary.LittleEndian.Uint32(base[c+20:]))
	desc := at + localLen + len(victim) + int(binary.LittleEndian.Uint16(base[at+28:])) + csize
	if binary.LittleEndian.Uint32(base[desc:]) != descriptorSignature {
		t.Fatal("no descriptor where expected")
	}
	b := bytes.Clone(base)
	b[desc+8]++ // the descriptor's compressed size
	wantProblem(t, openBytes(t, b), ProblemLocalHeader, victim, FieldDataDescriptor)

	// A local CRC that is neither zero nor the central one is refused
	// even with the descriptor flag.
	b = bytes.Clone(base)
	binary.LittleEndian.PutUint32(b[at+14:], 0x12345678)
	wantProblem(t, openBytes(t, b), ProblemLocalHeader, victim, FieldCRC)
}

func TestZipRefusesZIP64InLocalHeaderAlone(t *testing.T) {
	// A sentinel size in the local header only.
	base := zipBytes(t, append(basicEntries(), storedVictim()))
	b := bytes.Clone(base)
	binary.LittleEndian.PutUint32(b[localHeaderOf(t, b, victim)+22:], sentinel32)
	wantProblem(t, openBytes(t, b), ProblemZIP64, victim, FieldNone)

	// A ZIP64 extra field in the local header only: the entry carries a
	// harmless extra record in both headers, and the local one is renamed.
	e := storedVictim()
	e.Extra = []byte{0x55, 0x54, 0x05, 0x00, 1, 0, 0, 0, 0}
	base = zipBytes(t, append(basicEntries(), e))
	if err := openBytes(t, base); err != nil {
		t.Fatalf("the unmodified archive is refused: %v", err)
	}
	b = bytes.Clone(base)
	binary.LittleEndian.PutUint16(b[localHeaderOf(t, b, victim)+localLen+len(victim):], zip64ExtraID)
	wantProblem(t, openBytes(t, b), ProblemZIP64, victim, FieldNone)
}

func TestZipRefusesSharedLocalHeaderAndOverlap(t *testing.T) {
	// Two central records pointing at one local header.
	twin := storedVictim()
	twin.Name = "assets/u.txt"
	base := zipBytes(t, append(basicEntries(), storedVictim(), twin))
	b := bytes.Clone(base)
	c := centralRecordOf(t, b, twin.Name)
	binary.LittleEndian.PutUint32(b[c+42:], uint32(localHeaderOf(t, b, victim)))
	p := wantProblem(t, openBytes(t, b), ProblemOverlap, twin.Name, FieldNone)
	if p.Other != victim {
		t.Errorf("shared header names %q as the other entry, want %q", p.Other, victim)
	}

	// An entry hidden inside another's bytes: the outer entry's data is a
	// complete local header and data for the inner one, and the inner
	// entry's central record points there.
	inner := []byte("inner contents.")
	name := "assets/u.txt"
	hidden := make([]byte, localLen, localLen+len(name)+len(inner))
	binary.LittleEndian.PutUint32(hidden[0:], localSignature)
	binary.LittleEndian.PutUint16(hidden[4:], 20)
	binary.LittleEndian.PutUint32(hidden[14:], crc32.ChecksumIEEE(inner))
	binary.LittleEndian.PutUint32(hidden[18:], uint32(len(inner)))
	binary.LittleEndian.PutUint32(hidden[22:], uint32(len(inner)))
	binary.LittleEndian.PutUint16(hidden[26:], uint16(len(name)))
	hidden = append(append(hidden, name...), inner...)
	outer := entry{Name: victim, Raw: true, Method: zip.Store, Data: hidden,
		CRC: crc32.ChecksumIEEE(hidden), Declared: uint64(len(hidden))}
	innerEntry := entry{Name: name, Raw: true, Method: zip.Store, Data: inner,
		CRC: crc32.ChecksumIEEE(inner), Declared: uint64(len(inner))}
	base = zipBytes(t, append(basicEntries(), outer, innerEntry))
	if err := openBytes(t, base); err != nil {
		t.Fatalf("the unmodified archive is refused: %v", err)
	}
	b = bytes.Clone(base)
	c = centralRecordOf(t, b, name)
	outerAt := localHeaderOf(t, b, victim)
	binary.LittleEndian.PutUint32(b[c+42:], uint32(outerAt+localLen+len(victim)))
	p = wantProblem(t, openBytes(t, b), ProblemOverlap, name, FieldNone)
	if p.Other != victim {
		t.Errorf("overlap names %q as the other entry, want %q", p.Other, victim)
	}
}

func TestZipCentralDirectoryCountMustMatchEndRecord(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lie.mkz")
	// Under the cap but more than claimed.
	writeCountLie(t, p, 50, 5)
	_, err := Open(p)
	wantProblem(t, err, ProblemNotArchive, "", FieldNone)

	// Over the cap while the end record claims fewer: refused on the count
	// of records read.
	lim := DefaultLimits
	lim.Entries = 20
	_, err = OpenLimits(p, lim)
	wantProblem(t, err, ProblemTooManyEntries, "", FieldNone)
}
