package viewer

import (
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// FuzzChrome draws random file names, messages, search prompts, link
// addresses and diagnostics through the viewer's chrome: every frame holds
// only the sequences package ansi writes.
func FuzzChrome(f *testing.F) {
	f.Add("\x1b]0;PWN\a\x1b]52;c;cm0gLXJm\ax.mk.md", "could not reload: \x9b2J", "\x1b[31m", "https://e.example/\x1b]8;;x\a", "bad \x00 \x7f \u009d")
	f.Add("ok.mk.md", "reloaded", "needle", "", "")
	f.Add("\xff\xfe.mk.md", "\t\r\n", "\u202e", "mailto:\x07", "\x1bP+q\x1b\\")
	f.Fuzz(func(t *testing.T, name, message, query, shown, diag string) {
		for _, level := range []ansi.Level{ansi.None, ansi.TrueColor} {
			m := newTest(t, "# Title\n\nA line with a [link](https://a.example).\n", 60, 10, func(o *Options) {
				o.Level = level
				o.Theme = theme.Dark
				o.Note.Name = name
				o.Note.Diagnostics = []string{diag}
			})
			check := func(what string) {
				t.Helper()
				if err := ansi.Validate([]byte(m.frame())); err != nil {
					t.Fatalf("%s at level %v: %v\n%q", what, level, err, m.frame())
				}
			}
			m.reader.message = message
			check("status message")
			m.reader.message = ""
			m.reader.shown = shown
			check("shown address")
			m.reader.shown = ""
			press(m, "/")
			typeText(m, query)
			m.reader.search.input = append(m.reader.search.input, []rune(query)...)
			check("search prompt")
			press(m, "esc", "D")
			check("diagnostics pane")
			press(m, "D", "t")
			check("contents pane")
		}
	})
}
