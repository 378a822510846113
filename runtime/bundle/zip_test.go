package bundle

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenZipBundle(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.mkz", "b.MKZ", "c.mkbundle", "d.MkBundle"} {
		p := writeZip(t, dir, name, append(basicEntries(), entry{Name: "assets/"}))
		b, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Form() != Zip || b.DocumentPath() != "note.mk.md" || !strings.HasPrefix(string(b.Document()), "# Hello") {
			t.Fatalf("%s: form %v doc %q", name, b.Form(), b.Document())
		}
		if got, _ := b.File("./assets//data.txt"); string(got) != "hello" {
			t.Fatalf("%s: asset %q", name, got)
		}
		if b.Files().Len() != 5 {
			t.Fatalf("%s: %d files, want 5 (directory entries skipped)", name, b.Files().Len())
		}
	}
}

func TestZipRefusesEscapingNames(t *testing.T) {
	dir := t.TempDir()
	bad := []string{"../x", "/etc/x", `C:\x`, "a/../../x", `a\..\x`, "c:x", "a/\x00b"}
	entries := basicEntries()
	for _, n := range bad {
		entries = append(entries, entry{Name: n, Data: []byte("evil")})
	}
	p := writeZip(t, dir, "bad.mkz", entries)
	before := treeState(t, filepath.Dir(dir))
	_, err := Open(p)
	wantArchiveError(t, err, p+" is not a valid Markii bundle: ",
		`entry "../x" escapes or is malformed (it contains a ".." segment)`,
		`entry "/etc/x" escapes or is malformed (it is absolute)`,
		`entry "C:\\x" escapes or is malformed (it contains a backslash)`,
		`entry "a/../../x" escapes or is malformed (it contains a ".." segment)`,
		`entry "a\\..\\x" escapes or is malformed (it contains a backslash)`,
		`entry "c:x" escapes or is malformed (it starts with a drive letter)`,
		`entry "a/\x00b" escapes or is malformed (it contains a NUL byte)`)
	assertSameTree(t, filepath.Dir(dir), before)
}

func TestZipRefusesCollidingNames(t *testing.T) {
	dir := t.TempDir()
	entries := append(basicEntries(),
		entry{Name: "./scripts/x.lua", Data: []byte("return 2")},
		entry{Name: "assets//data.txt", Data: []byte("other")},
		entry{Name: "assets/data.txt/inner", Data: []byte("under a file")},
	)
	_, err := Open(writeZip(t, dir, "dup.mkz", entries))
	wantArchiveError(t, err,
		`entries "scripts/x.lua" and "./scripts/x.lua" are the same path "scripts/x.lua"`,
		`entries "assets/data.txt" and "assets//data.txt" are the same path "assets/data.txt"`,
		`entry "assets/data.txt" is both a file and a directory`)
}

func TestZipRefusesSymlinksAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	entries := append(basicEntries(),
		entry{Name: "assets/passwd", Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink | 0o777},
		entry{Name: "assets/fifo", Mode: fs.ModeNamedPipe | 0o644},
	)
	_, err := Open(writeZip(t, dir, "link.mkz", entries))
	wantArchiveError(t, err, `entry "assets/passwd" is a symbolic link`, `entry "assets/fifo" is a special file`)
}

func TestZipRefusesUnsupportedMethodAndEncryption(t *testing.T) {
	dir := t.TempDir()
	e := rawEntry(t, "assets/b.bin", []byte("data"))
	e.Method = 12 // bzip2
	_, err := Open(writeZip(t, dir, "m.mkz", append(basicEntries(), e)))
	wantArchiveError(t, err, `entry "assets/b.bin" uses compression method 12 (only stored and deflate are allowed)`)
}

func TestZipDeclaredBombRefusedBeforeInflating(t *testing.T) {
	dir := t.TempDir()
	// The compressed stream is a megabyte of zeros, but the header declares
	// 300 MiB: refused on the declaration, nothing inflated.
	bomb := rawEntry(t, "assets/bomb.bin", make([]byte, 1<<20))
	bomb.Declared = 300 << 20
	_, err := Open(writeZip(t, dir, "bomb.mkz", append(basicEntries(), bomb)))
	wantArchiveError(t, err, `entry "assets/bomb.bin" declares 314572800 bytes, over the 256 MiB limit`)

	// Many entries each under the cap, together over it.
	lim := DefaultLimits
	lim.TotalBytes = 3 << 20
	var many []entry
	for i := 0; i < 4; i++ {
		many = append(many, rawEntry(t, "assets/part"+string(rune('a'+i)), make([]byte, 1<<20)))
	}
	_, err = OpenLimits(writeZip(t, dir, "many.mkz", append(basicEntries(), many...)), lim)
	wantArchiveError(t, err, `entry "assets/partc" brings the declared total over the 3 MiB limit`)
}

