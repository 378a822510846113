package bundle

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entry is one file for a test archive. Fields beyond Name and Data let a
// test write a hostile header on purpose.
type entry struct {
	Name string
	Data []byte
	// Mode sets the entry's file mode (symlinks, special files).
	Mode fs.FileMode
	// Raw writes the entry with CreateRaw: Data is then the compressed
	// bytes, written under Method, with the declared sizes and CRC below.
	Raw      bool
	Method   uint16
	CRC      uint32
	Declared uint64
	Extra    []byte
}

const goodManifest = `{"spec":"0.1.0","permissions":{"bundle":["read","write:.cache/"]}}`

// writeZip writes entries to a new zip file in dir and returns its path.
func writeZip(t testing.TB, dir, name string, entries []entry) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Extra: e.Extra}
		if e.Mode != 0 {
			h.SetMode(e.Mode)
		}
		if e.Raw {
			h.Method = e.Method
			h.CRC32 = e.CRC
			h.UncompressedSize64 = e.Declared
			h.CompressedSize64 = uint64(len(e.Data))
			w, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(e.Data); err != nil {
				t.Fatal(err)
			}
			continue
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// deflated compresses data with raw deflate, for Raw entries.
func deflated(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawEntry builds a Raw deflate entry whose header tells the truth unless
// the caller changes it.
func rawEntry(t testing.TB, name string, data []byte) entry {
	return entry{Name: name, Raw: true, Method: zip.Deflate, Data: deflated(t, data),
		CRC: crc32.ChecksumIEEE(data), Declared: uint64(len(data))}
}

// basicEntries is a valid bundle's files.
func basicEntries() []entry {
	return []entry{
		{Name: "manifest.json", Data: []byte(goodManifest)},
		{Name: "note.mk.md", Data: []byte("# Hello\n\n```lua {name=x src=scripts/x.lua}\n```\n")},
		{Name: "scripts/x.lua", Data: []byte("return 1\n")},
		{Name: "scripts/lib.lua", Data: []byte("return {two = 2}\n")},
		{Name: "assets/data.txt", Data: []byte("hello")},
	}
}

// writeDir writes a directory bundle from name -> content.
func writeDir(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func basicDirFiles() map[string]string {
	return map[string]string{
		"manifest.json":   goodManifest,
		"note.mk.md":      "# Hello\n",
		"scripts/x.lua":   "return 1\n",
		"scripts/lib.lua": "return {two = 2}\n",
		"assets/data.txt": "hello",
	}
}

// treeState records every path under dir with its type, size and content
// hash, without following links, so a test can prove nothing changed.
func treeState(t testing.TB, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := info.Mode().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += " " + hex.EncodeToString(sum[:8])
		}
		state[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// assertSameTree fails if anything under dir differs from before.
func assertSameTree(t testing.TB, dir string, before map[string]string) {
	t.Helper()
	after := treeState(t, dir)
	for p, d := range before {
		if after[p] != d {
			t.Errorf("%s changed: %q -> %q", p, d, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
}

// wantArchiveError asserts err is an *ArchiveError whose message contains
// every fragment.
func wantArchiveError(t testing.TB, err error, fragments ...string) {
	t.Helper()
	ae, ok := err.(*ArchiveError)
	if !ok {
		t.Fatalf("got %T %v, want *ArchiveError", err, err)
	}
	msg := ae.Error()
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("error %q does not contain %q", msg, f)
		}
	}
	if strings.ContainsAny(msg, "\n\r\x1b") {
		t.Errorf("error is not one clean line: %q", msg)
	}
}

// writeCountLie writes an archive whose end record claims claimed entries
// while its central directory holds records empty-named records: the
// shape that made a reader allocate per record before counting them.
func writeCountLie(t testing.TB, path string, records, claimed int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var rec [centralLen]byte
	binary.LittleEndian.PutUint32(rec[0:], centralSignature)
	binary.LittleEndian.PutUint16(rec[4:], 20)
	binary.LittleEndian.PutUint16(rec[6:], 20)
	for range records {
		w.Write(rec[:])
	}
	var end [eocdLen]byte
	binary.LittleEndian.PutUint32(end[0:], eocdSignature)
	binary.LittleEndian.PutUint16(end[8:], uint16(claimed))
	binary.LittleEndian.PutUint16(end[10:], uint16(claimed))
	binary.LittleEndian.PutUint32(end[12:], uint32(records*centralLen))
	w.Write(end[:])
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
