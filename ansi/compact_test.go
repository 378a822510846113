package ansi

import (
	"bytes"
	"testing"
)

func TestCompactKeepsBytes(t *testing.T) {
	src := "hello brave world"
	bold := Style{Bold: true}
	lines := []Line{
		{{Text: src[:5]}, {Text: src[5:6]}, {Text: src[6:11]}, {Text: "!", Style: bold}, {Text: "?", Style: bold}, {Text: " x", Link: "https://a.example"}, {Text: "y", Link: "https://a.example"}, {Text: "z"}},
		{},
		{{Text: "one"}},
	}
	var want [][]byte
	for _, lvl := range []Level{None, Color16, Color256, TrueColor} {
		want = append(want, Encode(lines, lvl))
	}
	got := Compact(lines)
	for i, lvl := range []Level{None, Color16, Color256, TrueColor} {
		if b := Encode(got, lvl); !bytes.Equal(b, want[i]) {
			t.Errorf("level %v: bytes changed\n got %q\nwant %q", lvl, b, want[i])
		}
	}
	if len(got[0]) != 4 {
		t.Fatalf("spans %d, want 4: %+v", len(got[0]), got[0])
	}
	if got[0][0].Text != "hello brave" {
		t.Errorf("merged words %q", got[0][0].Text)
	}
	if got[0][1].Text != "!?" || got[0][2].Text != " xy" || got[0][3].Text != "z" {
		t.Errorf("merged spans %+v", got[0])
	}
}
