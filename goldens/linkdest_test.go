package goldens

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// engineSequence matches every sequence the encoder writes: SGR and the
// two halves of an OSC 8 hyperlink.
var engineSequence = regexp.MustCompile("\x1b\\[[0-9;]*m|\x1b\\]8;[^\x07\x1b]*(\x07|\x1b\\\\)")

// TestLinkShowsRealDestination renders links whose text names another
// host than their target's, hostile bytes included, and checks that at
// every color level the text a reader sees, with every escape sequence
// taken away, names the real host; a link whose text is its own host gets
// no note.
func TestLinkShowsRealDestination(t *testing.T) {
	note := strings.Join([]string{
		"Pay at [https://bank.com](https://evil.example/pay).",
		"",
		"Or [bank.com](https://bank.com.evil.example/).",
		"",
		"Or [*www.bank.com*](https://user@phish.example/login).",
		"",
		"| site |\n|---|\n| [bank.com](https://cell.example/) |",
		"",
		"# [bank.com](https://heading.example/)",
		"",
		"Look-alike [bank.com](https://b\u0430nk.com/) host.",
		"",
		"Hostile [https://bank.com\u009b2J\x07&#27;](https://ctl.example/&#27;[2J) text.",
		"",
		"Honest [https://bank.com](https://bank.com/login) and [docs](https://docs.example/).",
	}, "\n") + "\n"
	want := []string{"(→\u00a0evil.example)", "(→\u00a0bank.com.evil.example)", "(→\u00a0phish.example)", "(→\u00a0cell.example)",
		"(→\u00a0heading.example)", "(→\u00a0xn--bnk-6cd.com)", "(→\u00a0ctl.example)"}
	for _, level := range []ansi.Level{ansi.Color16, ansi.Color256, ansi.TrueColor} {
		out := renderNote([]byte(note), 120, level, nil)
		if err := validateAt(out, level); err != nil {
			t.Fatalf("level %s: %v", level, err)
		}
		seen := engineSequence.ReplaceAll(out, nil)
		if bytes.IndexByte(seen, 0x1b) >= 0 {
			t.Fatalf("level %s: an escape byte other than the engine's own:\n%q", level, seen)
		}
		for _, w := range want {
			if !bytes.Contains(seen, []byte(w)) {
				t.Errorf("level %s: the reader does not see %q:\n%s", level, w, seen)
			}
		}
		if bytes.Contains(seen, []byte("(→\u00a0bank.com)")) || bytes.Contains(seen, []byte("(→\u00a0docs.example)")) {
			t.Errorf("level %s: an honest link got a destination note:\n%s", level, seen)
		}
	}
	// At level none every link already prints its whole target.
	out := renderNote([]byte(note), 120, ansi.None, nil)
	for _, w := range []string{"https://bank.com (https://evil.example/pay)", "bank.com (https://bank.com.evil.example/)",
		"bank.com (https://b\u0430nk.com/) (→\u00a0xn--bnk-6cd.com)"} {
		if !bytes.Contains(out, []byte(w)) {
			t.Errorf("level none lacks %q:\n%s", w, out)
		}
	}
}
