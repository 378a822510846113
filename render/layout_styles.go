package render

import (
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// Styles are the drawing styles of one theme, ready for spans. Layout and
// components take every color from here; none is hard-coded elsewhere.
type Styles struct {
	// Text is body text (the terminal's default color).
	Text ansi.Style
	// Muted is secondary text: labels, captions.
	Muted ansi.Style
	// Dim is the quiet style of markers, rules, frames and fallbacks.
	Dim ansi.Style
	// Accent is the focus color.
	Accent ansi.Style
	// Headings are the styles of heading levels 1 to 6; HeadingRule and
	// SubheadingRule are the rules under levels 1 and 2, HeadingMark the
	// marker before level 3.
	Headings                                 [6]ansi.Style
	HeadingRule, SubheadingRule, HeadingMark ansi.Style
	// Strong, Emphasis and Strike are added on top of the surrounding style.
	Strong, Emphasis, Strike ansi.Style
	// Code is inline code.
	Code ansi.Style
	// Link is link text.
	Link ansi.Style
	// Quote is the bar of a block quote; Rule a thematic break; Frame the
	// lines of boxes and tables.
	Quote, Rule, Frame ansi.Style
	// Info, Success, Warning, Danger and Limit are the status styles.
	Info, Success, Warning, Danger, Limit ansi.Style
	// CodeLang is the language line over a code block; CodeText the
	// unhighlighted text of a code block.
	CodeLang, CodeText ansi.Style
	// Syntax colors of highlighted code.
	Keyword, String, Number, Comment, Function, Type, Operator, Identifier ansi.Style
}

// ColorOf converts a theme color to an ansi color.
func ColorOf(c theme.Color) ansi.Color {
	return ansi.Color{R: c.R, G: c.G, B: c.B, ANSI16: c.ANSI16, Set: true}
}

func fg(c theme.Color) ansi.Style { return ansi.Style{FG: ColorOf(c)} }

// NewStyles derives the drawing styles from a theme.
func NewStyles(t theme.Theme) Styles {
	s := Styles{
		Muted:    fg(t.Muted),
		Dim:      fg(t.Faint),
		Accent:   fg(t.Accent),
		Strong:   ansi.Style{Bold: true},
		Emphasis: ansi.Style{Italic: true},
		Strike:   ansi.Style{Strikethru: true, FG: ColorOf(t.Muted)},
		Code:     ansi.Style{FG: ColorOf(t.Code), BG: ColorOf(t.CodeBG)},
		Link:     ansi.Style{FG: ColorOf(t.Accent), Underline: true},
		Quote:    fg(t.Faint),
		Rule:     fg(t.Faint),
		Frame:    fg(t.Faint),
		Info:     fg(t.Info),
		Success:  fg(t.Success),
		Warning:  fg(t.Warning),
		Danger:   fg(t.Danger),
		Limit:    fg(t.Limit),
		CodeLang: ansi.Style{FG: ColorOf(t.Muted), Italic: true},
		CodeText: fg(t.Text),

		Keyword:    ansi.Style{FG: ColorOf(t.Keyword), Bold: true},
		String:     fg(t.String),
		Number:     fg(t.Number),
		Comment:    ansi.Style{FG: ColorOf(t.Comment), Italic: true},
		Function:   fg(t.Function),
		Type:       fg(t.Type),
		Operator:   fg(t.Operator),
		Identifier: fg(t.Identifier),
	}
	// See heading (layout.go) for how the levels differ.
	s.Headings[0] = ansi.Style{FG: ColorOf(t.Heading), Bold: true}
	s.HeadingRule = fg(t.Heading)
	s.Headings[1] = ansi.Style{FG: ColorOf(t.Heading), Bold: true}
	s.SubheadingRule = fg(t.Faint)
	s.Headings[2] = ansi.Style{FG: ColorOf(t.Accent), Bold: true}
	s.HeadingMark = fg(t.Accent)
	s.Headings[3] = ansi.Style{FG: ColorOf(t.Text), Bold: true}
	s.Headings[4] = ansi.Style{FG: ColorOf(t.Muted), Bold: true}
	s.Headings[5] = ansi.Style{FG: ColorOf(t.Muted), Italic: true}
	return s
}

// Over returns base with add drawn on top: add's attributes are switched
// on and its colors, when set, replace base's.
func Over(base, add ansi.Style) ansi.Style {
	if add.FG.Set {
		base.FG = add.FG
	}
	if add.BG.Set {
		base.BG = add.BG
	}
	base.Bold = base.Bold || add.Bold
	base.Dim = base.Dim || add.Dim
	base.Italic = base.Italic || add.Italic
	base.Underline = base.Underline || add.Underline
	base.Inverse = base.Inverse || add.Inverse
	base.Strikethru = base.Strikethru || add.Strikethru
	return base
}
