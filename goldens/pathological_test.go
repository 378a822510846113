package goldens

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/internal/pathological"
)

var pathologicalFull = flag.Bool("pathological", false,
	"render the hostile markdown inputs through the binary at cmark's sizes too (slow; each must take under 0.5 s of wall time)")

// peerLimit is how long a peer renderer may take on one hostile input
// before it is stopped and reported as over the limit.
const peerLimit = 10 * time.Second

// peerWall is the wall time of one run of a peer renderer, or "over
// peerLimit" when it had to be stopped.
func peerWall(t *testing.T, name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), peerLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		return fmt.Sprintf("over %v, stopped", peerLimit)
	}
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("%s: %v", name, err)
	}
	return time.Since(start).String()
}

// TestHostileMarkdownRendersInLinearTimeThroughTheBinary runs `markii
// render` on each of cmark's pathological inputs at an eighth of cmark's
// size and at twice that: the process's CPU time, less what rendering an
// empty note costs, must grow at most 2.5 times. With -pathological it
// also renders each at cmark's size and twice that, where the best of
// three wall times must stay under half a second at cmark's size and grow
// at most 2.5 times; lowdown's times for the same files, when it is
// installed, are logged beside markii's. This is the path a
// stranger's note takes, a piece at a time, with the note's reference
// definitions shared by every piece.
func TestHostileMarkdownRendersInLinearTimeThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 70 notes of up to 3 MB three times each; run without -short")
	}
	bin := markiiBinary(t)
	dir := t.TempDir()
	env := baseEnv()
	path := filepath.Join(dir, "note.mk.md")
	// cpu is the least CPU time (user and system) of three renders of src.
	// A note markii refuses (one holding NUL bytes is not text) must be
	// refused in linear time too. The render runs on one core
	// (GOMAXPROCS=1): with a second one, the collector's idle mark
	// workers and the parser's helpers take it whenever it is free and
	// charge the process for it, so the CPU time of a small render
	// measured how busy the machine was.
	oneCore := append(slices.Clone(env), "GOMAXPROCS=1")
	cpu := func(t *testing.T, src []byte) time.Duration {
		writeFile(t, path, src)
		best := time.Duration(1<<63 - 1)
		for range 3 {
			cmd := exec.Command(bin, "render", "--width", "80", "--color", "truecolor", path)
			cmd.Env = oneCore
			cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
				t.Fatalf("markii render: %v", err)
			}
			best = min(best, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
		return best
	}
	// wall is the least wall time of runs runs of name with args.
	wall := func(t *testing.T, runs int, name string, args ...string) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range runs {
			cmd := exec.Command(name, args...)
			cmd.Env = env
			cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			start := time.Now()
			if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
				t.Fatalf("%s: %v", name, err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	lowdown, _ := exec.LookPath("lowdown")
	startup := cpu(t, nil)
	for _, in := range pathological.Inputs {
		t.Run(in.Name, func(t *testing.T) {
			render := func(src []byte) time.Duration { return max(cpu(t, src)-startup, 0) }
			n := in.CI()
			// Process CPU time is counted in scheduler ticks and each run
			// starts a runtime: allow more noise than in process.
			small, large := pathological.LinearGrowth(t, in, n, 20*time.Millisecond, render)
			t.Logf("n=%d: %v, 2n: %v (start-up %v)", n, small, large, startup)
			if !*pathologicalFull {
				return
			}
			renderWall := func(src []byte) time.Duration {
				writeFile(t, path, src)
				return wall(t, 3, bin, "render", "--width", "80", "--color", "truecolor", path)
			}
			// An input whose double markii would refuse as too big a note
			// (the 3,000 levels of nested fences) grows from half its size
			// to its size instead.
			n = in.Cmark
			if 2*len(in.Gen(in.Cmark)) > notefile.MaxNoteBytes {
				n /= 2
			}
			small, large = pathological.LinearGrowth(t, in, n, 20*time.Millisecond, renderWall)
			full := small
			if n != in.Cmark {
				full = large
			}
			// One run of lowdown, for the ratio. It is slow on some of
			// these and grows its memory by gigabytes a minute on
			// unclosed comments, so it is stopped after peerLimit.
			peer := "lowdown not installed"
			if lowdown != "" {
				writeFile(t, path, []byte(in.Gen(in.Cmark)))
				peer = "lowdown -Tterm " + peerWall(t, lowdown, "-Tterm", path)
			}
			t.Logf("n=%d: %v wall, 2n: %v; cmark's n=%d: %v (%s)", n, small, large, in.Cmark, full, peer)
			if full > 500*time.Millisecond {
				t.Errorf("%s at cmark's size took %v of wall time, over 0.5 s", in.Name, full)
			}
		})
	}
	os.Remove(path)
}
