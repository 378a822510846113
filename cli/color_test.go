package cli

import (
	"testing"

	"github.com/markii/markii/ansi"
)

func TestColorLevel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		choice string
		env    map[string]string
		tty    bool
		want   ansi.Level
	}{
		{"explicit never ignores env", "never", map[string]string{"FORCE_COLOR": "3"}, true, ansi.None},
		{"none is never", "none", map[string]string{"COLORTERM": "truecolor"}, true, ansi.None},
		{"explicit 16", "16", map[string]string{"NO_COLOR": "1"}, false, ansi.Color16},
		{"explicit 256", "256", nil, false, ansi.Color256},
		{"explicit truecolor", "truecolor", map[string]string{"TERM": "dumb"}, false, ansi.TrueColor},
		{"NO_COLOR beats FORCE_COLOR", "auto", map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "3"}, true, ansi.None},
		{"empty NO_COLOR is ignored", "auto", map[string]string{"NO_COLOR": "", "COLORTERM": "truecolor"}, true, ansi.TrueColor},
		{"FORCE_COLOR 0", "auto", map[string]string{"FORCE_COLOR": "0", "COLORTERM": "truecolor"}, true, ansi.None},
		{"FORCE_COLOR 1 without tty", "auto", map[string]string{"FORCE_COLOR": "1"}, false, ansi.Color16},
		{"FORCE_COLOR true", "auto", map[string]string{"FORCE_COLOR": "true"}, false, ansi.Color16},
		{"FORCE_COLOR 2", "auto", map[string]string{"FORCE_COLOR": "2", "TERM": "dumb"}, false, ansi.Color256},
		{"FORCE_COLOR 3", "auto", map[string]string{"FORCE_COLOR": "3"}, false, ansi.TrueColor},
		{"FORCE_COLOR other falls through", "auto", map[string]string{"FORCE_COLOR": "yes"}, false, ansi.None},
		{"not a tty", "auto", map[string]string{"COLORTERM": "truecolor"}, false, ansi.None},
		{"TERM dumb", "auto", map[string]string{"TERM": "dumb", "COLORTERM": "truecolor"}, true, ansi.None},
		{"COLORTERM 24bit", "auto", map[string]string{"COLORTERM": "24bit"}, true, ansi.TrueColor},
		{"TERM 256color", "auto", map[string]string{"TERM": "xterm-256color"}, true, ansi.Color256},
		{"COLORTERM beats TERM", "auto", map[string]string{"TERM": "xterm-256color", "COLORTERM": "truecolor"}, true, ansi.TrueColor},
		{"plain tty", "auto", map[string]string{"TERM": "xterm"}, true, ansi.Color16},
		{"no TERM at all", "auto", nil, true, ansi.Color16},
		{"CLICOLOR_FORCE without tty", "auto", map[string]string{"CLICOLOR_FORCE": "1"}, false, ansi.Color16},
		{"CLICOLOR_FORCE keeps the terminal's level", "auto", map[string]string{"CLICOLOR_FORCE": "1", "COLORTERM": "truecolor"}, false, ansi.TrueColor},
		{"CLICOLOR_FORCE is at least 16 on a dumb terminal", "auto", map[string]string{"CLICOLOR_FORCE": "yes", "TERM": "dumb"}, false, ansi.Color16},
		{"CLICOLOR_FORCE beats FORCE_COLOR 0", "auto", map[string]string{"CLICOLOR_FORCE": "1", "FORCE_COLOR": "0", "TERM": "xterm-256color"}, false, ansi.Color256},
		{"CLICOLOR_FORCE beats CLICOLOR 0", "auto", map[string]string{"CLICOLOR_FORCE": "1", "CLICOLOR": "0"}, true, ansi.Color16},
		{"NO_COLOR beats CLICOLOR_FORCE", "auto", map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, ansi.None},
		{"CLICOLOR_FORCE 0 is ignored", "auto", map[string]string{"CLICOLOR_FORCE": "0"}, false, ansi.None},
		{"empty CLICOLOR_FORCE is ignored", "auto", map[string]string{"CLICOLOR_FORCE": ""}, false, ansi.None},
		{"FORCE_COLOR beats CLICOLOR 0", "auto", map[string]string{"FORCE_COLOR": "2", "CLICOLOR": "0"}, false, ansi.Color256},
		{"CLICOLOR 0 on a tty", "auto", map[string]string{"CLICOLOR": "0", "COLORTERM": "truecolor"}, true, ansi.None},
		{"CLICOLOR 1 on a tty", "auto", map[string]string{"CLICOLOR": "1", "TERM": "xterm-256color"}, true, ansi.Color256},
		{"CLICOLOR 1 without tty", "auto", map[string]string{"CLICOLOR": "1"}, false, ansi.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			if got := colorLevel(tc.choice, getenv, tc.tty); got != tc.want {
				t.Fatalf("colorLevel = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestThemeName(t *testing.T) {
	t.Parallel()
	dark := func() bool { return true }
	light := func() bool { return false }
	cases := []struct {
		choice string
		tty    bool
		bg     func() bool
		want   string
	}{
		{"auto", true, light, "light"},
		{"auto", true, dark, "dark"},
		{"auto", false, light, "dark"},
		{"dark", true, light, "dark"},
		{"light", false, dark, "light"},
	}
	for _, c := range cases {
		if got := themeName(c.choice, c.tty, c.bg); got != c.want {
			t.Errorf("themeName(%q, tty=%v, dark background=%v) = %q, want %q", c.choice, c.tty, c.bg(), got, c.want)
		}
	}
	// Off a terminal the background is never asked about.
	themeName("auto", false, func() bool { t.Fatal("asked the background off a terminal"); return true })
}
