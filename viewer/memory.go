package viewer

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// The viewer holds its page for as long as the note is open, and lays a
// long note out again in the background on a resize or a fold. A layout
// makes garbage many times the size of the page it keeps, and with the
// collector's default pacing the heap grows to twice what is live before
// it is collected, so a long note would keep about twice its page
// resident. While it runs on a terminal the viewer instead sets a soft
// memory limit of what it keeps plus room for a layout.
const (
	// memoryBase is the program and a short note.
	memoryBase = 16 << 20
	// memoryPerByte is what the viewer keeps per byte of a long note:
	// its source, its packed page and its targets.
	memoryPerByte = 5
	// memoryRoom is the least room between what is live and the limit:
	// a layout's working set.
	memoryRoom = 4 << 20
)

// memoryLimited is set while the viewer manages the soft memory limit.
var memoryLimited atomic.Bool

// limitMemory sets the soft memory limit for a session that opens a note
// of n bytes, unless GOMEMLIMIT already sets one, and returns what
// restores the limit there was.
func limitMemory(n int) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" || !memoryLimited.CompareAndSwap(false, true) {
		return func() {}
	}
	prev := debug.SetMemoryLimit(memoryBase + memoryPerByte*int64(n))
	fitMemoryLimit()
	return func() {
		debug.SetMemoryLimit(prev)
		memoryLimited.Store(false)
	}
}

// followMemory keeps the soft limit fitted to what is live while a
// layout runs, checking every memoryFollowEvery, and returns what stops
// it. A note parsed whole (one that defines footnotes, one too deeply
// nested to cut) holds its whole tree for the length of the layout;
// under a limit fitted only once the layout is done, the collector ran
// without pause to stay under it (a 10 MB note with a footnote took
// 4.0 s to lay out instead of 2.2 s).
func followMemory() (stop func()) {
	if !memoryLimited.Load() {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(memoryFollowEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fitMemoryLimit()
			}
		}
	}()
	return func() { close(done) }
}

// memoryFollowEvery is how often followMemory fits the limit: the live
// heap a parse builds grows by a few megabytes in that time.
const memoryFollowEvery = 10 * time.Millisecond

// fitMemoryLimit raises the soft limit when what is live has come near
// it, as a note whose page is much larger than its source makes it, so
// that the collector never runs without pause to stay under it. The limit
// counts all the runtime's memory, so the part that is not the heap's
// objects (stacks, the collector's own, the program's) is added to what
// is live.
func fitMemoryLimit() {
	if !memoryLimited.Load() {
		return
	}
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	var v [6]int64
	for i := range s {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return
		}
		v[i] = int64(s[i].Value.Uint64())
	}
	live, other := v[0], v[1]-v[2]-v[3]-v[4]-v[5]
	want := other + live + max(memoryRoom, live/3)
	if cur := debug.SetMemoryLimit(-1); want > cur {
		debug.SetMemoryLimit(want)
	}
}