func TestZipUndeclaredBombCaughtWhileInflating(t *testing.T) {
	dir := t.TempDir()
	// 64 MiB of zeros deflate to ~64 KiB; the header claims 1 KiB.
	liar := rawEntry(t, "assets/liar.bin", make([]byte, 64<<20))
	liar.Declared = 1024
	_, err := Open(writeZip(t, dir, "liar.mkz", append(basicEntries(), liar)))
	wantArchiveError(t, err, `entry "assets/liar.bin" inflates to more than its declared 1024 bytes`)

	short := rawEntry(t, "assets/short.bin", []byte("tiny"))
	short.Declared = 4096
	_, err = Open(writeZip(t, dir, "short.mkz", append(basicEntries(), short)))
	wantArchiveError(t, err, `entry "assets/short.bin" inflates to 4 bytes, not its declared 4096`)
}

func TestZipCRCMismatch(t *testing.T) {
	dir := t.TempDir()
	e := rawEntry(t, "scripts/evil.lua", []byte("return 'tampered'"))
	e.CRC ^= 0xdeadbeef
	_, err := Open(writeZip(t, dir, "crc.mkz", append(basicEntries(), e)))
	wantArchiveError(t, err, `entry "scripts/evil.lua" fails its CRC-32 check`)

	stored := entry{Name: "assets/s.txt", Raw: true, Method: zip.Store, Data: []byte("stored"), CRC: 1, Declared: 6}
	_, err = Open(writeZip(t, dir, "crc2.mkz", append(basicEntries(), stored)))
	wantArchiveError(t, err, `entry "assets/s.txt" fails its CRC-32 check`)
}

func TestZipRefusesZIP64(t *testing.T) {
	dir := t.TempDir()
	// A declared size of 5 GiB makes the writer use ZIP64 sentinels and the
	// ZIP64 extra field.
	big := rawEntry(t, "assets/big.bin", []byte("x"))
	big.Declared = 5 << 30
	_, err := Open(writeZip(t, dir, "z64.mkz", append(basicEntries(), big)))
	wantArchiveError(t, err, `entry "assets/big.bin" uses ZIP64 fields, which markii does not open`)

	// A ZIP64 extra field on an otherwise small entry.
	extra := []byte{0x01, 0x00, 0x08, 0x00, 5, 0, 0, 0, 0, 0, 0, 0}
	_, err = Open(writeZip(t, dir, "z64b.mkz", append(basicEntries(), entry{Name: "assets/e.txt", Data: []byte("hello"), Extra: extra})))
	wantArchiveError(t, err, `entry "assets/e.txt" uses ZIP64 fields`)

	// A sentinel entry count in the end-of-central-directory record.
	p := writeZip(t, dir, "z64c.mkz", basicEntries())
	data, _ := os.ReadFile(p)
	at := findDirectoryEnd(data)
	binary.LittleEndian.PutUint16(data[at+8:], 0xFFFF)
	binary.LittleEndian.PutUint16(data[at+10:], 0xFFFF)
	os.WriteFile(p, data, 0o644)
	_, err = Open(p)
	wantArchiveError(t, err, "it uses ZIP64 sentinel values, which markii does not open")

	// A ZIP64 end-of-central-directory locator before the record.
	p = writeZip(t, dir, "z64d.mkz", basicEntries())
	data, _ = os.ReadFile(p)
	at = findDirectoryEnd(data)
	locator := make([]byte, zip64LocatorLen)
	binary.LittleEndian.PutUint32(locator, zip64LocatorSig)
	withLocator := append(append(append([]byte{}, data[:at]...), locator...), data[at:]...)
	os.WriteFile(p, withLocator, 0o644)
	_, err = Open(p)
	wantArchiveError(t, err, "it is a ZIP64 archive, which markii does not open")
}

func TestZipArchiveSizeCheckedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.mkz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse 300 MiB file: refused from its size alone.
	if err := f.Truncate(300 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Open(p)
	wantArchiveError(t, err, "the archive is 314572800 bytes, over the 256 MiB limit")
}

func TestZipEntryCountCap(t *testing.T) {
	dir := t.TempDir()
	entries := basicEntries()
	for i := 0; i < 40; i++ {
		entries = append(entries, entry{Name: "assets/f" + string(rune('A'+i)), Data: []byte("x")})
	}
	lim := DefaultLimits
	lim.Entries = 20
	_, err := OpenLimits(writeZip(t, dir, "n.mkz", entries), lim)
	wantArchiveError(t, err, "it has 45 entries, over the limit of 20")
}

func TestZipGarbage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "junk.mkz")
	os.WriteFile(p, bytes.Repeat([]byte("not a zip "), 100), 0o644)
	_, err := Open(p)
	wantArchiveError(t, err, "it is not a zip archive (no end-of-central-directory record)")
	os.WriteFile(p, nil, 0o644)
	_, err = Open(p)
	wantArchiveError(t, err, "it is not a zip archive")
}
