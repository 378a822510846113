package cli

import "testing"

// TestNoEmoji: render draws shortcodes as emoji, and --no-emoji keeps them
// as written.
func TestNoEmoji(t *testing.T) {
	out, _, code := renderCLI(t, "Ship :rocket: at 10:30:\n", "--color", "never", "-")
	if code != ExitOK || out != "Ship 🚀 at 10:30:\n" {
		t.Errorf("render: code %d, %q", code, out)
	}
	out, _, code = renderCLI(t, "Ship :rocket: at 10:30:\n", "--color", "never", "--no-emoji", "-")
	if code != ExitOK || out != "Ship :rocket: at 10:30:\n" {
		t.Errorf("--no-emoji: code %d, %q", code, out)
	}
}
