package script

import (
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// A request can lower every limit but never raise one; zero and negative
// values mean the ceiling.
func TestClampOnlyLowers(t *testing.T) {
	raised := Limits{Instructions: 1 << 40, ScriptTime: time.Hour, Memory: 1 << 40, FetchBytes: 1 << 40, MarshalDepth: 1000, MarshalNodes: 1 << 30, RunTime: time.Hour}
	if got := raised.Clamp(); got != Ceiling {
		t.Errorf("raised limits clamp to %+v, want the ceiling %+v", got, Ceiling)
	}
	if got := (Limits{Instructions: -1, MarshalDepth: -5}).Clamp(); got != Ceiling {
		t.Errorf("zero and negative limits clamp to %+v, want the ceiling", got)
	}
	low := Limits{Instructions: 10, ScriptTime: time.Millisecond, Memory: 1, FetchBytes: 1, MarshalDepth: 1, MarshalNodes: 1, RunTime: time.Millisecond}
	if got := low.Clamp(); got != low {
		t.Errorf("lowered limits changed: %+v", got)
	}
	if TierOf(Manual) != TierManual || TierOf(Auto) != TierAuto || TierOf(Scheduled) != TierAuto || TierOf("forged") != TierAuto {
		t.Error("only a manual trigger yields the manual tier")
	}
}
