package state

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const writerRounds = 150

// TestWriterProcess is the body of one writer process started by
// TestTwoProcessesNeverLoseAnUpdate; it does nothing in a normal run.
func TestWriterProcess(t *testing.T) {
	dir, name := os.Getenv("MARKII_STATE_WRITER_DIR"), os.Getenv("MARKII_STATE_WRITER_NAME")
	if dir == "" {
		t.Skip("started by TestTwoProcessesNeverLoseAnUpdate")
	}
	s := Open(dir, Options{})
	var waits []time.Duration
	s.lockWaited = func(d time.Duration) { waits = append(waits, d) }
	for i := range writerRounds {
		// Its own note: a list that grows by one each round.
		err := s.Update("file:///"+name, SectionValues, func(cur json.RawMessage) (json.RawMessage, error) {
			var list []int
			json.Unmarshal(cur, &list)
			return json.Marshal(append(list, i))
		})
		if err != nil {
			t.Fatal(err)
		}
		// A note both writers change: a counter.
		err = s.Update("file:///shared", SectionValues, func(cur json.RawMessage) (json.RawMessage, error) {
			n, _ := strconv.Atoi(string(cur))
			return json.RawMessage(strconv.Itoa(n + 1)), nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range waits {
		fmt.Printf("wait %d\n", w.Microseconds())
	}
}

func TestTwoProcessesNeverLoseAnUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for _, name := range []string{"a", "b"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.v")
		cmd.Env = append(os.Environ(), "MARKII_STATE_WRITER_DIR="+dir, "MARKII_STATE_WRITER_NAME="+name)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	var waits []int
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i, err, outs[i])
		}
		for _, line := range strings.Split(outs[i].String(), "\n") {
			if us, ok := strings.CutPrefix(line, "wait "); ok {
				n, _ := strconv.Atoi(us)
				waits = append(waits, n)
			}
		}
	}
	s := Open(dir, Options{})
	for _, name := range []string{"a", "b"} {
		var list []int
		raw, _ := s.Get("file:///"+name, SectionValues)
		if err := json.Unmarshal(raw, &list); err != nil || len(list) != writerRounds {
			t.Fatalf("note %s kept %d of %d updates (%v)", name, len(list), writerRounds, err)
		}
	}
	if raw, _ := s.Get("file:///shared", SectionValues); string(raw) != strconv.Itoa(2*writerRounds) {
		t.Fatalf("the shared counter is %s, want %d: an update was lost", raw, 2*writerRounds)
	}
	if len(waits) != 4*writerRounds {
		t.Fatalf("%d lock waits reported, want %d", len(waits), 4*writerRounds)
	}
	slices.Sort(waits)
	p := func(q float64) time.Duration {
		return time.Duration(waits[min(len(waits)-1, int(q*float64(len(waits))))]) * time.Microsecond
	}
	t.Logf("lock wait over %d transactions of two concurrent writers: p50 %v, p99 %v, max %v", len(waits), p(0.50), p(0.99), p(1))
}
