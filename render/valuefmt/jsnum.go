package valuefmt

import (
	"math"
	"strconv"
	"strings"
)

// decimal is a non-negative finite number as decimal digits: the value is
// 0.digits × 10^point. digits has no leading zeros; zero has no digits.
type decimal struct {
	digits []byte
	point  int
}

// toDecimal returns the shortest round-trip decimal of |v| (the digits
// JavaScript's Number-to-String uses).
func toDecimal(v float64) decimal {
	v = math.Abs(v)
	if v == 0 {
		return decimal{}
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits := []byte(strings.Replace(mant, ".", "", 1))
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return decimal{digits: digits, point: e + 1}
}

// shift multiplies d by 10^n.
func (d decimal) shift(n int) decimal {
	if len(d.digits) == 0 {
		return d
	}
	d.point += n
	return d
}

// round rounds d to frac fraction digits, half away from zero (the
// "halfExpand" mode of Intl.NumberFormat).
func (d decimal) round(frac int) decimal {
	keep := d.point + frac
	if keep >= len(d.digits) {
		return d
	}
	if keep < 0 {
		return decimal{}
	}
	up := d.digits[keep] >= '5'
	out := append([]byte(nil), d.digits[:keep]...)
	point := d.point
	if up {
		i := len(out) - 1
		for ; i >= 0; i-- {
			if out[i] < '9' {
				out[i]++
				break
			}
			out[i] = '0'
		}
		if i < 0 {
			out = append([]byte{'1'}, out...)
			point++
		}
	}
	for len(out) > 0 && out[len(out)-1] == '0' {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return decimal{}
	}
	return decimal{digits: out, point: point}
}

// intDigits is the number of digits before the decimal point (0 for a value
// below 1).
func (d decimal) intDigits() int {
	if len(d.digits) == 0 || d.point < 0 {
		return 0
	}
	return d.point
}

// parts splits d into its integer digits ("0" for none) and exactly frac
// fraction digits when minFrac reaches that far; trailing zeros beyond
// minFrac are dropped.
func (d decimal) parts(minFrac int) (intPart, fracPart string) {
	var ib, fb strings.Builder
	for i := 0; i < d.point; i++ {
		if i < len(d.digits) {
			ib.WriteByte(d.digits[i])
		} else {
			ib.WriteByte('0')
		}
	}
	if ib.Len() == 0 {
		ib.WriteByte('0')
	}
	for i := d.point; i < len(d.digits); i++ {
		if i < 0 {
			fb.WriteByte('0')
		} else {
			fb.WriteByte(d.digits[i])
		}
	}
	frac := fb.String()
	for len(frac) < minFrac {
		frac += "0"
	}
	return ib.String(), frac
}

// group inserts a comma between every three integer digits. With min2 set
// (compact notation), a four-digit integer is left ungrouped.
func group(intPart string, min2 bool) string {
	n := len(intPart)
	if n <= 3 || (min2 && n <= 4) {
		return intPart
	}
	var b strings.Builder
	first := n % 3
	if first == 0 {
		first = 3
	}
	b.WriteString(intPart[:first])
	for i := first; i < n; i += 3 {
		b.WriteByte(',')
		b.WriteString(intPart[i : i+3])
	}
	return b.String()
}

// NumberString is JavaScript's Number-to-String (`String(n)`): the shortest
// round-trip digits, plain notation for 1e-7 < |n| < 1e21 and exponent
// notation (`1e+21`, `1.5e-7`) outside it; -0 prints "0".
func NumberString(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 0):
		return sign(v) + "Infinity"
	case v == 0:
		return "0"
	}
	return sign(v) + toDecimal(v).jsString()
}

// jsString is d (not zero) as Number-to-String prints it: plain for
// exponents up to 21 and down to -6, else in exponent notation.
func (d decimal) jsString() string {
	k, n := len(d.digits), d.point
	digits := string(d.digits)
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	mant := digits[:1]
	if k > 1 {
		mant += "." + digits[1:]
	}
	exp := strconv.Itoa(n - 1)
	if n-1 >= 0 {
		exp = "+" + exp
	}
	return mant + "e" + exp
}

// jsWhitespace reports whether r is white space or a line terminator as
// JavaScript's Number() trims them.
func jsWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// ParseNumber converts a string as JavaScript's Number() does, but only
// accepts strings that are not blank and give a finite number: decimal
// literals with an optional sign, fraction and exponent, and unsigned
// 0x/0o/0b integers, with surrounding white space allowed.
func ParseNumber(s string) (float64, bool) {
	s = strings.TrimFunc(s, jsWhitespace)
	if s == "" {
		return 0, false
	}
	if base := radixOf(s); base != 0 {
		return parseRadix(s[2:], base)
	}
	if !isDecimalLiteral(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// radixOf is the base a 0x, 0o or 0b prefix gives s (with at least one
// byte after it), or 0.
func radixOf(s string) int {
	if len(s) <= 2 || s[0] != '0' {
		return 0
	}
	switch s[1] {
	case 'x', 'X':
		return 16
	case 'o', 'O':
		return 8
	case 'b', 'B':
		return 2
	}
	return 0
}

// parseRadix reads the digits of an integer in base; a number too large
// for a float64 is not finite and not accepted.
func parseRadix(digits string, base int) (float64, bool) {
	v := 0.0
	for _, c := range digits {
		d := digitValue(c)
		if d < 0 || d >= base {
			return 0, false
		}
		v = v*float64(base) + float64(d)
	}
	return v, !math.IsInf(v, 0)
}

// isDecimalLiteral reports whether s is a whole decimal literal: an
// optional sign, digits with an optional fraction (at least one digit in
// all), and an optional exponent with digits.
func isDecimalLiteral(s string) bool {
	i, whole := skipDigits(s, skipSign(s, 0))
	frac := 0
	if strings.HasPrefix(s[i:], ".") {
		i, frac = skipDigits(s, i+1)
	}
	if whole+frac == 0 {
		return false
	}
	i, ok := skipExponent(s, i)
	return ok && i == len(s)
}

// skipSign is the index past the + or - at s[i], or i when none is there.
func skipSign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// skipExponent is the index past the exponent (e or E, an optional sign
// and digits) at s[i], or i when none starts there; ok is false for an
// exponent without digits.
func skipExponent(s string, i int) (int, bool) {
	if i == len(s) || s[i] != 'e' && s[i] != 'E' {
		return i, true
	}
	i, n := skipDigits(s, skipSign(s, i+1))
	return i, n > 0
}

// skipDigits is the index past the ASCII digits of s from i on, and how
// many there were.
func skipDigits(s string, i int) (int, int) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, i - start
}

func digitValue(c rune) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
