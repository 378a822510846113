package ansi

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Validate checks that b contains no escape sequence or control character
// other than what Encode writes: SGR sequences (ESC [ digits and ';' m),
// OSC 8 hyperlinks terminated by BEL whose URL passes LinkAllowed, the
// kitty graphics chunks and iTerm2 inline images of a span's Image in
// exactly the form Encode gives them, and line feeds. Anything else (another CSI, an OSC title or clipboard write, DCS,
// a C1 control, BEL, BS, CR, TAB, DEL, NUL, invalid UTF-8) is an error that
// names the byte offset.
//
// It also checks the shape Encode gives its sequences: every SGR that opens
// a style is closed by a reset before the next one opens and before the
// line ends, and every hyperlink opened on a line is closed on it. So a
// stray sequence that looks like the engine's own (an author's ESC[31m that
// slipped past the sanitizer) is still caught unless it forms a perfectly
// balanced run.
func Validate(b []byte) error {
	var v validator
	for i := 0; i < len(b); {
		n, err := v.step(b[i:])
		if err != nil {
			return fmt.Errorf("offset %d: %w", i, err)
		}
		i += n
	}
	if v.open() {
		return fmt.Errorf("offset %d: a style, hyperlink or image is still open at the end of the output", len(b))
	}
	return nil
}

// validator is what Validate knows of the output read so far: whether a
// style, a hyperlink or a chunked kitty image is open.
type validator struct {
	sgrOpen, linkOpen, kittyMore bool
}

func (v *validator) open() bool { return v.sgrOpen || v.linkOpen || v.kittyMore }

// step checks the line end, sequence, character or byte b starts with
// and returns its length.
func (v *validator) step(b []byte) (int, error) {
	c := b[0]
	switch {
	case c == '\n':
		if v.open() {
			return 0, errors.New("a style, hyperlink or image is still open at the end of the line")
		}
		return 1, nil
	case c == 0x1b && len(b) > 1 && (b[1] == '_' || hasPrefix(b, "\x1b]1337;")):
		return v.image(b)
	case v.kittyMore:
		return 0, errors.New("a kitty image is cut off")
	case c == 0x1b:
		n, err := validateEscape(b)
		if err == nil {
			err = balance(b[:n], &v.sgrOpen, &v.linkOpen)
		}
		return n, err
	}
	return validateChar(b)
}

// image checks the inline image b starts with and where it stands.
func (v *validator) image(b []byte) (int, error) {
	n, more, cont, err := validateImage(b)
	if err != nil {
		return 0, err
	}
	if v.sgrOpen || v.linkOpen {
		return 0, errors.New("an image inside a style or hyperlink")
	}
	if cont != v.kittyMore {
		return 0, errors.New("a kitty image chunk out of order")
	}
	v.kittyMore = more
	return n, nil
}

// validateChar checks the character b starts with, no control byte nor
// C1 control and valid UTF-8, and returns its length.
func validateChar(b []byte) (int, error) {
	switch c := b[0]; {
	case c < 0x20 || c == 0x7f:
		return 0, fmt.Errorf("control byte 0x%02x", c)
	case c < 0x80:
		return 1, nil
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		return 0, errors.New("invalid UTF-8")
	}
	if r >= 0x80 && r <= 0x9f {
		return 0, fmt.Errorf("C1 control U+%04X", r)
	}
	return size, nil
}

// balance tracks what the well-formed sequence seq opens and closes: Encode
// writes link open, style open, text, reset, link close, never nesting.
func balance(seq []byte, sgrOpen, linkOpen *bool) error {
	switch {
	case string(seq) == "\x1b[0m":
		if !*sgrOpen {
			return fmt.Errorf("a reset with no style open")
		}
		*sgrOpen = false
	case seq[1] == '[':
		if *sgrOpen {
			return fmt.Errorf("a style opened while another is open")
		}
		*sgrOpen = true
	case string(seq) == "\x1b]8;;\x07":
		if !*linkOpen || *sgrOpen {
			return fmt.Errorf("a hyperlink close that does not match an open")
		}
		*linkOpen = false
	default:
		if *linkOpen || *sgrOpen {
			return fmt.Errorf("a hyperlink opened inside another or inside a style")
		}
		*linkOpen = true
	}
	return nil
}

// validateEscape checks the escape sequence at the start of b and returns
// its length.
func validateEscape(b []byte) (int, error) {
	if len(b) < 2 {
		return 0, fmt.Errorf("lone ESC")
	}
	switch b[1] {
	case '[':
		return validateSGR(b)
	case ']':
		return validateLink(b)
	}
	return 0, fmt.Errorf("escape sequence ESC 0x%02x", b[1])
}

// validateSGR checks the CSI sequence b starts with: an SGR of digits and
// semicolons.
func validateSGR(b []byte) (int, error) {
	for j := 2; j < len(b); j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9', c == ';':
		case c == 'm':
			if j == 2 {
				return 0, fmt.Errorf("empty SGR")
			}
			return j + 1, nil
		default:
			return 0, fmt.Errorf("CSI sequence that is not SGR (final 0x%02x)", c)
		}
	}
	return 0, fmt.Errorf("unterminated CSI")
}

// validateLink checks the OSC sequence b starts with: an OSC 8 hyperlink
// to an allowed URL, or its close, ended by BEL.
func validateLink(b []byte) (int, error) {
	const open = "\x1b]8;;"
	if len(b) < len(open) || string(b[:len(open)]) != open {
		return 0, fmt.Errorf("OSC sequence that is not a hyperlink")
	}
	for j := len(open); j < len(b); j++ {
		if b[j] == 0x07 {
			url := string(b[len(open):j])
			if url != "" && !LinkAllowed(url) {
				return 0, fmt.Errorf("hyperlink to a refused URL")
			}
			return j + 1, nil
		}
		if b[j] < 0x20 || b[j] >= 0x7f {
			return 0, fmt.Errorf("control or non-ASCII byte inside a hyperlink")
		}
	}
	return 0, fmt.Errorf("unterminated OSC")
}
