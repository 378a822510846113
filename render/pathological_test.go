//go:build unix

package render

import (
	"flag"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/pathological"
	"github.com/markii/markii/theme"
)

var pathologicalFull = flag.Bool("pathological", false,
	"render the hostile markdown inputs at cmark's sizes too (slow; each must take under 0.5 s)")

// cpuTime is the user and system time the test process has used: unlike
// wall time it does not grow when other processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// renderTime is the least of three CPU times to parse and lay out src
// whole, as the viewer does.
func renderTime(src []byte) time.Duration {
	return leastCPU(func() {
		Layout(Parse(src), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	})
}

// streamTime is the least of three CPU times to parse and lay out src a
// piece at a time, as markii render does.
func streamTime(src []byte) time.Duration {
	return leastCPU(func() {
		s := NewStreamer(Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark}, func([]ansi.Line) error { return nil })
		if err := ParseChunks(src, s.Add); err != nil {
			panic(err)
		}
	})
}

// leastCPU is the least of three CPU times fn takes. The collector is
// off while fn runs and collects between runs: otherwise a small input
// fits under the first collection and twice it pays for one, whose mark
// workers also take the idle cores and charge their time to the process,
// so the ratio measured the collector's pacing (and the machine's load)
// instead of the parser.
func leastCPU(fn func()) time.Duration {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := time.Duration(1<<63 - 1)
	for range 3 {
		runtime.GC() // so that no run pays for collecting another's garbage
		start := cpuTime()
		fn()
		best = min(best, cpuTime()-start)
	}
	return best
}

// TestHostileMarkdownRendersInLinearTime renders each of cmark's
// pathological inputs, whole and a piece at a time, at an eighth of
// cmark's size and at twice that, and with -pathological at cmark's size
// and twice that, where one render must also take under half a second.
func TestHostileMarkdownRendersInLinearTime(t *testing.T) {
	paths := []struct {
		name    string
		measure func([]byte) time.Duration
	}{{"whole", renderTime}, {"pieces", streamTime}}
	for _, in := range pathological.Inputs {
		for _, path := range paths {
			t.Run(in.Name+"/"+path.name, func(t *testing.T) {
				n := in.CI()
				small, large := pathological.LinearGrowth(t, in, n, 5*time.Millisecond, path.measure)
				t.Logf("n=%d: %v, 2n: %v", n, small, large)
				if !*pathologicalFull {
					return
				}
				small, large = pathological.LinearGrowth(t, in, in.Cmark, 5*time.Millisecond, path.measure)
				t.Logf("n=%d (cmark's): %v, 2n: %v", in.Cmark, small, large)
				if small > 500*time.Millisecond {
					t.Errorf("%s at cmark's size took %v, over 0.5 s", in.Name, small)
				}
			})
		}
	}
}

// TestLongParagraphWrapsInLinearTime lays out one long paragraph of mixed
// words and 8 times as much: wrapping must not take more than about 16
// times the CPU time (twice linear, for the larger heap).
func TestLongParagraphWrapsInLinearTime(t *testing.T) {
	words := []string{"lorem", "**ipsum**", "dolor", "`sit`", "[amet](https://example.com)", "日本語", "👩‍💻"}
	build := func(n int) *Document {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(words[i%len(words)])
			b.WriteByte(' ')
		}
		return Parse([]byte(b.String()))
	}
	opt := Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark}
	smallDoc, largeDoc := build(200<<10), build(1600<<10)
	// The collector is off while each layout runs (leastCPU collects
	// between runs): otherwise the small layout fits under the first
	// collection and the large one pays for several, and the ratio
	// measures the collector's pacing instead of wrapping.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var page *Page
	small := leastCPU(func() { Layout(smallDoc, opt) })
	large := leastCPU(func() { page = Layout(largeDoc, opt) })
	if large > 16*small+50*time.Millisecond {
		t.Errorf("8× the text took %v of CPU against %v: wrapping is not linear", large, small)
	}
	for i, ln := range page.Lines {
		if ln.Width() > 80 {
			t.Fatalf("line %d is %d wide", i, ln.Width())
		}
	}
}

// BenchmarkPathological parses and lays out each of cmark's pathological
// inputs at cmark's size and at twice it, so that benchstat shows both
// the time and how it grows:
//
//	go test ./render -run '^$' -bench Pathological -benchmem
func BenchmarkPathological(b *testing.B) {
	for _, in := range pathological.Inputs {
		for _, n := range []int{in.Cmark, 2 * in.Cmark} {
			src := []byte(in.Gen(n))
			b.Run(strings.ReplaceAll(in.Name, " ", "_")+"/n="+strconv.Itoa(n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					Layout(Parse(src), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
				}
			})
		}
	}
}
