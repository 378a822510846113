// Package theme holds markii's named palettes: semantic color tokens mapped
// to 24-bit values and 16-color codes. It is data only: no I/O and no
// terminal detection. The ansi package turns a token's Color into bytes at
// the level the caller chose.
package theme

import "fmt"

// Color is one palette entry: a 24-bit value and the SGR foreground code
// (30-37 or 90-97, 0 for the terminal's default) used at the 16-color level.
// The palettes below are composite literals of constants, so the linker
// lays them out and no code runs for them when a process starts.
type Color struct {
	R, G, B uint8
	ANSI16  uint8
}

// Theme is a named palette of semantic tokens.
type Theme struct {
	Name string
	// Text is the body text color; most text is drawn in the terminal's
	// default color and uses Text only where a component needs contrast.
	Text Color
	// Muted is for secondary text (labels, captions).
	Muted Color
	// Faint is for rules, frames and quiet markers.
	Faint Color
	// Accent is the focus and link color.
	Accent Color
	// Heading is the color of headings.
	Heading Color
	// Info, Success, Warning, Danger and Limit are status colors.
	Info, Success, Warning, Danger, Limit Color
	// Code is the color of inline code; CodeBG its background.
	Code, CodeBG Color
	// Syntax colors for highlighted code blocks.
	Keyword, String, Number, Comment, Function, Type, Operator, Identifier Color
}

// Dark is the default palette, tuned for dark terminal backgrounds.
var Dark = Theme{
	Name:       "dark",
	Text:       Color{R: 0xe4, G: 0xe4, B: 0xe7, ANSI16: 97}, // #e4e4e7
	Muted:      Color{R: 0xa1, G: 0xa1, B: 0xaa, ANSI16: 37}, // #a1a1aa
	Faint:      Color{R: 0x71, G: 0x71, B: 0x7a, ANSI16: 90}, // #71717a
	Accent:     Color{R: 0x60, G: 0xa5, B: 0xfa, ANSI16: 94}, // #60a5fa
	Heading:    Color{R: 0x93, G: 0xc5, B: 0xfd, ANSI16: 94}, // #93c5fd
	Info:       Color{R: 0x60, G: 0xa5, B: 0xfa, ANSI16: 94}, // #60a5fa
	Success:    Color{R: 0x4a, G: 0xde, B: 0x80, ANSI16: 92}, // #4ade80
	Warning:    Color{R: 0xfb, G: 0xbf, B: 0x24, ANSI16: 93}, // #fbbf24
	Danger:     Color{R: 0xf8, G: 0x71, B: 0x71, ANSI16: 91}, // #f87171
	Limit:      Color{R: 0xa7, G: 0x8b, B: 0xfa, ANSI16: 95}, // #a78bfa
	Code:       Color{R: 0xf9, G: 0xa8, B: 0xd4, ANSI16: 95}, // #f9a8d4
	CodeBG:     Color{R: 0x27, G: 0x27, B: 0x2a, ANSI16: 0},  // #27272a
	Keyword:    Color{R: 0xc4, G: 0xb5, B: 0xfd, ANSI16: 95}, // #c4b5fd
	String:     Color{R: 0x86, G: 0xef, B: 0xac, ANSI16: 92}, // #86efac
	Number:     Color{R: 0xfd, G: 0xba, B: 0x74, ANSI16: 93}, // #fdba74
	Comment:    Color{R: 0x8b, G: 0x8b, B: 0x94, ANSI16: 90}, // #8b8b94
	Function:   Color{R: 0x7d, G: 0xd3, B: 0xfc, ANSI16: 96}, // #7dd3fc
	Type:       Color{R: 0x67, G: 0xe8, B: 0xf9, ANSI16: 36}, // #67e8f9
	Operator:   Color{R: 0xd4, G: 0xd4, B: 0xd8, ANSI16: 37}, // #d4d4d8
	Identifier: Color{R: 0xe4, G: 0xe4, B: 0xe7, ANSI16: 0},  // #e4e4e7
}

