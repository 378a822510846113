package valuefmt

import (
	"math"
	"testing"
	"time"
)

var tenth, fifth = 0.1, 0.2

var testNow = time.Date(2026, 8, 17, 12, 0, 0, 0, time.UTC)

func TestNumberString(t *testing.T) {
	cases := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{tenth + fifth, "0.30000000000000004"},
		{1e21, "1e+21"},
		{1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"},
		{1.5e300, "1.5e+300"},
		{-2.5e25, "-2.5e+25"},
		{0.000001, "0.000001"},
		{1e-7, "1e-7"},
		{1.23e-18, "1.23e-18"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{9007199254740993, "9007199254740992"},
		{123.456, "123.456"},
		{100, "100"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, c := range cases {
		if got := NumberString(c.in); got != c.want {
			t.Errorf("NumberString(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	obj, err := Decode([]byte(`{"b":1,"2":true,"a":[1,"x",null],"1":"\u001b]0;t\u0007","b":2}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		v        any
		format   string
		decimals string
		want     string
	}{
		// plain
		{nil, "", "", ""},
		{"hello", "", "", "hello"},
		{"**bold**", Plain, "", "**bold**"},
		{true, Plain, "", "true"},
		{false, "unknown-format", "", "false"},
		{1e21, Plain, "", "1e+21"},
		{math.Copysign(0, -1), Plain, "", "0"},
		{1234.5, Plain, "2", "1234.5"},
		{[]any{1.0, "two", nil, false}, Plain, "", `[1,"two",null,false]`},
		{obj, Plain, "", `{"1":"\u001b]0;t\u0007","2":true,"b":2,"a":[1,"x",null]}`},
		{Object{}, Plain, "", `{}`},
		{[]any{}, Plain, "", `[]`},
		{"<a>&\u2028", Plain, "", "<a>&\u2028"},
		{[]any{"<a>&\"\\"}, Plain, "", `["<a>&\"\\"]`},

		// number
		{1234567.891, Number, "", "1,234,567.891"},
		{1234.5678, Number, "", "1,234.568"},
		{1.0005, Number, "", "1.001"},
		{0.0001, Number, "", "0"},
		{-0.0001, Number, "", "-0"},
		{math.Copysign(0, -1), Number, "", "0"},
		{-1234.5, Number, "", "-1,234.5"},
		{999.9995, Number, "", "1,000"},
		{1e21, Number, "", "1,000,000,000,000,000,000,000"},
		{1.5e-10, Number, "", "0"},
		{"1234", Number, "", "1,234"},
		{"  42.5 ", Number, "", "42.5"},
		{"1e3", Number, "", "1,000"},
		{"0x10", Number, "", "16"},
		{"-0x10", Number, "", "-0x10"},
		{"abc", Number, "", "abc"},
		{"", Number, "", ""},
		{"NaN", Number, "", "NaN"},
		{"Infinity", Number, "", "Infinity"},
		{"-Infinity", Number, "", "-Infinity"},
		{"1e400", Number, "", "1e400"},
		{true, Number, "", "true"},
		{nil, Number, "", ""},
		{[]any{1.0}, Number, "", "[1]"},
		{2.5, Number, "0", "3"},
		{-2.5, Number, "0", "-3"},
		{1, Number, "2", "1.00"},
		{1234.5, Number, "6", "1,234.500000"},
		{1234.5, Number, "7", "1,234.5"},
		{1234.5, Number, "-1", "1,234.5"},
		{1234.5, Number, "1.5", "1,234.5"},
		{1234.5, Number, "abc", "1,234.5"},
		{100, Number, "", "100"},
		{1000, Number, "", "1,000"},
		{123456789012345680000.0, Number, "", "123,456,789,012,345,680,000"},

		// compact
		{2300000, Compact, "", "2.3M"},
		{12400, Compact, "", "12.4k"},
		{12345, Compact, "", "12.3k"},
		{123456, Compact, "", "123.5k"},
		{999, Compact, "", "999"},
		{999.94, Compact, "", "999.9"},
		{999.96, Compact, "", "1k"},
		{1000, Compact, "", "1k"},
		{1050, Compact, "", "1.1k"},
		{999999, Compact, "", "1M"},
		{1500000000, Compact, "", "1.5B"},
		{2.5e12, Compact, "", "2.5T"},
		{1e15, Compact, "", "1000T"},
		{1e16, Compact, "", "10,000T"},
		{-12345, Compact, "", "-12.3k"},
		{0.05, Compact, "", "0.1"},
		{0.04, Compact, "", "0"},
		{0, Compact, "", "0"},
		{"2300000", Compact, "", "2.3M"},
		{12345, Compact, "2", "12.35k"},
		{5, Compact, "2", "5.00"},
		{1000, Compact, "0", "1k"},
		{"n/a", Compact, "", "n/a"},

		// percent
		{0.1234, Percent, "", "12.3%"},
		{1, Percent, "", "100%"},
		{12.5, Percent, "", "1,250%"},
		{0.285, Percent, "", "28.5%"},
		{0.5, Percent, "2", "50.00%"},
		{0.00049, Percent, "", "0%"},
		{-0.25, Percent, "", "-25%"},
		{"0.5", Percent, "", "50%"},
		{math.Copysign(0, -1), Percent, "", "0%"},

		// date
		{"2026-08-17", Date, "", "Aug 17, 2026"},
		{"2026-08-17T23:30:00-05:00", Date, "", "Aug 18, 2026"},
		{"2026-12-01T08:00:00Z", Date, "", "Dec 1, 2026"},
		{"2026-09-03T10:00", Date, "", "Sep 3, 2026"},
		{"2026-09", Date, "", "Sep 1, 2026"},
		{0, Date, "", "Jan 1, 1970"},
		{"0", Date, "", "Jan 1, 1970"},
		{1786924800000.0, Date, "", "Aug 17, 2026"},
		{"1786924800000", Date, "", "Aug 17, 2026"},
		{-86400000, Date, "", "Dec 31, 1969"},
		{9e15, Date, "", "9000000000000000"},
		{"not a date", Date, "", "not a date"},
		{"2026-13-01", Date, "", "2026-13-01"},
		{true, Date, "", "true"},

		// relative
		{"2026-08-17T09:00:00Z", Relative, "", "3 hours ago"},
		{"2026-08-19T12:00:00Z", Relative, "", "in 2 days"},
		{"2026-08-16T12:00:00Z", Relative, "", "yesterday"},
		{"2026-08-18T12:00:00Z", Relative, "", "tomorrow"},
		{"2026-08-17T11:59:30Z", Relative, "", "30 seconds ago"},
		{"2026-08-17T12:00:00Z", Relative, "", "now"},
		{"2026-08-17T12:00:01Z", Relative, "", "in 1 second"},
		{"2026-08-17T11:01:00Z", Relative, "", "59 minutes ago"},
		{"2026-08-17T10:30:00Z", Relative, "", "1 hour ago"},
		{"2026-08-17T13:30:00Z", Relative, "", "in 2 hours"},
		{"2026-07-03T12:00:00Z", Relative, "", "last month"},
		{"2026-06-28T12:00:00Z", Relative, "", "2 months ago"},
		{"2026-07-17T12:00:00Z", Relative, "", "last month"},
		{"2025-07-13T12:00:00Z", Relative, "", "last year"},
		{"2020-08-17T12:00:00Z", Relative, "", "6 years ago"},
		{"3026-08-17T12:00:00Z", Relative, "", "in 1,001 years"},
		{"2026-08-17T11:00:00Z", Relative, "", "1 hour ago"},
		{1786924800000.0, Relative, "", "12 hours ago"},
		{"soon", Relative, "", "soon"},
	}
	for _, c := range cases {
		if got := Format(c.v, c.format, c.decimals, testNow); got != c.want {
			t.Errorf("Format(%#v, %q, %q) = %q, want %q", c.v, c.format, c.decimals, got, c.want)
		}
	}
}

func TestFormatDateUsesNowLocation(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	now := testNow.In(tokyo)
	if got := Format("2026-08-17T20:00:00Z", Date, "", now); got != "Aug 18, 2026" {
		t.Errorf("date in +09:00 = %q, want Aug 18, 2026", got)
	}
	if got := Format("2026-08-17T18:00", Relative, "", now); got != "3 hours ago" {
		t.Errorf("offset-less time read in now's zone: %q, want 3 hours ago", got)
	}
}

func TestDecodeOrderAndErrors(t *testing.T) {
	v, err := Decode([]byte(`{"z":1,"10":2,"a":3,"2":4,"01":5}`))
	if err != nil {
		t.Fatal(err)
	}
	keys := v.(Object).Keys()
	want := []string{"2", "10", "z", "a", "01"}
	if len(keys) != len(want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Fatalf("keys %v, want %v", keys, want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a":1} x`, `[1,]`, `1e999`, `"\ud800`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) accepted bad JSON", bad)
		}
	}
	deep := make([]byte, 0, 2*MaxDepth+2)
	for i := 0; i <= MaxDepth; i++ {
		deep = append(deep, '[')
	}
	for i := 0; i <= MaxDepth; i++ {
		deep = append(deep, ']')
	}
	if _, err := Decode(deep); err == nil {
		t.Error("Decode accepted nesting beyond MaxDepth")
	}
}

func TestParseDecimals(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "3": 3, "6": 6, "06": 6} {
		if n, ok := ParseDecimals(s); !ok || n != want {
			t.Errorf("ParseDecimals(%q) = %d, %v", s, n, ok)
		}
	}
	for _, s := range []string{"", "7", "-1", "+1", "1.5", "x", "100"} {
		if _, ok := ParseDecimals(s); ok {
			t.Errorf("ParseDecimals(%q) accepted", s)
		}
	}
}
