package cli

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// colorChoices are the values of --color; none, the color level's own
// name, is a synonym of never.
var colorChoices = []string{"auto", "never", "none", "16", "256", "truecolor"}

// colorLevel turns a --color value into a level. "auto" follows the
// conventions other command-line tools share, first match wins:
//
//  1. NO_COLOR set and non-empty → none;
//  2. CLICOLOR_FORCE set, non-empty and not 0 → the terminal's level as if
//     stdout were a terminal, at least 16;
//  3. FORCE_COLOR 0 → none, 1 or true → 16, 2 → 256, 3 → truecolor (other
//     values fall through);
//  4. CLICOLOR=0 → none;
//  5. stdout not a terminal → none; otherwise terminalLevel.
//
// getenv is the only way the environment is read.
func colorLevel(choice string, getenv func(string) string, stdoutTTY bool) ansi.Level {
	switch choice {
	case "never", "none":
		return ansi.None
	case "16":
		return ansi.Color16
	case "256":
		return ansi.Color256
	case "truecolor":
		return ansi.TrueColor
	}
	if getenv("NO_COLOR") != "" {
		return ansi.None
	}
	if force := getenv("CLICOLOR_FORCE"); force != "" && force != "0" {
		return max(terminalLevel(getenv), ansi.Color16)
	}
	switch getenv("FORCE_COLOR") {
	case "0":
		return ansi.None
	case "1", "true":
		return ansi.Color16
	case "2":
		return ansi.Color256
	case "3":
		return ansi.TrueColor
	}
	if getenv("CLICOLOR") == "0" || !stdoutTTY {
		return ansi.None
	}
	return terminalLevel(getenv)
}

// terminalLevel is the level a terminal supports by its TERM and
// COLORTERM: TERM=dumb → none; COLORTERM truecolor or 24bit → truecolor;
// TERM containing 256color → 256; else 16.
func terminalLevel(getenv func(string) string) ansi.Level {
	term := getenv("TERM")
	if term == "dumb" {
		return ansi.None
	}
	switch getenv("COLORTERM") {
	case "truecolor", "24bit":
		return ansi.TrueColor
	}
	if strings.Contains(term, "256color") {
		return ansi.Color256
	}
	return ansi.Color16
}

// themeChoices are the values of --theme: auto and the built-in themes.
var themeChoices = append([]string{"auto"}, theme.Names...)

// themeName turns a --theme value into a built-in theme's name. "auto"
// picks light when stdout is a terminal whose background darkBackground
// reports as light, and dark otherwise, so pipes and golden files get the
// same theme wherever they are made.
func themeName(choice string, stdoutTTY bool, darkBackground func() bool) string {
	if choice != "auto" {
		return choice
	}
	if stdoutTTY && !darkBackground() {
		return "light"
	}
	return "dark"
}

// terminalIsDark reports whether the terminal on stdout has a dark
// background. The answer comes from the one background query the terminal
// library makes when markii starts on a terminal; nothing is asked again.
func terminalIsDark() bool { return lipgloss.HasDarkBackground() }
