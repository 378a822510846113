package highlight

// byteSet is a set of bytes: byte c is bit c%64 of word c/64. The sets
// the lexers test bytes against are composite literals of constants, so
// nothing is built for them when a process starts, and a test holds each
// to the bytes its comment names.
type byteSet [4]uint64

// has reports whether c is in the set.
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// The bits of bytes and byte ranges within their word: the bytes below
// 0x40 are in word 0, those from 0x40 to 0x7F in word 1, and highBytes
// fills words 2 and 3 (every byte from 0x80, a part of a UTF-8 sequence).
const (
	digitBits  = (1<<10 - 1) << '0'
	upperBits  = (1<<26 - 1) << ('A' - 0x40)
	lowerBits  = (1<<26 - 1) << ('a' - 0x40)
	underBit   = 1 << ('_' - 0x40)
	letterBits = upperBits | lowerBits | underBit
	highBytes  = 1<<64 - 1
)

var (
	// wordBytes are the ASCII letters, digits and the underscore.
	wordBytes = byteSet{digitBits, letterBits}
	// wordStarts are the ASCII letters and the underscore.
	wordStarts = byteSet{0, letterBits}
	// tagNameStarts can start an HTML or XML name: ASCII letters, the
	// underscore and every byte from 0x80.
	tagNameStarts = byteSet{0, letterBits, highBytes, highBytes}
	// tagNameBytes can be in an HTML or XML name: wordBytes, - : . and
	// every byte from 0x80.
	tagNameBytes = byteSet{digitBits | 1<<'-' | 1<<':' | 1<<'.', letterBits, highBytes, highBytes}
	// cssIdentStarts can start a CSS identifier: ASCII letters, _ and -
	// and every byte from 0x80.
	cssIdentStarts = byteSet{1 << '-', letterBits, highBytes, highBytes}
	// yamlScalarStops may end a YAML plain scalar: # : , [ ] { and }.
	yamlScalarStops = byteSet{1<<'#' | 1<<':' | 1<<',', 1<<('['-0x40) | 1<<(']'-0x40) | 1<<('{'-0x40) | 1<<('}'-0x40)}
	// cssIdentBytes can be in a CSS identifier: wordBytes, - and every
	// byte from 0x80.
	cssIdentBytes = byteSet{digitBits | 1<<'-', letterBits, highBytes, highBytes}
)

// blanks (the space and the tab) and codeSpaces (those and the line
// endings) are tables of a flag a byte: the scans over runs of them, the
// longest runs the lexers meet, test a byte with one load.
var (
	blanks     = [256]bool{' ': true, '\t': true}
	codeSpaces = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}
)
