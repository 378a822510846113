// Package ansi encodes styled lines to terminal bytes at an explicit color
// level. It is the only code in markii that writes an escape byte for
// document output, and it never looks at the environment: the caller chooses
// the level.
package ansi

import (
	"strconv"
	"strings"
)

// Level is a terminal color level.
type Level int

// The four color levels, from no escapes at all to 24-bit color.
const (
	None Level = iota
	Color16
	Color256
	TrueColor
)

// String returns the level's name as the CLI spells it.
func (l Level) String() string {
	switch l {
	case None:
		return "none"
	case Color16:
		return "16"
	case Color256:
		return "256"
	case TrueColor:
		return "truecolor"
	}
	return "level(" + strconv.Itoa(int(l)) + ")"
}

// ParseLevel reads a level by a name --color gives it: never (or none,
// the name String gives), 16, 256 or truecolor.
func ParseLevel(name string) (Level, bool) {
	switch name {
	case "never", "none":
		return None, true
	case "16":
		return Color16, true
	case "256":
		return Color256, true
	case "truecolor":
		return TrueColor, true
	}
	return None, false
}

// Color is one palette entry: a 24-bit value plus the 16-color SGR
// foreground code (30-37 or 90-97) used at the 16-color level. The zero
// Color means "the terminal's default".
type Color struct {
	R, G, B uint8
	// ANSI16 is the foreground SGR code at the 16-color level (30-37,
	// 90-97); 0 means default.
	ANSI16 uint8
	// Set marks the color as present (the zero Color is "default").
	Set bool
}

// cubeLevels are the channel values of the xterm 6x6x6 color cube.
var cubeLevels = [6]int{0, 95, 135, 175, 215, 255}

// Index256 returns the xterm 256-color index nearest to c: the nearest
// entry of the 6x6x6 cube (by its real channel levels) or of the 24-step
// gray ramp, whichever is closer, so dark near-grays such as code
// backgrounds stay dark.
func (c Color) Index256() int {
	nearest := func(v int) int {
		best := 0
		for i, l := range cubeLevels {
			if abs(l-v) < abs(cubeLevels[best]-v) {
				best = i
			}
		}
		return best
	}
	r, g, b := int(c.R), int(c.G), int(c.B)
	ri, gi, bi := nearest(r), nearest(g), nearest(b)
	cube := 16 + 36*ri + 6*gi + bi
	cubeDist := sq(cubeLevels[ri]-r) + sq(cubeLevels[gi]-g) + sq(cubeLevels[bi]-b)
	gray := (r + g + b) / 3
	step := max(0, min(23, (gray-8+5)/10))
	level := 8 + 10*step
	grayDist := sq(level-r) + sq(level-g) + sq(level-b)
	if grayDist < cubeDist {
		return 232 + step
	}
	return cube
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sq(v int) int { return v * v }

// Style is how a span is drawn. The zero Style is plain text.
type Style struct {
	FG, BG                                            Color
	Bold, Dim, Italic, Underline, Inverse, Strikethru bool
}

// IsZero reports whether s draws plain text.
func (s Style) IsZero() bool { return s == Style{} }

// Span is a run of text in one style. Text must already be sanitized (it
// comes from markii's document tree); Link, when set, is a URL that layout
// checked and wants emitted as an OSC 8 hyperlink around the text. Image,
// when set, is a picture drawn by a terminal graphics protocol at the
// span's place; such a span has no text, style or link. Target, when set,
// names what on the page the text draws (one link, or a part of a
// focusable block), so that a page can say where its targets are without
// anyone reading its text; encoding ignores it.
type Span struct {
	Text   string
	Style  Style
	Link   string
	Image  *Image
	Target Target
}

// Target names one thing a laid-out page draws, such as a link or the
// title of a collapsible section, across the spans that draw it. Zero is
// no target. Its values mean something only within the page that made
// them.
type Target int32

// Line is one output line: spans laid left to right. A Line never contains
// a line feed.
type Line []Span

// Text returns the line's visible text.
func (l Line) Text() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Width returns the line's display width in terminal cells.
func (l Line) Width() int {
	w := 0
	for _, s := range l {
		w += Width(s.Text)
	}
	return w
}
