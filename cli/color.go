package cli

import (
	"strings"

	"github.com/markii/markii/ansi"
)

// colorChoices are the values of --color.
var colorChoices = []string{"auto", "never", "16", "256", "truecolor"}

// colorLevel turns a --color value into a level. "auto" follows SPEC §7.1
// in order: NO_COLOR set and non-empty → none; FORCE_COLOR 0 → none, 1 or
// true → 16, 2 → 256, 3 → truecolor (other values fall through); stdout
// not a terminal → none; TERM=dumb → none; COLORTERM truecolor or 24bit →
// truecolor; TERM containing 256color → 256; else 16. getenv is the only
// way the environment is read.
func colorLevel(choice string, getenv func(string) string, stdoutTTY bool) ansi.Level {
	switch choice {
	case "never":
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
	if !stdoutTTY {
		return ansi.None
	}
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
