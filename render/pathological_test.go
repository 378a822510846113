//go:build unix

package render

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

var pathologicalFull = flag.Bool("pathological", false,
	"render the hostile markdown inputs at cmark's sizes too (slow; each must take under 0.5 s)")

// hostileInput is one of the inputs of cmark's pathological tests: gen(n)
// builds it with n repetitions, and cmark is the n cmark uses.
type hostileInput struct {
	name  string
	cmark int
	gen   func(n int) string
}

// hostileInputs are the inputs of cmark-gfm's test/pathological_tests.py.
// For "backticks" and "deeply nested lists", whose pieces grow, n is the
// number of bytes (cmark's 4,999 runs and 1,000 lines), so that doubling
// n doubles the input as for the others.
var hostileInputs = []hostileInput{
	{"nested strong emph", 65000, func(n int) string {
		return strings.Repeat("*a **a ", n) + "b" + strings.Repeat(" a** a*", n)
	}},
	{"many emph closers with no openers", 65000, func(n int) string { return strings.Repeat("a_ ", n) }},
	{"many emph openers with no closers", 65000, func(n int) string { return strings.Repeat("_a ", n) }},
	{"many link closers with no openers", 65000, func(n int) string { return strings.Repeat("a]", n) }},
	{"many link openers with no closers", 65000, func(n int) string { return strings.Repeat("[a", n) }},
	{"mismatched openers and closers", 50000, func(n int) string { return strings.Repeat("*a_ ", n) }},
	{"openers and closers multiple of 3", 50000, func(n int) string { return "a**b" + strings.Repeat("c* ", n) }},
	{"link openers and emph closers", 50000, func(n int) string { return strings.Repeat("[ a_", n) }},
	{"pattern [ (]( repeated", 80000, func(n int) string { return strings.Repeat("[ (](", n) }},
	{"pattern ![[]() repeated", 160000, func(n int) string { return strings.Repeat("![[]()", n) }},
	{"hard link/emph case", 1, func(n int) string { return strings.Repeat("**x [a*b**c*](d)\n\n", n) }},
	{"nested brackets", 50000, func(n int) string {
		return strings.Repeat("[", n) + "a" + strings.Repeat("]", n)
	}},
	{"nested block quotes", 50000, func(n int) string { return strings.Repeat("> ", n) + "a" }},
	{"deeply nested lists", 1003000, func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i) + "* a\n")
		}
		return b.String()
	}},
	{"U+0000 in input", 1, func(n int) string { return strings.Repeat("abc\u0000de\u0000\n", n) }},
	{"backticks", 12502499, func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString("e" + strings.Repeat("`", i))
		}
		return b.String()
	}},
	{"unclosed links A", 30000, func(n int) string { return strings.Repeat("[a](<b", n) }},
	{"unclosed links B", 30000, func(n int) string { return strings.Repeat("[a](b", n) }},
	{"unclosed <!--", 300000, func(n int) string { return "</" + strings.Repeat("<!--", n) }},
	{"tables", 30000, func(n int) string { return strings.Repeat("aaa\rbbb\n-\v\n", n) }},
	{"reference collisions", 50000, func(n int) string {
		var b strings.Builder
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "[x%d]: /url\n\n[x0]\n\n", i)
		}
		return b.String()
	}},
}

// superlinearInputs are the inputs markii still renders in more than
// linear time, with the reason; they are only timed, with -pathological.
var superlinearInputs = map[string]string{
	"pattern ![[]() repeated": "goldmark's link parser measures every open bracket's label for each closer",
	"unclosed links A":        "goldmark's link parser scans to the end of the line for each unclosed destination",
	"unclosed <!--":           "goldmark's raw HTML parser scans to the end of the block for each unclosed comment",
}

// cpuTime is the user and system time the test process has used: unlike
// wall time it does not grow when other processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// renderTime is the least of three CPU times to parse and lay out src.
func renderTime(src []byte) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		runtime.GC() // so that no run pays for collecting another's garbage
		start := cpuTime()
		Layout(Parse(src), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
		best = min(best, cpuTime()-start)
	}
	return best
}

// linearGrowth fails t unless rendering gen(2n) takes at most 2.5 times
// as long as gen(n) (plus a few milliseconds of timer and scheduling
// noise). It tries three times: a collection or a page fault can land in either run.
func linearGrowth(t *testing.T, in hostileInput, n int) (small, large time.Duration) {
	t.Helper()
	a, b := []byte(in.gen(n)), []byte(in.gen(2*n))
	for try := 0; try < 3; try++ {
		small, large = renderTime(a), renderTime(b)
		if large <= small*5/2+5*time.Millisecond {
			return small, large
		}
	}
	t.Errorf("%s: %d bytes took %v, twice that took %v: not linear", in.name, len(a), small, large)
	return small, large
}

// TestHostileMarkdownRendersInLinearTime renders each of cmark's
// pathological inputs at an eighth of cmark's size and at twice that,
// and with -pathological at cmark's size and twice that, where one
// render must also take under half a second.
func TestHostileMarkdownRendersInLinearTime(t *testing.T) {
	for _, in := range hostileInputs {
		t.Run(in.name, func(t *testing.T) {
			if why, ok := superlinearInputs[in.name]; ok {
				if *pathologicalFull {
					a, b := renderTime([]byte(in.gen(in.cmark))), renderTime([]byte(in.gen(2*in.cmark)))
					t.Logf("still superlinear (%s): n=%d (cmark's): %v, 2n: %v", why, in.cmark, a, b)
				}
				return
			}
			n := max(in.cmark/8, 1)
			if in.cmark == 1 {
				n = 1000 // the small fixed inputs, repeated as paragraphs
			}
			small, large := linearGrowth(t, in, n)
			t.Logf("n=%d: %v, 2n: %v", n, small, large)
			if !*pathologicalFull {
				return
			}
			small, large = linearGrowth(t, in, in.cmark)
			t.Logf("n=%d (cmark's): %v, 2n: %v", in.cmark, small, large)
			if small > 500*time.Millisecond {
				t.Errorf("%s at cmark's size took %v, over 0.5 s", in.name, small)
			}
		})
	}
}
