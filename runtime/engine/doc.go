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
		c, size, cut := capDirective(d)
		truncated = truncated || cut
		if total+size > MaxListingBytes {
			truncated = true
			break
		}
		total += size
		out = append(out, c)
	}
	return out, truncated
}

// capDirective cleans one directive and caps its attributes: size is the
// bytes it keeps, cut whether anything was cut or dropped.
func capDirective(d script.Directive) (c script.Directive, size int, cut bool) {
	var nameCut, textCut, attrsCut bool
	var attrsSize int
	c.Name, nameCut = cleanText(d.Name, MaxAttrNameBytes)
	c.Form, _ = cleanText(d.Form, 16)
	c.Text, textCut = cleanText(d.Text, MaxDirectiveText)
	c.Attrs, attrsSize, attrsCut = capAttrs(d.Attrs)
	size = len(c.Name) + len(c.Form) + len(c.Text) + attrsSize
	return c, size, nameCut || textCut || attrsCut
}

// capAttrs cleans a directive's attributes: past MaxAttributes they are
// dropped, a name over the cap is dropped, a value over the cap is cut.
func capAttrs(in []script.Attr) (out []script.Attr, size int, cut bool) {
	for j, a := range in {
		if j >= MaxAttributes {
			return out, size, true
		}
		if len(a.Key) > MaxAttrNameBytes {
			cut = true
			continue
		}
		key, _ := cleanText(a.Key, MaxAttrNameBytes)
		val, vcut := cleanText(a.Value, MaxAttrValueBytes)
		cut = cut || vcut
		out = append(out, script.Attr{Key: key, Value: val})
		size += len(key) + len(val)
	}
	return out, size, cut
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
