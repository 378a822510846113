// Package valuefmt formats script values for display the way the Markii
// reference's formatValue does with the en-US locale: JavaScript's
// number-to-string for plain values, Intl-style grouping, compact and
// percent notation, medium dates and relative times. It is pure: the clock
// is a parameter.
package valuefmt

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// The format names a value reference or component accepts. Any other name
// formats as Plain.
const (
	Plain    = "plain"
	Number   = "number"
	Compact  = "compact"
	Percent  = "percent"
	Date     = "date"
	Relative = "relative"
)

// ParseDecimals reads a `decimals` attribute: an integer 0..6. ok is false
// for anything else (which callers ignore).
func ParseDecimals(s string) (n int, ok bool) {
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 6 || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	return n, true
}

// Format renders v (nil, bool, float64, string, []any or Object, as Decode
// produces; other numeric Go types are accepted too) with the named format.
// decimals ("0".."6") fixes the fraction digits of number, compact and
// percent; any other value is ignored. now is the clock for relative times,
// and dates are shown in now's location.
func Format(v any, format, decimals string, now time.Time) string {
	v = normalize(v)
	switch format {
	case Number, Compact, Percent:
		return formatNumeric(v, format, decimals)
	case Date, Relative:
		return formatTime(v, format, now)
	}
	return PlainString(v)
}

// formatNumeric formats v with the number, compact or percent format: at
// most 3 fraction digits for number and 1 for the others unless decimals
// fixes them; plain when v is no number.
func formatNumeric(v any, format, decimals string) string {
	n, ok := numeric(v)
	if !ok {
		return PlainString(v)
	}
	minFrac, maxFrac := 0, 3
	if format != Number {
		maxFrac = 1
	}
	if d, ok := ParseDecimals(decimals); ok {
		minFrac, maxFrac = d, d
	}
	switch format {
	case Compact:
		return formatCompact(n, minFrac, maxFrac)
	case Percent:
		return formatFixed(n, 2, minFrac, maxFrac) + "%"
	}
	return formatFixed(n, 0, minFrac, maxFrac)
}

// formatTime formats v with the date or relative format; plain when v is
// no time.
func formatTime(v any, format string, now time.Time) string {
	t, ok := parseTime(v, now.Location())
	switch {
	case !ok:
		return PlainString(v)
	case format == Date:
		return MediumDate(t.In(now.Location()))
	}
	return RelativeTime(t, now)
}

// normalize maps Go numeric types onto float64.
func normalize(v any) any {
	switch t := v.(type) {
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case float32:
		return float64(t)
	}
	return v
}

// PlainString is the plain format: strings as they are, nil as "",
// numbers and booleans as JavaScript's String() prints them, arrays and
// objects as compact JSON.
func PlainString(v any) string {
	switch t := normalize(v).(type) {
	case nil:
		return ""
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return NumberString(t)
	}
	return Stringify(v)
}

// numeric returns v as a finite number: a number, or a string that
// JavaScript's Number() reads as one.
func numeric(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return 0, false
		}
		return t, true
	case string:
		return ParseNumber(t)
	}
	return 0, false
}

// formatFixed prints n×10^shift with grouping and between minFrac and
// maxFrac fraction digits, rounding half away from zero. Exact -0 prints
// as "0"; a negative number that rounds to zero keeps its sign ("-0"), as
// Intl.NumberFormat does.
func formatFixed(n float64, shift, minFrac, maxFrac int) string {
	d := toDecimal(n).shift(shift).round(maxFrac)
	return sign(n) + joinParts(d, minFrac, false)
}

func sign(n float64) string {
	if n < 0 {
		return "-"
	}
	return ""
}

func joinParts(d decimal, minFrac int, min2 bool) string {
	ip, fp := d.parts(minFrac)
	s := group(ip, min2)
	if fp != "" {
		s += "." + fp
	}
	return s
}

// compactUnits are the en-US short compact suffixes by power of 1000.
var compactUnits = []string{"", "k", "M", "B", "T"}

// formatCompact prints n in en-US short compact notation (1.2k, 2.3M, 4B,
// 5T) with a lowercase k.
func formatCompact(n float64, minFrac, maxFrac int) string {
	d := toDecimal(n)
	unit := 0
	if intDigits := d.intDigits(); intDigits > 3 {
		unit = (intDigits - 1) / 3
	}
	if unit >= len(compactUnits) {
		unit = len(compactUnits) - 1
	}
	for {
		r := d.shift(-3 * unit).round(maxFrac)
		if r.intDigits() > 3 && unit < len(compactUnits)-1 {
			unit++
			continue
		}
		return sign(n) + joinParts(r, minFrac, true) + compactUnits[unit]
	}
}

