package audit

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"time"
)

// NewRunID returns a run id for the trail: the start time in base 36
// (so ids sort by time) and four random bytes, so that runs started in the
// same instant by different markii processes never share one.
func NewRunID(start time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return strconv.FormatInt(start.UnixNano(), 36) + "-" + hex.EncodeToString(b[:])
}

// Run records one run's trail: the capability host and the run service
// call it, from their own records, as decisions are made. A nil *Run
// records nothing. It is safe for concurrent use.
type Run struct {
	log  *Log
	id   string
	note string
	code string
	// byHand says a person started the run: it may send again an effect
	// whose earlier claim is open.
	byHand bool

	mu   sync.Mutex
	seen map[string]int
	err  error
}

// NewRun returns the recorder of run id of the note with document key
// note and closure key code.
func NewRun(l *Log, id, note, code string, byHand bool) *Run {
	if l == nil {
		return nil
	}
	return &Run{log: l, id: id, note: note, code: code, byHand: byHand, seen: map[string]int{}}
}

// ID is the run's id.
func (r *Run) ID() string {
	if r == nil {
		return ""
	}
	return r.id
}

// Record appends rec to the trail as a record of this run. A failure to
// append is kept for Err and does not stop the run.
func (r *Run) Record(sync bool, recs ...Record) {
	if r == nil {
		return
	}
	for i := range recs {
		recs[i].Run = r.id
	}
	r.keep(r.log.Append(sync, recs...))
}

// Claim claims the effect of rec (a request about to be sent with body)
// in the ledger and returns its effect id. A *ClaimedError refuses it;
// any other error means the trail could not be written, and the effect
// must not be sent either.
func (r *Run) Claim(rec Record, body []byte) (string, error) {
	if r == nil {
		return "", nil
	}
	id := r.effect(rec, body)
	rec.Run, rec.Effect, rec.Note = r.id, id, r.note
	err := r.log.Claim(rec, r.byHand)
	var claimed *ClaimedError
	if err != nil && !errors.As(err, &claimed) {
		r.keep(err)
	}
	return id, err
}

// OpenClaim returns the open claim of the effect rec would be, if there is
// one (for a run that may not send it anyway).
func (r *Run) OpenClaim(rec Record, body []byte) *ClaimedError {
	if r == nil {
		return nil
	}
	id := r.effect(rec, body)
	open, err := r.log.OpenClaims()
	if err != nil {
		r.keep(err)
		return nil
	}
	if c, ok := open[id]; ok {
		return &ClaimedError{Effect: id, Claim: c}
	}
	return nil
}

// Settle records what came of a claimed effect; known says the outcome is
// certain (the claim closes) rather than unknown (it stays open).
func (r *Run) Settle(rec Record, known bool) {
	if r == nil || rec.Effect == "" {
		return
	}
	rec.Run = r.id
	r.keep(r.log.Settle(rec, known))
}

// Err is the first failure to write the trail, if any.
func (r *Run) Err() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func (r *Run) keep(err error) {
	if err == nil {
		return
	}
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
}

// effect is the effect id of rec: the n-th identical request of this run.
func (r *Run) effect(rec Record, body []byte) string {
	base := EffectID(r.note, r.code, rec.Method, rec.Capability+" "+rec.Host+rec.Path+"?"+rec.Query, body, 0)
	r.mu.Lock()
	n := r.seen[base]
	r.seen[base] = n + 1
	r.mu.Unlock()
	return EffectID(r.note, r.code, rec.Method, rec.Capability+" "+rec.Host+rec.Path+"?"+rec.Query, body, n)
}
