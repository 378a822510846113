package ansi

import xansi "github.com/charmbracelet/x/ansi"

// Width returns the display width of s in terminal cells, by grapheme
// cluster and East Asian width: CJK and emoji count 2, combining marks and
// zero-width characters 0, ZWJ sequences as one cluster. s must not contain
// escape sequences (document text never does).
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return xansi.StringWidth(s)
		}
	}
	return len(s)
}
