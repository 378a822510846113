package procmem

import (
	"os"
	"runtime"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// TestPeakGrowsWithWhatTheProcessTouches touches 64 MB: the peak must
// cover it, and the same process read by its pid gives the same figure.
func TestPeakGrowsWithWhatTheProcessTouches(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	before, err := Peak(0)
	if err != nil || before <= 0 {
		t.Fatalf("Peak(0) = %d, %v", before, err)
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	after, err := Peak(0)
	if err != nil || after < before+60<<20 {
		t.Fatalf("after touching 64 MB: peak %d, before %d, %v", after, before, err)
	}
	runtime.KeepAlive(b)
	byPid, err := Peak(os.Getpid())
	if err != nil || byPid < after {
		t.Fatalf("Peak(pid) = %d, %v; Peak(0) was %d", byPid, err, after)
	}
	if _, err := Peak(-5); err == nil {
		t.Fatal("Peak of no process gave no error")
	}
}
