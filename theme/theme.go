// Package theme holds markii's named palettes: semantic color tokens mapped
// to 24-bit values and 16-color codes. It is data only: no I/O and no
// terminal detection. The ansi package turns a token's Color into bytes at
// the level the caller chose.
package theme

import (
	"fmt"
	"strconv"
)

// Color is one palette entry: a 24-bit value and the SGR foreground code
// (30-37 or 90-97, 0 for the terminal's default) used at the 16-color level.
type Color struct {
	R, G, B uint8
	ANSI16  uint8
}

// hex builds a Color from "#rrggbb"; it panics on a malformed literal and is
// only used for the palette tables below.
func hex(s string, ansi16 uint8) Color {
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil || len(s) != 7 {
		panic("theme: malformed color " + s)
	}
	return Color{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), ANSI16: ansi16}
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
	Text:       hex("#e4e4e7", 97),
	Muted:      hex("#a1a1aa", 37),
	Faint:      hex("#71717a", 90),
	Accent:     hex("#60a5fa", 94),
	Heading:    hex("#93c5fd", 94),
	Info:       hex("#60a5fa", 94),
	Success:    hex("#4ade80", 92),
	Warning:    hex("#fbbf24", 93),
	Danger:     hex("#f87171", 91),
	Limit:      hex("#a78bfa", 95),
	Code:       hex("#f9a8d4", 95),
	CodeBG:     hex("#27272a", 0),
	Keyword:    hex("#c4b5fd", 95),
	String:     hex("#86efac", 92),
	Number:     hex("#fdba74", 93),
	Comment:    hex("#8b8b94", 90),
	Function:   hex("#7dd3fc", 96),
	Type:       hex("#67e8f9", 36),
	Operator:   hex("#d4d4d8", 37),
	Identifier: hex("#e4e4e7", 0),
}

// Light is the palette for light backgrounds; its status colors follow the
// reference's doc.css palette, darkened where a color would read poorly on
// a light gray background.
var Light = Theme{
	Name:       "light",
	Text:       hex("#1a1a1a", 30),
	Muted:      hex("#52525b", 90),
	Faint:      hex("#94a3b8", 37),
	Accent:     hex("#3b82f6", 34),
	Heading:    hex("#1d4ed8", 34),
	Info:       hex("#3b82f6", 34),
	Success:    hex("#15803d", 32),
	Warning:    hex("#b45309", 33),
	Danger:     hex("#dc2626", 31),
	Limit:      hex("#7c3aed", 35),
	Code:       hex("#be185d", 35),
	CodeBG:     hex("#f4f4f5", 0),
	Keyword:    hex("#7c3aed", 35),
	String:     hex("#166534", 32),
	Number:     hex("#9a3412", 33),
	Comment:    hex("#71717a", 90),
	Function:   hex("#0369a1", 34),
	Type:       hex("#0e7490", 36),
	Operator:   hex("#3f3f46", 30),
	Identifier: hex("#1a1a1a", 0),
}

// Names lists the built-in themes in the order the CLI documents them.
var Names = []string{"dark", "light"}

// ByName returns the built-in theme called name.
func ByName(name string) (Theme, error) {
	switch name {
	case "dark":
		return Dark, nil
	case "light":
		return Light, nil
	}
	return Theme{}, fmt.Errorf("unknown theme %q (want dark or light)", name)
}
