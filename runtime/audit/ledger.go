package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/markii/markii/runtime/internal/safefile"
	"github.com/markii/markii/runtime/state"
)

// OpenClaim is a claimed effect whose outcome is not known.
type OpenClaim struct {
	Run  string    `json:"run"`
	Note string    `json:"note"`
	Time time.Time `json:"time"`
}

// ClaimedError refuses an effect whose earlier claim is still open: it
// was sent (or may have been) and its outcome is unknown. Only a run a
// person starts by hand may send it again.
type ClaimedError struct {
	Effect string
	Claim  OpenClaim
}

func (e *ClaimedError) Error() string {
	return fmt.Sprintf("this request was already sent by run %s on %s and its outcome is unknown; it is not sent again until you run the note by hand",
		e.Claim.Run, e.Claim.Time.UTC().Format(time.RFC3339))
}

func (l *Log) effectsPath() string { return filepath.Join(l.dir, EffectsName) }

// Claim records rec (an EventClaim with its Effect) durably before the
// effect is performed. When an earlier claim of the same effect is still
// open it is refused with a *ClaimedError, unless byHand is set: a person
// running the note again by hand may send it again, and the new claim
// replaces the open one.
func (l *Log) Claim(rec Record, byHand bool) error {
	rec.Event = EventClaim
	return l.lock(func() error {
		open, err := l.readEffects()
		if err != nil {
			return err
		}
		if prior, ok := open[rec.Effect]; ok {
			if !byHand {
				return &ClaimedError{Effect: rec.Effect, Claim: prior}
			}
			rec.Reason = "sent again by hand; run " + prior.Run + " had claimed it and its outcome was unknown"
		}
		if len(open) >= maxEffects {
			return fmt.Errorf("the audit trail holds %d effects with unknown outcomes; review them with markii audit", len(open))
		}
		if err := l.appendLocked(true, []Record{rec}); err != nil {
			return err
		}
		open[rec.Effect] = OpenClaim{Run: rec.Run, Note: rec.Note, Time: l.opts.Now()}
		return l.writeEffects(open)
	})
}

// Settle records what came of a claimed effect. known says whether the
// outcome is known (a response, or a failure that certainly sent
// nothing): a known outcome closes the claim; an unknown one leaves it
// open.
func (l *Log) Settle(rec Record, known bool) error {
	rec.Event = EventSettle
	return l.lock(func() error {
		if err := l.appendLocked(true, []Record{rec}); err != nil {
			return err
		}
		if !known {
			return nil
		}
		open, err := l.readEffects()
		if err != nil {
			return err
		}
		if _, ok := open[rec.Effect]; !ok {
			return nil
		}
		delete(open, rec.Effect)
		return l.writeEffects(open)
	})
}

// OpenClaims returns the claims whose outcome is unknown, by effect id.
func (l *Log) OpenClaims() (map[string]OpenClaim, error) {
	var open map[string]OpenClaim
	err := l.lock(func() error {
		var err error
		open, err = l.readEffects()
		return err
	})
	return open, err
}

func (l *Log) readEffects() (map[string]OpenClaim, error) {
	open := map[string]OpenClaim{}
	data, err := safefile.ReadFile(l.effectsPath(), 8<<20, safefile.Options{NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		return open, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the effect ledger: %w", err)
	}
	if err := json.Unmarshal(data, &open); err != nil {
		return nil, fmt.Errorf("the effect ledger %s is damaged (%w); move it aside to go on", l.effectsPath(), err)
	}
	return open, nil
}

func (l *Log) writeEffects(open map[string]OpenClaim) error {
	data, err := json.Marshal(open)
	if err != nil {
		return err
	}
	return state.WriteAtomic(l.effectsPath(), data)
}
