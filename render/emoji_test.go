package render

import (
	"testing"

	"github.com/markii/markii/ansi"
)

// TestEmojiShortcodes: GitHub's shortcodes become emoji where they stand
// alone; directives, times, words running into a colon, unknown names and
// code keep their text; NoEmoji keeps every shortcode as written.
func TestEmojiShortcodes(t *testing.T) {
	for _, tc := range []struct{ src, want, plain string }{
		{"Party :tada: now", "Party 🎉 now", ""},
		{":+1: and :-1:", "👍 and 👎", ""},
		{":smile::smile:", "😄😄", ""},
		{":a:b[label] and :x:y and :smile:x", ":a:b[label] and :x:y and :smile:x", ""},
		{":smile:, :tada:!", "😄, 🎉!", ""},
		{"(:fire:)", "(🔥)", ""},
		{"at 10:30: or 10:100:", "at 10:30: or 10:100:", ""},
		{"a:smile: b", "a:smile: b", ""},
		{":notanemoji: and :123:", ":notanemoji: and :123:", ""},
		{"`:smile:` code", ":smile: code", ""},
		{"**:rocket:**", "🚀", ""},
		{"Stars :value[stars]", "Stars {stars}", ""},
		{"Key :kbd[Ctrl] :tada:", "Key [Ctrl] 🎉", ""},
		{"Party :tada:", "Party :tada:", "no-emoji"},
	} {
		opt := Options{Width: 80, Level: ansi.None, NoEmoji: tc.plain != ""}
		page := Layout(Parse([]byte(tc.src)), opt)
		if len(page.Lines) != 1 || page.Lines[0].Text() != tc.want {
			var got []string
			for _, l := range page.Lines {
				got = append(got, l.Text())
			}
			t.Errorf("%q (%s): got %q, want %q", tc.src, tc.plain, got, tc.want)
		}
	}
}