// Time limits of a JavaScript Date (±8.64e15 ms from the epoch).
const maxEpochMS = 8.64e15

// parseTime reads an ISO 8601 string, or epoch milliseconds as a number or
// a digit string. A date-time without an offset is read in loc (the
// caller's local zone, as JavaScript reads it); a date alone is UTC.
func parseTime(v any, loc *time.Location) (time.Time, bool) {
	switch t := v.(type) {
	case float64:
		return fromEpochMS(t)
	case string:
		s := strings.TrimSpace(t)
		if isDigits(s) || (len(s) > 1 && s[0] == '-' && isDigits(s[1:])) {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return time.Time{}, false
			}
			return fromEpochMS(f)
		}
		return parseISO(s, loc)
	}
	return time.Time{}, false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func fromEpochMS(ms float64) (time.Time, bool) {
	if math.IsNaN(ms) || math.Abs(ms) > maxEpochMS {
		return time.Time{}, false
	}
	ms = math.Trunc(ms)
	return time.UnixMilli(int64(ms)).UTC(), true
}

// isoLayouts are the ISO 8601 forms JavaScript's Date.parse accepts; local
// marks the date-time forms without an offset.
var isoLayouts = []struct {
	layout string
	local  bool
}{
	{"2006-01-02T15:04:05.999999999Z07:00", false},
	{"2006-01-02T15:04:05Z07:00", false},
	{"2006-01-02T15:04Z07:00", false},
	{"2006-01-02T15:04:05.999999999", true},
	{"2006-01-02T15:04:05", true},
	{"2006-01-02T15:04", true},
	{"2006-01-02", false},
	{"2006-01", false},
	{"2006", false},
}

func parseISO(s string, loc *time.Location) (time.Time, bool) {
	if len(s) < 4 || s[0] < '0' || s[0] > '9' {
		return time.Time{}, false
	}
	for _, f := range isoLayouts {
		zone := time.UTC
		if f.local {
			zone = loc
		}
		if t, err := time.ParseInLocation(f.layout, s, zone); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

var monthAbbrev = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// MediumDate prints t as the en-US medium date style: "Aug 17, 2026".
func MediumDate(t time.Time) string {
	y := t.Year()
	year := strconv.Itoa(y)
	if y <= 0 {
		year = strconv.Itoa(1-y) + " BC"
	}
	return monthAbbrev[t.Month()-1] + " " + strconv.Itoa(t.Day()) + ", " + year
}

// relativeUnits are the buckets of a relative time: a unit is used while
// the distance is below its limit (every finite distance for years).
// words are the en-US numeric:"auto" phrases for -1, 0 and 1. The table is
// constants only, so no code runs for it when a process starts.
var relativeUnits = [...]struct {
	name  string
	secs  float64
	limit float64
	words [3]string
}{
	{"second", 1, 60, [3]string{"1 second ago", "now", "in 1 second"}},
	{"minute", 60, 3600, [3]string{"1 minute ago", "this minute", "in 1 minute"}},
	{"hour", 3600, 86400, [3]string{"1 hour ago", "this hour", "in 1 hour"}},
	{"day", 86400, 30 * 86400, [3]string{"yesterday", "today", "tomorrow"}},
	{"month", 30 * 86400, 365 * 86400, [3]string{"last month", "this month", "next month"}},
	{"year", 365 * 86400, math.MaxFloat64, [3]string{"last year", "this year", "next year"}},
}

// RelativeTime prints t relative to now in en-US with numeric "auto":
// "3 hours ago", "in 2 days", "yesterday", "now". The unit is the largest
// whose bucket holds the distance (seconds under a minute, minutes under an
// hour, hours under a day, days under 30 days, 30-day months under 365
// days, then 365-day years); the count is rounded as Math.round does.
func RelativeTime(t, now time.Time) string {
	diff := float64(t.UnixMilli()-now.UnixMilli()) / 1000
	abs := math.Abs(diff)
	for _, u := range relativeUnits {
		if abs >= u.limit {
			continue
		}
		n := math.Floor(diff/u.secs + 0.5)
		if n >= -1 && n <= 1 {
			return u.words[int(n)+1]
		}
		count := formatFixed(math.Abs(n), 0, 0, 0)
		if n < 0 {
			return count + " " + u.name + "s ago"
		}
		return "in " + count + " " + u.name + "s"
	}
	return ""
}
