package notefile

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// binarySniffBytes is how much of a note is searched for a NUL byte, the
// mark of a binary file (the same window git and bat look at).
const binarySniffBytes = 8 << 10

var (
	utf8BOM    = []byte{0xef, 0xbb, 0xbf}
	utf16LEBOM = []byte{0xff, 0xfe}
	utf16BEBOM = []byte{0xfe, 0xff}
)

// DecodeText turns a note's bytes into the UTF-8 text the renderer
// reads: a UTF-8 byte order mark is dropped, and UTF-16 little- or
// big-endian text that starts with its byte order mark is decoded. It
// reports false for what is not text: a NUL byte in the first 8 KiB of the
// decoded text, malformed UTF-8, or malformed UTF-16 (an odd length or an
// unpaired surrogate).
func DecodeText(src []byte) ([]byte, bool) {
	text := src
	switch {
	case bytes.HasPrefix(src, utf8BOM):
		text = src[len(utf8BOM):]
	case bytes.HasPrefix(src, utf16LEBOM):
		var ok bool
		if text, ok = decodeUTF16(src[len(utf16LEBOM):], binary.LittleEndian); !ok {
			return nil, false
		}
	case bytes.HasPrefix(src, utf16BEBOM):
		var ok bool
		if text, ok = decodeUTF16(src[len(utf16BEBOM):], binary.BigEndian); !ok {
			return nil, false
		}
	}
	if bytes.IndexByte(text[:min(len(text), binarySniffBytes)], 0) >= 0 || !utf8.Valid(text) {
		return nil, false
	}
	return text, true
}

// decodeUTF16 decodes UTF-16 code units in the given byte order to UTF-8.
// It is strict where golang.org/x/text's decoder is lenient: malformed
// input is refused, not patched with U+FFFD, so a binary file that happens
// to start with FF FE is not shown as a page of replacement characters.
func decodeUTF16(b []byte, order binary.ByteOrder) ([]byte, bool) {
	if len(b)%2 != 0 {
		return nil, false
	}
	out := make([]byte, 0, len(b)+len(b)/2)
	for i := 0; i < len(b); i += 2 {
		r := rune(order.Uint16(b[i:]))
		if utf16.IsSurrogate(r) {
			if i+4 > len(b) {
				return nil, false
			}
			if r = utf16.DecodeRune(r, rune(order.Uint16(b[i+2:]))); r == unicode.ReplacementChar {
				return nil, false
			}
			i += 2
		}
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// looksLatin1 reports whether src, which is not UTF-8, is text in
// Latin-1 (ISO-8859-1): no NUL or other control byte but tab, line
// feed, form feed and carriage return, and none of the C1 controls
// (0x80–0x9F) that Latin-1 text never holds and UTF-8's continuation
// bytes often are.
func looksLatin1(src []byte) bool {
	return !utf8.Valid(src) && !slices.ContainsFunc(src, notLatin1Text) && !spellsUTF8(src)
}

// notLatin1Text reports whether c is a byte Latin-1 text never holds: a
// control byte but tab, line feed, form feed and carriage return, or a
// C1 control.
func notLatin1Text(c byte) bool {
	switch c {
	case '\t', '\n', '\f', '\r':
		return false
	}
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)
}

// spellsUTF8 reports whether src holds a multi-byte UTF-8 sequence.
// Latin-1 letters almost never happen to spell one; a note that has one
// is UTF-8 with some bytes wrong.
func spellsUTF8(src []byte) bool {
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if size > 1 && r != utf8.RuneError {
			return true
		}
		i += size
	}
	return false
}

// maxRepairs is how many byte sequences that are not UTF-8 a note may
// hold and still be read as text, when they are more than 1% of it.
const maxRepairs = 8

// repairUTF8 is src, UTF-8 text but for a few byte sequences, with each
// such sequence shown as U+FFFD, as bat and less show them, and how many
// there were. It reports false for what is mostly not text: a NUL in the
// first 8 KiB, a UTF-16 byte order mark, or more than maxRepairs bad
// sequences that are also more than 1% of the bytes.
func repairUTF8(src []byte) ([]byte, int, bool) {
	if bytes.HasPrefix(src, utf16LEBOM) || bytes.HasPrefix(src, utf16BEBOM) ||
		bytes.IndexByte(src[:min(len(src), binarySniffBytes)], 0) >= 0 {
		return nil, 0, false
	}
	src = bytes.TrimPrefix(src, utf8BOM)
	out := make([]byte, 0, len(src)+16)
	bad := 0
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
			if bad > maxRepairs && bad*100 > len(src) {
				return nil, bad, false
			}
		}
		out = utf8.AppendRune(out, r)
		i += size
	}
	return out, bad, true
}
