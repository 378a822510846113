package highlight_test

import (
	"bytes"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// longLoad runs the load-independence test longer: more rounds and a
// longer fence in every language.
var longLoad = flag.Bool("load.long", false, "run TestLoadNeverChangesHighlighting with 500 rounds of a fence 20 times as long")

// fenceSample is code every lexer has something to say about: strings,
// comments of several families, numbers, tags, operators and brackets.
const fenceSample = `#include <x> /* c */ // c # c -- c
fn f(x: i32) { let s = "a \\"q\\" s"; return 'c'; } <a href='y'>t &amp;</a>
SELECT a FROM t WHERE n >= 42.5e-2; (f x) [1, 2] {k: v} @d $v %h
`

// everyLanguageNotes are notes of one fence each, one per language chroma
// knows, by each lexer's first plain name or alias (a layout highlights
// only so much chroma code, so one note of every fence would leave most
// of them plain).
func everyLanguageNotes(reps int) [][]byte {
	var notes [][]byte
	code := strings.Repeat(fenceSample, reps)
	for _, lx := range lexers.GlobalLexerRegistry.Lexers {
		cfg := lx.Config()
		for _, name := range append([]string{cfg.Name}, cfg.Aliases...) {
			if strings.ContainsAny(name, " /") || name == "" {
				continue
			}
			notes = append(notes, fmt.Appendf(nil, "## %s\n\n```%s\n%s```\n", name, name, code))
			break
		}
	}
	return notes
}

// saturate keeps every core busy with other work (spinning goroutines,
// one per core, that yield only when the scheduler preempts them) until
// the returned stop is called.
func saturate() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(1)
			for !done.Load() {
				for range 1 << 12 {
					x = x*6364136223846793005 + 1442695040888963407
				}
			}
			spun.Add(x & 1)
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// spun keeps the spinning goroutines' work from being optimized away.
var spun atomic.Uint64

// TestLoadNeverChangesHighlighting renders fences in every language chroma
// knows many times while every core is saturated by other work, and finds
// one output: a render's bytes do not depend on machine load (chroma's
// per-rule regexp timeout, which it treats as "no match", is gone).
func TestLoadNeverChangesHighlighting(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every language 50 times under load")
	}
	rounds, reps := 50, 1
	if *longLoad {
		rounds, reps = 500, 20
	}
	notes := everyLanguageNotes(reps)
	opt := render.Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	draw := func() []byte {
		var out []byte
		for _, src := range notes {
			out = append(out, ansi.Encode(render.Layout(render.Parse(src), opt).Lines, opt.Level)...)
		}
		return out
	}
	want := draw() // compiles every lexer unloaded
	if n := bytes.Count(want, []byte("\x1b[")); n < 10000 {
		t.Fatalf("the note has only %d escape sequences: is anything highlighted?", n)
	}
	stop := saturate()
	defer stop()
	start := time.Now()
	defer func() { t.Logf("%d rounds of %d languages under load in %v", rounds, len(notes), time.Since(start)) }()
	for i := range rounds {
		if got := draw(); !bytes.Equal(got, want) {
			t.Fatalf("round %d under load drew different bytes:\n%s", i, firstDifference(want, got))
		}
	}
}

// firstDifference shows the first line where a and b differ.
func firstDifference(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(al), len(bl)) {
		if !bytes.Equal(al[i], bl[i]) {
			return fmt.Sprintf("line %d:\n  %q\n  %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(al), len(bl))
}
