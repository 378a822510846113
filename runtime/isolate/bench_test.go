package isolate

import (
	"context"
	"testing"
	"time"

	"github.com/markii/markii/runtime/engine"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// The benchmarks time one trivial script per operation and report the
// median and 99th-percentile latency beside the mean:
//
//	go test -run '^$' -bench . -benchtime 300x ./runtime/isolate/
var trivial = request(script.Limits{}, lua("a", "local t = {} for i = 1, 10 do t[i] = i * i end return table.concat(t, ',')"))

// BenchmarkIsolateWarm: a run given a confined worker that is already
// started and idle (the viewer's case after Prewarm).
func BenchmarkIsolateWarm(b *testing.B) {
	pool := NewPool()
	defer pool.Close()
	pool.Prewarm()
	benchRuns(b, func() {
		b.StopTimer()
		waitWarmB(b, pool)
		b.StartTimer()
	}, pool.Run)
}

// BenchmarkIsolateCold: a run that starts its own worker (the one-shot
// `markii run` case).
func BenchmarkIsolateCold(b *testing.B) {
	pool := NewPool()
	defer pool.Close()
	benchRuns(b, func() {}, pool.Run)
}

// BenchmarkInProcess: the same script in the engine in this process, for
// the ratio.
func BenchmarkInProcess(b *testing.B) {
	benchRuns(b, func() {}, engine.Run)
}

// exitAtOnceArg makes a test worker exit as soon as it starts.
const exitAtOnceArg = "exit-at-once"

// BenchmarkProcessStart: the same binary started the way a worker is and
// exiting at once, unconfined and without a run: the floor under a cold
// run on this machine, for the ratio.
func BenchmarkProcessStart(b *testing.B) {
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		w, err := spawn([]string{exitAtOnceArg})
		if err != nil {
			b.Fatal(err)
		}
		<-w.exited
		times = append(times, time.Since(start))
		w.close()
	}
	reportLatency(b, times)
}

func benchRuns(b *testing.B, before func(), run Runner) {
	host := newTestHost()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before()
		ok := false
		start := time.Now()
		err := run(context.Background(), trivial, host, func(o script.Outcome) { ok = o.Kind == value.Ok })
		times = append(times, time.Since(start))
		if err != nil || !ok {
			b.Fatalf("run %d failed: %v", i, err)
		}
	}
	b.StopTimer()
	reportLatency(b, times)
}

func waitWarmB(b *testing.B, pool *Pool) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		pool.mu.Lock()
		ready := pool.warm != nil
		pool.mu.Unlock()
		if ready {
			return
		}
		time.Sleep(200 * time.Microsecond)
	}
	b.Fatal("no warm worker after 5s")
}
