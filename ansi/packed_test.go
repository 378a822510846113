package ansi

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// randomLines makes lines of spans with repeating styles, links, targets
// and the odd image, as a laid-out page has.
func randomLines(rng *rand.Rand, n int) []Line {
	styles := []Style{{}, {Bold: true}, {FG: Color{R: 1, Set: true}}, {Italic: true, BG: Color{B: 9, Set: true}}}
	links := []string{"", "", "https://a.example", "https://b.example/x"}
	img := &Image{}
	words := strings.Fields("alpha beta ┃ gamma 日本 δ é x")
	lines := make([]Line, n)
	for i := range lines {
		k := rng.IntN(9)
		if k == 0 {
			continue
		}
		l := make(Line, 0, k)
		for j := 0; j < k; j++ {
			s := Span{Text: words[rng.IntN(len(words))], Style: styles[rng.IntN(len(styles))], Link: links[rng.IntN(len(links))], Target: Target(rng.IntN(3))}
			if rng.IntN(40) == 0 {
				s = Span{Image: img}
			}
			if rng.IntN(10) == 0 {
				s.Text = ""
			}
			l = append(l, s)
		}
		lines[i] = l
	}
	return lines
}

func clone(lines []Line) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = append(Line(nil), l...)
	}
	return out
}

func TestPackedLinesGiveBackWhatCompactKeeps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := 0; round < 20; round++ {
		lines := randomLines(rng, 1+rng.IntN(400))
		var p PackedLines
		p.Append(lines...)
		if round%2 == 0 {
			p.Clip()
		}
		want := Compact(clone(lines))
		if p.Len() != len(want) {
			t.Fatalf("%d lines, want %d", p.Len(), len(want))
		}
		for i := range want {
			got := p.Line(i)
			if len(want[i]) == 0 {
				want[i] = nil
			}
			if !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("round %d line %d:\n got %+v\nwant %+v", round, i, got, want[i])
			}
			if p.Empty(i) != (len(want[i]) == 0) {
				t.Fatalf("line %d: Empty %v with %d spans", i, p.Empty(i), len(want[i]))
			}
			if p.Text(i) != lines[i].Text() {
				t.Fatalf("line %d text %q, want %q", i, p.Text(i), lines[i].Text())
			}
			for _, lvl := range []Level{None, Color16, TrueColor} {
				if g, w := string(AppendLine(nil, got, lvl)), string(AppendLine(nil, lines[i], lvl)); g != w {
					t.Fatalf("line %d at %v encodes %q, want %q", i, lvl, g, w)
				}
			}
		}
	}
}

func TestPackedLinesAreSmall(t *testing.T) {
	// A page of 20000 lines of 8 differently styled words: its spans are
	// 64 bytes each as Lines; packed, the whole page costs its text, one
	// buffer's slack, 12 bytes a span and 24 a line.
	rng := rand.New(rand.NewPCG(1, 1))
	var text int
	lines := make([]Line, 20000)
	for i := range lines {
		for j := 0; j < 8; j++ {
			w := fmt.Sprintf("w%d ", rng.IntN(1000))
			text += len(w)
			lines[i] = append(lines[i], Span{Text: w, Style: Style{Bold: j%2 == 0}, Target: Target(j)})
		}
	}
	var p PackedLines
	p.Append(lines...)
	p.Clip()
	held := p.Bytes()
	if limit := text + packedBuffer + 12*160000 + 24*20000 + 4096; held > limit {
		t.Fatalf("packed page holds %d bytes for %d of text, over %d", held, text, limit)
	}
	if unpacked := 64 * 160000; held*2 > unpacked {
		t.Fatalf("packed page holds %d bytes, not half the %d its spans take unpacked", held, unpacked)
	}
}

func TestPackedLinesKeepNoSourceText(t *testing.T) {
	src := strings.Repeat("a long source line ", 1000)
	var p PackedLines
	p.Append(Line{{Text: src[:6], Link: src[7:11]}})
	if got := p.Line(0); got[0].Text != "a long" || got[0].Link != "sour" {
		t.Fatalf("line %+v", got)
	}
	// The text and the link are copies: changing neither can be seen, but
	// their storage must not be src's.
	if unsafe.StringData(p.Text(0)) == unsafe.StringData(src) {
		t.Fatal("the line's text is the source's storage")
	}
	if l := p.Line(0)[0].Link; unsafe.StringData(l) == unsafe.StringData(src[7:]) {
		t.Fatal("the link is the source's storage")
	}
}
