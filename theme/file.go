package theme

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// A theme file is JSON: an optional built-in theme to start from and the
// colors to change, each a "#rrggbb" string under its token's name:
//
//	{
//	  "base": "dark",
//	  "colors": {"accent": "#ff8800", "heading": "#ffcc00"}
//	}
//
// A token the file does not name keeps the base theme's color (dark when
// there is no base). The 16-color code of a color the file sets is the
// standard terminal color nearest to it.

// MaxFileBytes is the largest theme file Parse reads.
const MaxFileBytes = 64 << 10

// tokens names every color token of a Theme as theme files write it.
var tokens = [...]struct {
	key   string
	color func(t *Theme) *Color
}{
	{"accent", func(t *Theme) *Color { return &t.Accent }},
	{"code", func(t *Theme) *Color { return &t.Code }},
	{"code-bg", func(t *Theme) *Color { return &t.CodeBG }},
	{"comment", func(t *Theme) *Color { return &t.Comment }},
	{"danger", func(t *Theme) *Color { return &t.Danger }},
	{"faint", func(t *Theme) *Color { return &t.Faint }},
	{"function", func(t *Theme) *Color { return &t.Function }},
	{"heading", func(t *Theme) *Color { return &t.Heading }},
	{"identifier", func(t *Theme) *Color { return &t.Identifier }},
	{"info", func(t *Theme) *Color { return &t.Info }},
	{"keyword", func(t *Theme) *Color { return &t.Keyword }},
	{"limit", func(t *Theme) *Color { return &t.Limit }},
	{"muted", func(t *Theme) *Color { return &t.Muted }},
	{"number", func(t *Theme) *Color { return &t.Number }},
	{"operator", func(t *Theme) *Color { return &t.Operator }},
	{"string", func(t *Theme) *Color { return &t.String }},
	{"success", func(t *Theme) *Color { return &t.Success }},
	{"text", func(t *Theme) *Color { return &t.Text }},
	{"type", func(t *Theme) *Color { return &t.Type }},
	{"warning", func(t *Theme) *Color { return &t.Warning }},
}

// TokenNames lists the color names a theme file may set, sorted.
func TokenNames() []string {
	names := make([]string, len(tokens))
	for i, tk := range tokens {
		names[i] = tk.key
	}
	return names
}

// fileShape is the JSON form of a theme file.
type fileShape struct {
	Base   string            `json:"base"`
	Colors map[string]string `json:"colors"`
}

// Parse reads a theme file's bytes as the theme called name. Its error
// says in one sentence what is wrong: not JSON (with the line), an
// unknown field, base or color name, or a color that is not "#rrggbb".
func Parse(name string, data []byte) (Theme, error) {
	if len(data) > MaxFileBytes {
		return Theme{}, fmt.Errorf("the file is %d bytes, over the %d KiB limit", len(data), MaxFileBytes>>10)
	}
	f, err := decodeFile(data)
	if err != nil {
		return Theme{}, err
	}
	t, err := baseTheme(f.Base)
	if err != nil {
		return Theme{}, err
	}
	t.Name = name
	if err := t.setColors(f.Colors); err != nil {
		return Theme{}, err
	}
	return t, nil
}

// decodeFile decodes a theme file's one JSON value.
func decodeFile(data []byte) (fileShape, error) {
	var f fileShape
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, jsonError(data, err)
	}
	if dec.More() {
		return f, errors.New("it holds more than one JSON value")
	}
	return f, nil
}

// baseTheme is the built-in theme a file starts from: base, or Dark when
// base is "".
func baseTheme(base string) (Theme, error) {
	if base == "" {
		return Dark, nil
	}
	t, err := ByName(base)
	if err != nil {
		return Theme{}, fmt.Errorf("base %q is not a built-in theme (dark, light, high-contrast)", base)
	}
	return t, nil
}

// setColors sets the theme's colors a file names, by token name in
// order; the first unknown name or bad value is the error.
func (t *Theme) setColors(colors map[string]string) error {
	keys := make([]string, 0, len(colors))
	for k := range colors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := sort.Search(len(tokens), func(i int) bool { return tokens[i].key >= k })
		if i == len(tokens) || tokens[i].key != k {
			return fmt.Errorf("color %q is not a theme color (known: %s)", k, strings.Join(TokenNames(), ", "))
		}
		c, ok := parseHex(colors[k])
		if !ok {
			return fmt.Errorf("color %q is %q, not a \"#rrggbb\" value", k, colors[k])
		}
		*tokens[i].color(t) = c
	}
	return nil
}

// jsonError turns a decoding error into one sentence with its line.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("it is not valid JSON (line %d: %s)", 1+bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n")), syn.Error())
	case errors.As(err, &typ):
		want := "an object of colors"
		switch {
		case typ.Field == "base":
			want = "a theme name"
		case typ.Type.Kind() == reflect.String:
			want = "a \"#rrggbb\" string"
		}
		return fmt.Errorf("%q must be %s, not a JSON %s", typ.Field, want, typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("it has the field %s, but a theme file has only \"base\" and \"colors\"", strings.TrimPrefix(err.Error(), "json: unknown field "))
	case errors.Is(err, io.EOF):
		return errors.New("it is empty")
	}
	return fmt.Errorf("it is not valid JSON (%s)", err)
}

// parseHex reads "#rrggbb" (any case) as a color with its nearest
// standard 16-color code.
func parseHex(s string) (Color, bool) {
	if len(s) != 7 || s[0] != '#' {
		return Color{}, false
	}
	v, err := hex.DecodeString(s[1:])
	if err != nil {
		return Color{}, false
	}
	c := Color{R: v[0], G: v[1], B: v[2]}
	c.ANSI16 = nearest16(c)
	return c, true
}

// standard16 are the xterm default colors of the SGR foreground codes
// 30-37 and 90-97.
var standard16 = [...]struct {
	code    uint8
	r, g, b int
}{
	{30, 0, 0, 0}, {31, 205, 0, 0}, {32, 0, 205, 0}, {33, 205, 205, 0},
	{34, 0, 0, 238}, {35, 205, 0, 205}, {36, 0, 205, 205}, {37, 229, 229, 229},
	{90, 127, 127, 127}, {91, 255, 0, 0}, {92, 0, 255, 0}, {93, 255, 255, 0},
	{94, 92, 92, 255}, {95, 255, 0, 255}, {96, 0, 255, 255}, {97, 255, 255, 255},
}

// nearest16 is the foreground code of the standard color nearest to c.
func nearest16(c Color) uint8 {
	best, bestD := uint8(37), -1
	for _, s := range standard16 {
		dr, dg, db := int(c.R)-s.r, int(c.G)-s.g, int(c.B)-s.b
		if d := 2*dr*dr + 4*dg*dg + 3*db*db; bestD < 0 || d < bestD {
			best, bestD = s.code, d
		}
	}
	return best
}
