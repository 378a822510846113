package ansi

import (
	"bytes"
	"strings"
	"testing"
)

// TestImagesEncodeAndValidate: what Encode writes for an Image passes
// Validate, in one chunk and in many, and only at a color level.
func TestImagesEncodeAndValidate(t *testing.T) {
	small := []byte("\x89PNG tiny")
	big := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 5000) // several kitty chunks
	for _, proto := range []ImageProtocol{Kitty, ITerm2} {
		for _, data := range [][]byte{small, big} {
			lines := []Line{{{Text: "before", Style: Style{Bold: true}}}, {{Image: &Image{Protocol: proto, PNG: data, Cols: 3, Rows: 2}}}, {}, {{Text: "after", Link: "https://a.example/"}}}
			out := Encode(lines, TrueColor)
			if err := Validate(out); err != nil {
				t.Errorf("%v, %d bytes: %v\n%q", proto, len(data), err, out)
			}
			if proto == Kitty && len(data) == len(big) && strings.Count(string(out), "\x1b_G") < 3 {
				t.Errorf("a big kitty image is not sent in chunks")
			}
			if none := Encode(lines, None); bytes.IndexByte(none, 0x1b) >= 0 {
				t.Errorf("%v at None: %q", proto, none)
			}
		}
	}
}

// TestValidateRefusesOtherImageSequences: graphics sequences markii does
// not write, or cut up, are refused.
func TestValidateRefusesOtherImageSequences(t *testing.T) {
	for _, in := range []string{
		"\x1b_Ga=d;\x1b\\", // delete images
		"\x1b_Ga=T,f=100,t=f,q=2,C=1,c=1,r=1,m=0;AAAA\x1b\\",  // read a file
		"\x1b_Ga=T,f=100,t=d,q=2,C=1,c=1,r=1,m=1;AAAA\x1b\\",  // more promised, none sent
		"\x1b_Gm=0;AAAA\x1b\\",                                // a continuation with no start
		"\x1b_Ga=T,f=100,t=d,q=2,C=1,c=1,r=1,m=0;AA!A\x1b\\",  // not base64
		"\x1b_Ga=T,f=100,t=d,q=2,C=1,c=1,r=1,m=0;AAAA\x07",    // not ended by ST
		"\x1b_Ga=T,f=100,t=d,q=2,C=1,c=01,r=1,m=0;AAAA\x1b\\", // a padded number
		"\x1b]1337;File=inline=1;size=3;width=1;height=1;preserveAspectRatio=1:AAAA\x07",
		"\x1b]1337;File=name=eA==;inline=1:AAAA\x1b\\",
		"\x1b]1337;SetMark\x1b\\",
		"\x1b]1337;File=inline=1;size=3;width=1;height=1;preserveAspectRatio=1:AAAA\x1b\\x\x1b]1337;",
		"\x1b[1m\x1b_Ga=T,f=100,t=d,q=2,C=1,c=1,r=1,m=0;AAAA\x1b\\\x1b[0m", // inside a style
		"\x1bPq#0;2;0;0;0\x1b\\",                                           // sixel
	} {
		if err := Validate([]byte(in)); err == nil {
			t.Errorf("Validate(%q) accepted it", in)
		}
	}
}
