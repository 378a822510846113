package ansi

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestEncoderMatchesAppendLine checks that an Encoder, which remembers
// the sequences of the styles and the answer for the link it met, writes
// exactly what AppendLine writes line by line, across many calls and more
// styles than it remembers.
func TestEncoderMatchesAppendLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	color := func() Color {
		if rng.IntN(3) == 0 {
			return Color{}
		}
		return Color{R: uint8(rng.IntN(256)), G: uint8(rng.IntN(256)), B: uint8(rng.IntN(256)), ANSI16: uint8(30 + rng.IntN(8)), Set: true}
	}
	var styles []Style
	for range 3 * sgrCacheSize {
		styles = append(styles, Style{FG: color(), BG: color(), Bold: rng.IntN(2) == 0, Italic: rng.IntN(3) == 0, Underline: rng.IntN(4) == 0, Strikethru: rng.IntN(5) == 0, Dim: rng.IntN(6) == 0, Inverse: rng.IntN(7) == 0})
	}
	styles = append(styles, Style{}, Style{FG: Color{R: 1, Set: true}})
	links := []string{"", "", "https://example.com/a", "https://example.com/b", "ftps://example.com/ab", "javascript:alert(1)", "mailto:x@example.com"}
	for _, level := range []Level{None, Color16, Color256, TrueColor} {
		var enc Encoder
		var got, want []byte
		for range 300 {
			lines := make([]Line, 1+rng.IntN(4))
			for i := range lines {
				for n := rng.IntN(6); n > 0; n-- {
					lines[i] = append(lines[i], Span{Text: "text", Style: styles[rng.IntN(len(styles))], Link: links[rng.IntN(len(links))]})
				}
			}
			got = enc.AppendLines(got, lines, level)
			for _, l := range lines {
				want = append(AppendLine(want, l, level), '\n')
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("level %v: the Encoder wrote %d bytes, AppendLine %d", level, len(got), len(want))
		}
	}
}

// TestMaxSGRBoundsEverySequence checks the longest SGR sequence fits the
// remembered sequence buffer.
func TestMaxSGRBoundsEverySequence(t *testing.T) {
	white := Color{R: 255, G: 255, B: 255, ANSI16: 97, Set: true}
	all := Style{FG: white, BG: white, Bold: true, Dim: true, Italic: true, Underline: true, Inverse: true, Strikethru: true}
	if n := len(appendSGR(nil, all, TrueColor)); n != maxSGR {
		t.Fatalf("the longest SGR sequence is %d bytes, maxSGR is %d", n, maxSGR)
	}
}
