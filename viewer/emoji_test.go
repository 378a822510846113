package viewer

import "testing"

// TestNoEmojiKeepsShortcodes: the viewer draws shortcodes as emoji, and
// with NoEmoji (markii view --no-emoji) as written, as render does.
func TestNoEmojiKeepsShortcodes(t *testing.T) {
	const note = "# Launch\n\nShip it :tada: at 10:30:\n"
	m := newTest(t, note, 60, 10, nil)
	mustContain(t, m, "Ship it 🎉 at 10:30:")
	mustLack(t, m, ":tada:")
	m = newTest(t, note, 60, 10, func(o *Options) { o.NoEmoji = true })
	mustContain(t, m, "Ship it :tada: at 10:30:")
	mustLack(t, m, "🎉")
}
