package engine

import "sync"

// prepared is the curated state Prepare built, with the record its
// functions are bound to; nil when none is waiting.
var (
	preparedMu sync.Mutex
	prepared   *scriptRun
)

// Prepare builds, ahead of time, the curated state the next script run in
// this process starts in, so that script does not wait for it. The state
// is new and has run nothing; it serves one script only, as every state
// does. The isolate's worker calls Prepare while it waits idle for its one
// run; without it every script builds its state when it starts.
func Prepare() {
	r := &scriptRun{}
	r.L = newLuaState(r)
	r.installAPI()
	preparedMu.Lock()
	old := prepared
	prepared = r
	preparedMu.Unlock()
	if old != nil {
		old.L.Close()
	}
}

// takePrepared hands out the prepared record, or a new empty one.
func takePrepared() *scriptRun {
	preparedMu.Lock()
	defer preparedMu.Unlock()
	r := prepared
	prepared = nil
	if r == nil {
		return &scriptRun{}
	}
	return r
}
