package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/markii/markii/runtime/script"
)

// Caps of the doc.directives listing (SPEC §3.3). Exceeding any of them
// shortens the listing and sets doc.truncated; it never raises.
const (
	MaxListingBytes   = 512 << 10
	MaxDirectives     = 2000
	MaxDirectiveText  = 8 << 10
	MaxAttributes     = 32
	MaxAttrValueBytes = 1 << 10
	MaxAttrNameBytes  = 128
)

// CapDirectives applies the listing caps and cleaning to a listing (the
// host builds it; the engine applies the caps again so a forged request
// cannot hand a script more). Text and attributes lose C0 controls other
// than tab and line feed, DEL, and invalid UTF-8 (which is how an unpaired
// surrogate arrives); an attribute name over the cap is dropped, a value
// over the cap is cut. truncated is true when anything was cut or dropped.
func CapDirectives(in []script.Directive, truncated bool) ([]script.Directive, bool) {
	out := make([]script.Directive, 0, min(len(in), MaxDirectives))
	total := 0
	for i, d := range in {
		if i >= MaxDirectives {
			truncated = true
			break
		}
		var cut bool
		c := script.Directive{}
		c.Name, cut = cleanText(d.Name, MaxAttrNameBytes)
		truncated = truncated || cut
		c.Form, _ = cleanText(d.Form, 16)
		c.Text, cut = cleanText(d.Text, MaxDirectiveText)
		truncated = truncated || cut
		size := len(c.Name) + len(c.Form) + len(c.Text)
		for j, a := range d.Attrs {
			if j >= MaxAttributes {
				truncated = true
				break
			}
			if len(a.Key) > MaxAttrNameBytes {
				truncated = true
				continue
			}
			key, _ := cleanText(a.Key, MaxAttrNameBytes)
			val, vcut := cleanText(a.Value, MaxAttrValueBytes)
			truncated = truncated || vcut
			c.Attrs = append(c.Attrs, script.Attr{Key: key, Value: val})
			size += len(key) + len(val)
		}
		if total+size > MaxListingBytes {
			truncated = true
			break
		}
		total += size
		out = append(out, c)
	}
	return out, truncated
}

// cleanText removes the characters a listing never carries and cuts s to at
// most max bytes on a character boundary.
func cleanText(s string, max int) (string, bool) {
	if len(s) <= max && plainText(s) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if dropped(r, size) {
			continue
		}
		if b.Len()+size > max {
			return b.String(), true
		}
		b.WriteRune(r)
	}
	return b.String(), false
}

// plainText reports whether s is ASCII without control characters other
// than tab and line feed.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || dropped(rune(c), 1) {
			return false
		}
	}
	return true
}

// dropped reports whether cleanText drops the character r of size bytes:
// a control character other than tab and line feed, or invalid UTF-8.
func dropped(r rune, size int) bool {
	return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r == utf8.RuneError && size == 1)
}
