package bundle

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets run their seeds in every `go test`; explore further with
//
//	go test -run XXX -fuzz FuzzReadZip -fuzztime 60s ./runtime/bundle

func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "./a//b/", `a\b`, "C:x", "/x", "a/./..", "", ".", "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		clean, err := CleanPath(p)
		if err != nil {
			return
		}
		if clean == "" || strings.HasPrefix(clean, "/") || strings.ContainsAny(clean, "\\\x00") || hasDriveLetter(clean) {
			t.Fatalf("CleanPath(%q) = %q", p, clean)
		}
		for _, seg := range strings.Split(clean, "/") {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("CleanPath(%q) = %q keeps segment %q", p, clean, seg)
			}
		}
		if again, err := CleanPath(clean); err != nil || again != clean {
			t.Fatalf("CleanPath is not idempotent on %q: %q %v", clean, again, err)
		}
	})
}

func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{goodManifest, `{"mark":"1.0.0","document":"a/../b"}`, `{"spec":"1.0.0","permissions":{"net":["a.com"]}}`, `[`, `{"spec":"1.0.0","uses":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r\x1b") {
				t.Fatalf("message is not one clean line: %q", err)
			}
			return
		}
		if _, err := CleanPath(m.Document); err != nil || m.Document == ManifestName {
			t.Fatalf("accepted document %q", m.Document)
		}
		for _, g := range m.Bundle {
			if g != GrantRead && g != GrantWriteCache {
				t.Fatalf("accepted grant %q", g)
			}
		}
	})
}

func FuzzReadZip(f *testing.F) {
	for _, entries := range [][]string{
		{"manifest.json", goodManifest, "note.mk.md", "# x"},
		{"a/b.txt", strings.Repeat("abc", 100), "c/", ""},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i := 0; i < len(entries); i += 2 {
			w, _ := zw.Create(entries[i])
			w.Write([]byte(entries[i+1]))
		}
		zw.Close()
		f.Add(buf.Bytes())
	}
	for _, seed := range zipFuzzSeeds(f) {
		f.Add(seed)
	}
	lim := DefaultLimits
	lim.EntryBytes, lim.TotalBytes, lim.Entries = 1<<20, 4<<20, 100
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := readZipBytes("fuzz.mkz", "bundle", data, lim)
		if err != nil {
			return
		}
		if files.Size() > lim.TotalBytes || files.Len() > lim.Entries {
			t.Fatalf("caps exceeded: %d bytes, %d files", files.Size(), files.Len())
		}
		for _, n := range files.Names() {
			if clean, err := CleanPath(n); err != nil || clean != n {
				t.Fatalf("snapshot holds unjailed name %q", n)
			}
		}
	})
}

// zipFuzzSeeds are archives whose local headers, data descriptors and
// central directory disagree, so the fuzzer starts from each check.
func zipFuzzSeeds(f *testing.F) [][]byte {
	stored := zipBytes(f, []entry{storedVictim(), {Name: "b.txt", Data: []byte("streamed")}})
	at := localHeaderOf(f, stored, victim)
	patched := func(patch func(b []byte)) []byte {
		b := bytes.Clone(stored)
		patch(b)
		return b
	}
	seeds := [][]byte{
		stored,
		patched(func(b []byte) { b[at+localLen] = 'X' }),
		patched(func(b []byte) { b[at+18]-- }),
		patched(func(b []byte) { binary.LittleEndian.PutUint32(b[at+22:], sentinel32) }),
		patched(func(b []byte) {
			binary.LittleEndian.PutUint32(b[centralRecordOf(f, b, "b.txt")+42:], uint32(at))
		}),
	}
	p := filepath.Join(f.TempDir(), "lie.mkz")
	writeCountLie(f, p, 50, 5)
	return append(seeds, mustRead(f, p))
}
