//go:build unix

package render

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// processCPU is the CPU time the test process has used, which a busy
// machine disturbs far less than wall-clock time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestComponentCostRatio renders the 1 MB note with one component per
// paragraph and the same note without components, alternating, and fails
// when the component note costs more than 1.5 times the plain one in CPU
// time. It is a measurement, so it only runs when asked:
//
//	MARKII_RATIO=1 go test ./render -run TestComponentCostRatio -v
func TestComponentCostRatio(t *testing.T) {
	if os.Getenv("MARKII_RATIO") == "" {
		t.Skip("set MARKII_RATIO=1 to measure the component cost ratio")
	}
	plain, comps := componentNotes(1 << 20)
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark, Values: benchValues}
	const rounds = 6
	var tp, tc time.Duration
	for i := 0; i < rounds; i++ {
		start := processCPU()
		ansi.Encode(Layout(Parse(plain), opt).Lines, ansi.TrueColor)
		tp += processCPU() - start
		start = processCPU()
		ansi.Encode(Layout(Parse(comps), opt).Lines, ansi.TrueColor)
		tc += processCPU() - start
	}
	ratio := float64(tc) / float64(tp)
	t.Logf("plain %v, with components %v per render: ratio %.2f", tp/rounds, tc/rounds, ratio)
	if ratio > 1.5 {
		t.Errorf("components cost %.2f× the plain note, over the 1.5× budget", ratio)
	}
}
