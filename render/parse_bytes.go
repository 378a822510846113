package render

// Byte classes for the parsers' per-byte scans: one table lookup in
// place of a chain of comparisons.
const (
	// classAlnum is an ASCII letter or digit.
	classAlnum byteClassSet = 1 << iota
	// classPunct is ASCII punctuation (CommonMark's escapable bytes).
	classPunct
	// classHTMLSpace is HTML white space: space, tab, LF, CR, FF.
	classHTMLSpace
	// classTagName is a byte of a tag name: a letter, a digit or '-'.
	classTagName
	// classAttrName is a byte of an attribute name: a letter, a digit
	// or one of "-_:.".
	classAttrName
	// classValueBad is a byte an unquoted attribute value must not hold.
	classValueBad
	// classValueEnd ends an unquoted attribute value: HTML white space
	// or '>'.
	classValueEnd
	// classBlank is what the chunk scanner takes for blank: space, tab,
	// CR and LF (a subset of what goldmark treats as blank).
	classBlank
	// classBullet is a bullet list marker: '-', '+' or '*'.
	classBullet
	// classDecode starts what appendDecoded decodes: '&' or '\\'.
	classDecode
	// classKeyStart starts a fence meta key or a script name: a letter
	// or '_'.
	classKeyStart
	// classKey is a byte of a fence meta key or a script name: a letter,
	// a digit, '_' or '-'.
	classKey
)

// byteClassSet is a set of byte classes.
type byteClassSet uint16

// noDigit is digitValues' entry for a byte that is no hex digit.
const noDigit = 0xff

var (
	byteClass   = byteClasses()
	digitValues = hexDigits()
)

const (
	asciiLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	asciiDigits  = "0123456789"
	asciiPunct   = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	htmlSpace    = " \t\n\r\f"
)

func byteClasses() (t [256]byteClassSet) {
	for _, set := range [...]struct {
		bytes string
		class byteClassSet
	}{
		{asciiLetters + asciiDigits, classAlnum | classTagName | classAttrName},
		{asciiPunct, classPunct},
		{htmlSpace, classHTMLSpace | classValueEnd},
		{"-", classTagName | classAttrName},
		{"_:.", classAttrName},
		{"\"'=<`", classValueBad},
		{">", classValueEnd},
		{" \t\r\n", classBlank},
		{"-+*", classBullet},
		{"&\\", classDecode},
		{asciiLetters + "_", classKeyStart | classKey},
		{asciiDigits + "-", classKey},
	} {
		for i := range len(set.bytes) {
			t[set.bytes[i]] |= set.class
		}
	}
	return t
}

func hexDigits() (t [256]uint8) {
	for i := range t {
		t[i] = noDigit
	}
	for i, set := range [...]string{asciiDigits, "abcdef", "ABCDEF"} {
		for j := range len(set) {
			t[set[j]] = uint8(min(i, 1)*10 + j)
		}
	}
	return t
}

// isClass reports whether c is in any of the classes in mask.
func isClass(c byte, mask byteClassSet) bool { return byteClass[c]&mask != 0 }

// skipClass returns the index of the first byte at or after b[i:] that
// is in none of the classes in mask, or len(b).
func skipClass(b []byte, i int, mask byteClassSet) int {
	for i < len(b) && byteClass[b[i]]&mask != 0 {
		i++
	}
	return i
}

// skipOutside returns the index of the first byte at or after b[i:]
// that is in one of the classes in mask, or len(b).
func skipOutside(b []byte, i int, mask byteClassSet) int {
	for i < len(b) && byteClass[b[i]]&mask == 0 {
		i++
	}
	return i
}

// digitValue returns the value of the digit c in base (10 or 16), or -1.
func digitValue(c byte, base int) int {
	if d := int(digitValues[c]); d < base {
		return d
	}
	return -1
}

func isASCIIAlnum(c byte) bool { return isClass(c, classAlnum) }

func isASCIIPunct(c byte) bool { return isClass(c, classPunct) }
