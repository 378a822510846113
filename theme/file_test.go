package theme

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestParseThemeFile(t *testing.T) {
	th, err := Parse("sunset", []byte(`{"base": "light", "colors": {"accent": "#FF8800", "heading": "#aa0000"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Light
	want.Name = "sunset"
	want.Accent = Color{R: 0xff, G: 0x88, ANSI16: 33}
	want.Heading = Color{R: 0xaa, ANSI16: 31}
	if th != want {
		t.Errorf("got %+v\nwant %+v", th, want)
	}
	th, err = Parse("plain", []byte(`{}`))
	if err != nil || th.Name != "plain" || th.Text != Dark.Text {
		t.Errorf("an empty theme file should be dark: %+v %v", th, err)
	}
}

// TestParseThemeFileErrors: every mistake is one sentence naming it.
func TestParseThemeFileErrors(t *testing.T) {
	for src, want := range map[string]string{
		``:                                      "it is empty",
		`{"colors": {"accent": "#ff8800",}}`:    "not valid JSON (line 1",
		"{\n\"colors\":\n{\"text\": #fff}}":     "not valid JSON (line 3",
		`{"colours": {}}`:                       `the field "colours"`,
		`{"base": "sepia"}`:                     `base "sepia" is not a built-in theme`,
		`{"base": 3}`:                           `"base" must be a theme name`,
		`{"colors": {"acent": "#ffffff"}}`:      `color "acent" is not a theme color (known: accent, code,`,
		`{"colors": {"text": "white"}}`:         `color "text" is "white", not a "#rrggbb" value`,
		`{"colors": {"text": "#ffff"}}`:         `not a "#rrggbb" value`,
		`{"colors": {"text": "#gggggg"}}`:       `not a "#rrggbb" value`,
		`{"colors": {"text": 12}}`:              `must be a "#rrggbb" string`,
		`{"colors": []}`:                        `"colors" must be an object of colors`,
		`{} {}`:                                 "more than one JSON value",
		`{"colors": {"text": "#ffffff\u001b"}}`: `not a "#rrggbb" value`,
		strings.Repeat(" ", MaxFileBytes+1):     "over the 64 KiB limit",
	} {
		_, err := Parse("x", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%.40q): %v, want one line with %q", src, err, want)
		}
	}
}

// TestThemeFileNamesEveryColor keeps the token table sorted (Parse
// searches it) and covering every Color field of Theme.
func TestThemeFileNamesEveryColor(t *testing.T) {
	names := TokenNames()
	if !sort.StringsAreSorted(names) {
		t.Fatalf("token names are not sorted: %v", names)
	}
	n := 0
	typ := reflect.TypeOf(Theme{})
	for i := 0; i < typ.NumField(); i++ {
		if typ.Field(i).Type == reflect.TypeOf(Color{}) {
			n++
		}
	}
	if n != len(names) {
		t.Fatalf("Theme has %d colors, theme files name %d", n, len(names))
	}
	var th Theme
	seen := map[*Color]bool{}
	for _, tk := range tokens {
		p := tk.color(&th)
		if seen[p] {
			t.Errorf("%s points at a color another name sets", tk.key)
		}
		seen[p] = true
	}
}

func TestNearest16(t *testing.T) {
	for hex, want := range map[string]uint8{"#000000": 30, "#ffffff": 97, "#ff0000": 91, "#cd0000": 31, "#00ffff": 96, "#808080": 90} {
		c, ok := parseHex(hex)
		if !ok || c.ANSI16 != want {
			t.Errorf("%s: %d, want %d", hex, c.ANSI16, want)
		}
	}
}
