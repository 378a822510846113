package ansi

import (
	"encoding/base64"
	"fmt"
	"strconv"
)

// ImageProtocol is how a terminal is asked to show an image's pixels.
type ImageProtocol uint8

// Image protocols. The zero value draws no pixels: pictures stay
// half-block cells, which are plain text and SGR.
const (
	NoImageProtocol ImageProtocol = iota
	// Kitty is the kitty graphics protocol (kitty, WezTerm, Ghostty): a
	// PNG sent in APC chunks, placed at the cursor without moving it.
	Kitty
	// ITerm2 is iTerm2's inline images (iTerm2, WezTerm): one OSC 1337
	// File sequence; the terminal moves the cursor past the image.
	ITerm2
)

// String is the protocol's name as `--images` spells it.
func (p ImageProtocol) String() string {
	switch p {
	case Kitty:
		return "kitty"
	case ITerm2:
		return "iterm"
	}
	return "blocks"
}

// Image is a picture a terminal draws from its pixels over Cols×Rows
// cells starting at the span that carries it. PNG is the encoded image;
// the layout that makes an Image has checked where it came from.
type Image struct {
	Protocol   ImageProtocol
	PNG        []byte
	Cols, Rows int
}

// kittyChunk is how many base64 bytes one kitty APC sequence carries (the
// protocol's limit is 4096).
const kittyChunk = 4096

// appendImage appends the sequence that shows img, or nothing for an
// image with no protocol, no pixels or no size.
func appendImage(dst []byte, img *Image) []byte {
	if img == nil || len(img.PNG) == 0 || img.Cols < 1 || img.Rows < 1 {
		return dst
	}
	switch img.Protocol {
	case Kitty:
		enc := base64.StdEncoding.EncodeToString(img.PNG)
		for i := 0; i < len(enc); i += kittyChunk {
			end := min(i+kittyChunk, len(enc))
			more := "0"
			if end < len(enc) {
				more = "1"
			}
			dst = append(dst, "\x1b_G"...)
			if i == 0 {
				dst = append(dst, "a=T,f=100,t=d,q=2,C=1,c="...)
				dst = strconv.AppendInt(dst, int64(img.Cols), 10)
				dst = append(dst, ",r="...)
				dst = strconv.AppendInt(dst, int64(img.Rows), 10)
				dst = append(dst, ',')
			}
			dst = append(dst, "m="+more+";"...)
			dst = append(dst, enc[i:end]...)
			dst = append(dst, "\x1b\\"...)
		}
	case ITerm2:
		dst = append(dst, "\x1b]1337;File=inline=1;size="...)
		dst = strconv.AppendInt(dst, int64(len(img.PNG)), 10)
		dst = append(dst, ";width="...)
		dst = strconv.AppendInt(dst, int64(img.Cols), 10)
		dst = append(dst, ";height="...)
		dst = strconv.AppendInt(dst, int64(img.Rows), 10)
		dst = append(dst, ";preserveAspectRatio=1:"...)
		dst = base64.StdEncoding.AppendEncode(dst, img.PNG)
		dst = append(dst, "\x1b\\"...)
	}
	return dst
}

// validateImage checks a kitty APC or iTerm2 OSC 1337 sequence at the
// start of b is exactly of the form appendImage writes, and returns its
// length and, for kitty, whether more chunks follow and whether it was a
// continuation chunk.
func validateImage(b []byte) (n int, kittyMore, kittyCont bool, err error) {
	var rest []byte
	switch {
	case hasPrefix(b, "\x1b_G"):
		rest, kittyMore, kittyCont, err = kittyHead(b[3:])
	case hasPrefix(b, "\x1b]1337;File=inline=1;size="):
		rest, err = itermHead(b[len("\x1b]1337;File=inline=1;size="):])
	default:
		err = fmt.Errorf("escape sequence that is not an image markii writes")
	}
	if err != nil {
		return 0, false, false, err
	}
	payload := 0
	for payload < len(rest) && isBase64(rest[payload]) {
		payload++
	}
	if payload == 0 || payload%4 != 0 || !hasPrefix(rest[payload:], "\x1b\\") {
		return 0, false, false, fmt.Errorf("image data that is not base64 ended by ST")
	}
	return len(b) - len(rest) + payload + 2, kittyMore, kittyCont, nil
}

// kittyHead checks a kitty graphics chunk's keys, rest being what follows
// ESC _ G, and returns its payload and whether more chunks follow and
// whether it continues an image (no size keys).
func kittyHead(rest []byte) (payload []byte, more, cont bool, err error) {
	const first = "a=T,f=100,t=d,q=2,C=1,c="
	if hasPrefix(rest, first) {
		var ok bool
		if rest, ok = skipNumber(rest[len(first):]); !ok || !hasPrefix(rest, ",r=") {
			return nil, false, false, fmt.Errorf("kitty image with a bad size")
		}
		if rest, ok = skipNumber(rest[3:]); !ok || len(rest) == 0 || rest[0] != ',' {
			return nil, false, false, fmt.Errorf("kitty image with a bad size")
		}
		rest = rest[1:]
	} else {
		cont = true
	}
	switch {
	case hasPrefix(rest, "m=0;"):
	case hasPrefix(rest, "m=1;"):
		more = true
	default:
		return nil, false, false, fmt.Errorf("kitty graphics sequence that markii does not write")
	}
	return rest[4:], more, cont, nil
}

// itermHead checks an iTerm2 inline image's arguments after its size=
// and returns its payload.
func itermHead(rest []byte) ([]byte, error) {
	var ok bool
	for _, next := range []string{";width=", ";height=", ";preserveAspectRatio=1:"} {
		if rest, ok = skipNumber(rest); !ok || !hasPrefix(rest, next) {
			return nil, fmt.Errorf("iTerm2 image with bad arguments")
		}
		rest = rest[len(next):]
	}
	return rest, nil
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// skipNumber skips a positive decimal number of at most 9 digits.
func skipNumber(b []byte) ([]byte, bool) {
	i := 0
	for i < len(b) && i < 10 && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 || b[0] == '0' {
		return b, false
	}
	return b[i:], true
}

func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}
