// Package gctune holds every setting of the garbage collector markii
// changes for the whole process. Only the program's entry points (main
// and cli) call it: they decide what each mode runs under and hand a
// package that needs to follow its own work (the viewer) a value with
// methods, never the settings themselves.
package gctune

import (
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// Percent sets the collector's target percentage (GOGC) and returns
// what restores the one before.
func Percent(p int) (restore func()) {
	prev := debug.SetGCPercent(p)
	return func() { debug.SetGCPercent(prev) }
}

// Limit sets the soft memory limit for the rest of the process's life.
func Limit(bytes int64) { debug.SetMemoryLimit(bytes) }

// The viewer holds its page for as long as the note is open, and lays a
// long note out again in the background on a resize or a fold. A layout
// makes garbage many times the size of the page it keeps, and with the
// collector's default pacing the heap grows to twice what is live before
// it is collected, so a long note would keep about twice its page
// resident. While it runs on a terminal the viewer instead runs under a
// soft memory limit of what it keeps plus room for a layout.
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

// memoryLimited is set while a Viewer manages the soft memory limit.
var memoryLimited atomic.Bool

// Viewer fits the soft memory limit to a viewer's page as its layouts
// run. Its zero value and nil leave the limit alone.
type Viewer struct {
	managed bool
}

// ForViewer sets the soft memory limit for a viewer session that opens a
// note of n bytes, unless the GOMEMLIMIT environment variable (read with
// getenv) already sets one or another session manages it, and returns
// the Viewer to hand to the session and what restores the limit there
// was. The Viewer is live until restore is called.
func ForViewer(n int, getenv func(string) string) (v *Viewer, restore func()) {
	if getenv("GOMEMLIMIT") != "" || !memoryLimited.CompareAndSwap(false, true) {
		return &Viewer{}, func() {}
	}
	prev := debug.SetMemoryLimit(memoryBase + memoryPerByte*int64(n))
	fitMemoryLimit()
	return &Viewer{managed: true}, func() {
		debug.SetMemoryLimit(prev)
		memoryLimited.Store(false)
	}
}

// Layout is called as a layout starts and returns what is called as it
// ends. In between the soft limit follows what is live, checked every
// followEvery: a note parsed whole (one that defines footnotes, one too
// deeply nested to cut) holds its whole tree for the length of the
// layout, and under a limit fitted only once the layout is done the
// collector ran without pause to stay under it (a 10 MB note with a
// footnote took 4.0 s to lay out instead of 2.2 s). At the end the limit
// is fitted to the page the layout made.
func (v *Viewer) Layout() (done func()) {
	if v == nil || !v.managed || !memoryLimited.Load() {
		return func() {}
	}
	stop := follow()
	return func() {
		fitMemoryLimit()
		stop()
	}
}

// follow keeps the soft limit fitted to what is live and returns what
// stops it.
func follow() (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(followEvery)
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

// followEvery is how often a layout's limit is fitted: the live heap a
// parse builds grows by a few megabytes in that time.
const followEvery = 10 * time.Millisecond

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
