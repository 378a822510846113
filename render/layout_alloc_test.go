package render

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// TestRunsWidthMatchesWrappedLines checks that measuring runs without
// building lines gives what the widest wrapped line measures, including
// text whose grapheme clusters straddle the spaces and run boundaries the
// wrapper cuts at.
func TestRunsWidthMatchesWrappedLines(t *testing.T) {
	words := []string{"a", "word", "日本語", "café", "e\u0301", " \u0301x", "\u0301", "👍🏽", "❤\ufe0f", " \ufe0f", "👨‍👩‍👧", "\u200d", "  ", " ", "x y", "\t", "🇺🇸"}
	styles := []ansi.Style{{}, {Bold: true}, {Italic: true}}
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 5000; i++ {
		var runs []run
		for n := rng.IntN(8); n >= 0; n-- {
			if rng.IntN(10) == 0 {
				runs = append(runs, run{brk: true})
				continue
			}
			var b strings.Builder
			for k := 1 + rng.IntN(4); k > 0; k-- {
				b.WriteString(words[rng.IntN(len(words))])
				if rng.IntN(2) == 0 {
					b.WriteString(" ")
				}
			}
			runs = append(runs, run{text: b.String(), style: styles[rng.IntN(len(styles))]})
		}
		want := 0
		for _, ln := range wrapRuns(runs, 1<<30, nil) {
			want = max(want, ln.Width())
		}
		if got := runsWidth(runs); got != want {
			t.Fatalf("runsWidth(%+v) = %d, the widest wrapped line is %d", runs, got, want)
		}
	}
}

// TestStreamReusesStorageSafely lays a long note out through Stream,
// which reuses the lines' storage after each block, and through Layout,
// which keeps every line, and checks the bytes agree at every level.
func TestStreamReusesStorageSafely(t *testing.T) {
	src := benchNote(256 << 10)
	for _, level := range []ansi.Level{ansi.None, ansi.Color16, ansi.TrueColor} {
		for _, width := range []int{100, 33, 7} {
			opt := Options{Width: width, Level: level, Theme: theme.Dark}
			want := ansi.Encode(Layout(Parse(src), opt).Lines, level)
			var got []byte
			var enc ansi.Encoder
			if _, err := Stream(Parse(src), opt, func(lines []ansi.Line) error {
				got = enc.AppendLines(got, lines, level)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Fatalf("level %v width %d: Stream and Layout differ at byte %d: %q vs %q", level, width, i, got[i:min(i+80, len(got))], want[i:min(i+80, len(want))])
			}
		}
	}
}

// TestStreamAllocatesLittle guards the point of the reused storage: laying
// out and encoding a long note a block at a time allocates a small
// fraction of the note's size rather than several times it.
func TestStreamAllocatesLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation measurement lays out a 256 KB note repeatedly")
	}
	src := benchNote(256 << 10)
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	var buf []byte
	layout := func() {
		doc := Parse(src)
		var enc ansi.Encoder
		if _, err := Stream(doc, opt, func(lines []ansi.Line) error {
			buf = enc.AppendLines(buf[:0], lines, opt.Level)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	layout()
	parseOnly := testing.AllocsPerRun(3, func() { Parse(src) })
	both := testing.AllocsPerRun(3, layout)
	// benchNote's 256 KB hold about 1,300 blocks; the layout used to
	// allocate about 30 times per block.
	if extra := both - parseOnly; extra > 8000 {
		t.Errorf("laying out a 256 KB note allocated %.0f times beyond its parse", extra)
	}
}

// TestHorizontalRuns checks the rule pieces sliced from the constant and
// those built past its end.
func TestHorizontalRuns(t *testing.T) {
	for n := 0; n <= 300; n++ {
		if got, want := horizontal(n), strings.Repeat("─", n); got != want {
			t.Fatalf("horizontal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestNestedContainersPrefixInPlace lays out quotes and lists nested 30
// deep and checks each line carries one bar per enclosing quote, that
// Stream (which reuses line storage) agrees with Layout, and that what
// the layout allocates stays within six times the span storage the page
// holds: copying every line again at every level made it about depth/2
// times as much.
func TestNestedContainersPrefixInPlace(t *testing.T) {
	const depth = 30
	var b strings.Builder
	for i := 1; i <= depth; i++ {
		b.WriteString(strings.Repeat("> ", i) + "level words that wrap around at this width\n")
		b.WriteString(strings.Repeat("> ", i) + "\n")
		b.WriteString(strings.Repeat("> ", i) + "- item\n")
		b.WriteString(strings.Repeat("> ", i) + "  - nested item\n")
		b.WriteString(strings.Repeat("> ", i) + "\n")
	}
	src := []byte(b.String())
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	page := Layout(Parse(src), opt)
	spans := 0
	for _, ln := range page.Lines {
		spans += len(ln)
	}
	// A level's paragraph wraps at the width left to it; every one of its
	// lines starts with a bar per enclosing quote.
	for i := 1; i <= depth; i++ {
		bars := strings.Repeat("│ ", i)
		found := false
		for _, ln := range page.Lines {
			if text := ln.Text(); strings.HasPrefix(text, bars+"level") && !strings.HasPrefix(text, bars+"│") {
				found = true
			}
		}
		if !found {
			t.Fatalf("no line of level %d starts with %d bars and its text:\n%s", i, i, ansi.Encode(page.Lines, ansi.None))
		}
	}
	want := ansi.Encode(page.Lines, opt.Level)
	var got []byte
	if _, err := Stream(Parse(src), opt, func(lines []ansi.Line) error {
		got = ansi.AppendLines(got, lines, opt.Level)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Stream and Layout differ:\n%s\n---\n%s", got, want)
	}

	doc := Parse(src)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	Layout(doc, opt)
	runtime.ReadMemStats(&after)
	held := uint64(spans) * uint64(unsafe.Sizeof(ansi.Span{}))
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("laying out %d spans (%d KB) allocated %d KB", spans, held>>10, alloc>>10)
	if alloc > 6*held {
		t.Errorf("laying out %d spans (%d KB) allocated %d KB", spans, held>>10, alloc>>10)
	}
}
