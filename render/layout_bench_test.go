package render

import (
	"fmt"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// benchNote generates realistic markdown of about size bytes: headings,
// wrapped paragraphs with inline styles and links, lists, quotes, code
// blocks and tables.
func benchNote(size int) []byte {
	rng := rand.New(rand.NewSource(1))
	words := strings.Fields("the quick brown fox jumps over lazy dog markii renders notes in a terminal with style while scripts run inside a sandbox 日本語 café")
	sent := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[rng.Intn(len(words))]
		}
		return strings.Join(parts, " ")
	}
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n%s **%s** and *%s* with `code` and [a link](https://example.com/%d).\n%s\n\n", i, sent(60), sent(3), sent(2), i, sent(40))
		fmt.Fprintf(&b, "- %s\n- %s\n  - %s\n1. %s\n2. %s\n\n> %s\n\n", sent(8), sent(12), sent(6), sent(5), sent(7), sent(30))
		fmt.Fprintf(&b, "```go\nfunc f%d(x int) int {\n    return x * %d // comment\n}\n```\n\n", i, i)
		fmt.Fprintf(&b, "| a | b | c |\n|---|:-:|--:|\n| %s | %s | %d |\n| %s | %s | %d |\n\n", sent(2), sent(3), i, sent(1), sent(4), 2*i)
	}
	return []byte(b.String()[:size])
}

func benchLayout(b *testing.B, size int) {
	d := Parse(benchNote(size))
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Layout(d, opt)
	}
}

// BenchmarkLayout lays out generated notes at width 100, truecolor.
func BenchmarkLayout(b *testing.B) {
	b.Run("5KB", func(b *testing.B) { benchLayout(b, 5<<10) })
	b.Run("1MB", func(b *testing.B) { benchLayout(b, 1<<20) })
}

// BenchmarkRenderPipeline parses, lays out and encodes a 1 MB note.
func BenchmarkRenderPipeline(b *testing.B) {
	src := benchNote(1 << 20)
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := Layout(Parse(src), opt)
		ansi.Encode(p.Lines, ansi.TrueColor)
	}
}

// BenchmarkLayoutPlain lays out a 1 MB note with no color (no
// highlighting), the cost of layout alone.
func BenchmarkLayoutPlain(b *testing.B) {
	d := Parse(benchNote(1 << 20))
	opt := Options{Width: 100, Level: ansi.None, Theme: theme.Dark}
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Layout(d, opt)
	}
}

// encodingStreamer is a Streamer that encodes each block's lines into
// *buf at opt's level, as `markii render` does before writing them.
func encodingStreamer(opt Options, buf *[]byte) *Streamer {
	return NewStreamer(opt, func(lines []ansi.Line) error {
		*buf = ansi.AppendLines((*buf)[:0], lines, opt.Level)
		return nil
	})
}

// BenchmarkRenderChunked is what `markii render` does with a 1 MB note:
// parse, lay out and encode it a chunk at a time.
func BenchmarkRenderChunked(b *testing.B) {
	src := benchNote(1 << 20)
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		s := encodingStreamer(opt, &buf)
		if err := ParseChunks(src, s.Add); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamLayout is the layout and encode stages of `markii render`
// alone: a 1 MB note parsed once into pieces, then laid out through a
// Streamer and encoded at truecolor on every iteration. Set
// MARKII_BENCH_NOTE to a file to lay out that note instead of the
// generated one.
func BenchmarkStreamLayout(b *testing.B) {
	src := benchNote(1 << 20)
	if path := os.Getenv("MARKII_BENCH_NOTE"); path != "" {
		var err error
		if src, err = os.ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
	var docs []*Document
	if err := ParseChunks(src, func(d *Document) error {
		docs = append(docs, d)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		s := encodingStreamer(opt, &buf)
		for _, d := range docs {
			piece := *d
			piece.Blocks = slices.Clone(d.Blocks)
			if err := s.Add(&piece); err != nil {
				b.Fatal(err)
			}
		}
	}
}
