package isolate

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestManyRunsLeaveNothingBehind runs 1,000 scripts (100 with -short)
// through a prewarmed pool and checks that the host is left with no child
// processes (zombies included), no extra descriptors and no extra
// goroutines.
func TestManyRunsLeaveNothingBehind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors and children through /proc")
	}
	n := 1000
	if testing.Short() {
		n = 100
	}
	// One run first, so lazily started runtime and poller state exists in
	// the baseline.
	warmup := NewPool()
	runOn(t, warmup, request(script.Limits{}, lua("a", "return 1")), nil)
	warmup.Close()
	baseGoroutines, baseFDs := settle(t, runtime.NumGoroutine(), countFDs(t), 0)

	pool := NewPool()
	pool.Prewarm()
	req := request(script.Limits{}, lua("a", "local t = {} for i = 1, 10 do t[i] = i * i end return table.concat(t, ',')"))
	start := time.Now()
	for i := 0; i < n; i++ {
		out, err, _ := runOn(t, pool, req, nil)
		if err != nil || out[0].Kind != value.Ok || string(out[0].Value) != `"1,4,9,16,25,36,49,64,81,100"` {
			t.Fatalf("run %d: %v %+v", i, err, out)
		}
	}
	t.Logf("%d runs in %s", n, time.Since(start).Round(time.Millisecond))
	pool.Close()
	settle(t, baseGoroutines, baseFDs, 1)
}

// settle waits up to two seconds for the goroutine, descriptor and child
// counts to come down to the given ones, then fails if they did not. With
// check 0 it only reports the current counts.
func settle(t *testing.T, goroutines, fds int, check int) (int, int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		g, f, c := runtime.NumGoroutine(), countFDs(t), children(t)
		if check == 0 {
			return g, f
		}
		if g <= goroutines && f <= fds && c == 0 {
			return g, f
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the runs: %d goroutines (was %d), %d descriptors (was %d), %d child processes", g, goroutines, f, fds, c)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func countFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// children counts processes, zombies included, whose parent is this one.
func children(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	me := strconv.Itoa(os.Getpid())
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name is in parentheses and may hold spaces; the
		// parent pid is the second field after it.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == me {
			n++
		}
	}
	return n
}
