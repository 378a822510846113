//go:build unix

package bundle

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// perfFiles builds a bundle of about 20 MB in 2,000 files: prose-like text
// that deflate compresses the way real notes, scripts and data do.
func perfFiles() map[string]string {
	words := strings.Fields("the quick brown fox jumps over lazy dog markii note bundle script value chart table stars fetch cache render width theme lorem ipsum dolor sit amet 0 1 2 3 4 5 6 7 8 9 {} [] = , ; return local function end")
	rng := rand.New(rand.NewSource(1))
	files := map[string]string{
		"manifest.json": goodManifest,
		"note.mk.md":    "# Perf\n\nA note with many assets.\n",
	}
	for i := 0; len(files) < 2000; i++ {
		var sb strings.Builder
		for sb.Len() < 10_000 {
			sb.WriteString(words[rng.Intn(len(words))])
			sb.WriteByte(" \n"[rng.Intn(12)/11])
		}
		files[fmt.Sprintf("assets/d%02d/f%04d.txt", i%40, i)] = sb.String()
	}
	return files
}

func writePerfBundles(t testing.TB) (zipPath, dirPath string) {
	base := t.TempDir()
	files := perfFiles()
	var entries []entry
	for n, c := range files {
		entries = append(entries, entry{Name: n, Data: []byte(c)})
	}
	return writeZip(t, base, "perf.mkz", entries), writeDir(t, filepath.Join(base, "dir"), files)
}

func BenchmarkOpenZip20MB(b *testing.B) {
	zipPath, _ := writePerfBundles(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(zipPath); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenDirectory20MB(b *testing.B) {
	_, dirPath := writePerfBundles(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(dirPath); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOpenPerformance compares opening the same 20 MB, 2,000-file bundle
// as a zip and as a directory. It runs only with MARKII_PERF=1:
//
//	MARKII_PERF=1 go test -run TestOpenPerformance -v ./runtime/bundle
func TestOpenPerformance(t *testing.T) {
	if os.Getenv("MARKII_PERF") == "" {
		t.Skip("set MARKII_PERF=1 to measure bundle open time")
	}
	zipPath, dirPath := writePerfBundles(t)
	zinfo, _ := os.Stat(zipPath)
	type stats struct {
		best, bestCPU     time.Duration
		allocated, retain uint64
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	once := func(path string, s *stats) {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		start, startCPU := time.Now(), cpu()
		b, err := Open(path)
		d, dCPU := time.Since(start), cpu()-startCPU
		if err != nil {
			t.Fatal(err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		s.allocated = max(s.allocated, after.TotalAlloc-before.TotalAlloc)
		runtime.GC()
		runtime.ReadMemStats(&after)
		s.retain = max(s.retain, after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))
		if s.best == 0 || d < s.best {
			s.best = d
		}
		if s.bestCPU == 0 || dCPU < s.bestCPU {
			s.bestCPU = dCPU
		}
		runtime.KeepAlive(b)
	}
	// Alternate the two so background load affects both alike.
	var z, d stats
	for i := 0; i < 9; i++ {
		once(zipPath, &z)
		once(dirPath, &d)
	}
	ratio := float64(z.best) / float64(d.best)
	cpuRatio := float64(z.bestCPU) / float64(d.bestCPU)
	mb := func(n uint64) float64 { return float64(n) / (1 << 20) }
	t.Logf("zip (%d bytes on disk): best %v wall, %v CPU, %.1f MiB allocated, %.1f MiB held", zinfo.Size(), z.best, z.bestCPU, mb(z.allocated), mb(z.retain))
	t.Logf("directory: best %v wall, %v CPU, %.1f MiB allocated, %.1f MiB held", d.best, d.bestCPU, mb(d.allocated), mb(d.retain))
	t.Logf("zip/directory ratio: %.2f wall, %.2f CPU", ratio, cpuRatio)
	// Wall time swings with other load on the machine; CPU time (user +
	// system, all threads) is what the zip form costs over the directory.
	if cpuRatio > 1.5 {
		t.Errorf("opening the zip cost %.2f× the directory's CPU time, over 1.5×", cpuRatio)
	}
}