// Light is the palette for light backgrounds; its status colors follow the
// reference's doc.css palette, darkened where a color would read poorly on
// a light gray background.
var Light = Theme{
	Name:       "light",
	Text:       Color{R: 0x1a, G: 0x1a, B: 0x1a, ANSI16: 30}, // #1a1a1a
	Muted:      Color{R: 0x52, G: 0x52, B: 0x5b, ANSI16: 90}, // #52525b
	Faint:      Color{R: 0x94, G: 0xa3, B: 0xb8, ANSI16: 37}, // #94a3b8
	Accent:     Color{R: 0x3b, G: 0x82, B: 0xf6, ANSI16: 34}, // #3b82f6
	Heading:    Color{R: 0x1d, G: 0x4e, B: 0xd8, ANSI16: 34}, // #1d4ed8
	Info:       Color{R: 0x3b, G: 0x82, B: 0xf6, ANSI16: 34}, // #3b82f6
	Success:    Color{R: 0x15, G: 0x80, B: 0x3d, ANSI16: 32}, // #15803d
	Warning:    Color{R: 0xb4, G: 0x53, B: 0x09, ANSI16: 33}, // #b45309
	Danger:     Color{R: 0xdc, G: 0x26, B: 0x26, ANSI16: 31}, // #dc2626
	Limit:      Color{R: 0x7c, G: 0x3a, B: 0xed, ANSI16: 35}, // #7c3aed
	Code:       Color{R: 0xbe, G: 0x18, B: 0x5d, ANSI16: 35}, // #be185d
	CodeBG:     Color{R: 0xf4, G: 0xf4, B: 0xf5, ANSI16: 0},  // #f4f4f5
	Keyword:    Color{R: 0x7c, G: 0x3a, B: 0xed, ANSI16: 35}, // #7c3aed
	String:     Color{R: 0x16, G: 0x65, B: 0x34, ANSI16: 32}, // #166534
	Number:     Color{R: 0x9a, G: 0x34, B: 0x12, ANSI16: 33}, // #9a3412
	Comment:    Color{R: 0x71, G: 0x71, B: 0x7a, ANSI16: 90}, // #71717a
	Function:   Color{R: 0x03, G: 0x69, B: 0xa1, ANSI16: 34}, // #0369a1
	Type:       Color{R: 0x0e, G: 0x74, B: 0x90, ANSI16: 36}, // #0e7490
	Operator:   Color{R: 0x3f, G: 0x3f, B: 0x46, ANSI16: 30}, // #3f3f46
	Identifier: Color{R: 0x1a, G: 0x1a, B: 0x1a, ANSI16: 0},  // #1a1a1a
}

// HighContrast is a palette for dark backgrounds with every token far
// from the background: text and code at least 7:1 on black (WCAG AAA),
// rules and frames at least 4.5:1.
var HighContrast = Theme{
	Name:       "high-contrast",
	Text:       Color{R: 0xff, G: 0xff, B: 0xff, ANSI16: 97}, // #ffffff
	Muted:      Color{R: 0xe4, G: 0xe4, B: 0xe7, ANSI16: 37}, // #e4e4e7
	Faint:      Color{R: 0xa1, G: 0xa1, B: 0xaa, ANSI16: 37}, // #a1a1aa
	Accent:     Color{R: 0x5c, G: 0xc8, B: 0xff, ANSI16: 96}, // #5cc8ff
	Heading:    Color{R: 0xff, G: 0xff, B: 0x5f, ANSI16: 93}, // #ffff5f
	Info:       Color{R: 0x5c, G: 0xc8, B: 0xff, ANSI16: 96}, // #5cc8ff
	Success:    Color{R: 0x5f, G: 0xff, B: 0x87, ANSI16: 92}, // #5fff87
	Warning:    Color{R: 0xff, G: 0xd7, B: 0x5f, ANSI16: 93}, // #ffd75f
	Danger:     Color{R: 0xff, G: 0x87, B: 0x87, ANSI16: 91}, // #ff8787
	Limit:      Color{R: 0xd7, G: 0xaf, B: 0xff, ANSI16: 95}, // #d7afff
	Code:       Color{R: 0xff, G: 0xaf, B: 0xd7, ANSI16: 95}, // #ffafd7
	CodeBG:     Color{R: 0x1c, G: 0x1c, B: 0x1c, ANSI16: 0},  // #1c1c1c
	Keyword:    Color{R: 0xd7, G: 0xaf, B: 0xff, ANSI16: 95}, // #d7afff
	String:     Color{R: 0x87, G: 0xff, B: 0x87, ANSI16: 92}, // #87ff87
	Number:     Color{R: 0xff, G: 0xd7, B: 0x87, ANSI16: 93}, // #ffd787
	Comment:    Color{R: 0xc6, G: 0xc6, B: 0xc6, ANSI16: 37}, // #c6c6c6
	Function:   Color{R: 0x87, G: 0xd7, B: 0xff, ANSI16: 96}, // #87d7ff
	Type:       Color{R: 0x5f, G: 0xff, B: 0xff, ANSI16: 96}, // #5fffff
	Operator:   Color{R: 0xff, G: 0xff, B: 0xff, ANSI16: 97}, // #ffffff
	Identifier: Color{R: 0xff, G: 0xff, B: 0xff, ANSI16: 0},  // #ffffff
}

// Names lists the built-in themes in the order the CLI documents them.
var Names = []string{"dark", "light", "high-contrast"}

// ByName returns the built-in theme called name.
func ByName(name string) (Theme, error) {
	switch name {
	case "dark":
		return Dark, nil
	case "light":
		return Light, nil
	case "high-contrast":
		return HighContrast, nil
	}
	return Theme{}, fmt.Errorf("unknown theme %q (built-in: dark, light, high-contrast)", name)
}

// IsDark reports whether t is made for a dark background: its text color
// is light.
func (t Theme) IsDark() bool {
	return 299*int(t.Text.R)+587*int(t.Text.G)+114*int(t.Text.B) > 128*1000
}
