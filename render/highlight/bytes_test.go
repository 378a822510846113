package highlight

import (
	"strings"
	"testing"
)

// TestByteSets holds each byte set to the bytes its comment names, for
// every byte.
func TestByteSets(t *testing.T) {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	for _, s := range []struct {
		name string
		set  *byteSet
		want func(c byte) bool
	}{
		{"wordBytes", &wordBytes, func(c byte) bool { return letter(c) || digit(c) }},
		{"wordStarts", &wordStarts, letter},
		{"tagNameStarts", &tagNameStarts, func(c byte) bool { return letter(c) || c >= 0x80 }},
		{"tagNameBytes", &tagNameBytes, func(c byte) bool {
			return letter(c) || digit(c) || c == '-' || c == ':' || c == '.' || c >= 0x80
		}},
		{"cssIdentStarts", &cssIdentStarts, func(c byte) bool { return letter(c) || c == '-' || c >= 0x80 }},
		{"yamlScalarStops", &yamlScalarStops, func(c byte) bool { return c != 0 && strings.IndexByte("#:,[]{}", c) >= 0 }},
		{"cssIdentBytes", &cssIdentBytes, func(c byte) bool { return letter(c) || digit(c) || c == '-' || c >= 0x80 }},
	} {
		for c := 0; c < 256; c++ {
			if got, want := s.set.has(byte(c)), s.want(byte(c)); got != want {
				t.Errorf("%s.has(%#x) = %v, want %v", s.name, c, got, want)
			}
		}
	}
	for c := 0; c < 256; c++ {
		b := byte(c)
		if got, want := blanks[b], b == ' ' || b == '\t'; got != want {
			t.Errorf("blanks[%#x] = %v, want %v", c, got, want)
		}
		if got, want := codeSpaces[b], b == ' ' || b == '\t' || b == '\n' || b == '\r'; got != want {
			t.Errorf("codeSpaces[%#x] = %v, want %v", c, got, want)
		}
	}
}
