package ansi

import (
	"strings"
	"testing"
)

// Sequences shaped like the engine's own are still refused when they are
// not balanced the way Encode balances them.
func TestValidateRequiresEncodersShape(t *testing.T) {
	good := string(Encode([]Line{{
		{Text: "a", Style: Style{Bold: true}},
		{Text: "b", Link: "https://example.com", Style: Style{Italic: true}},
		{Text: "c"},
	}}, TrueColor))
	if err := Validate([]byte(good)); err != nil {
		t.Fatalf("Encode's own output refused: %v\n%q", err, good)
	}
	bad := map[string]string{
		"style left open at end of line":   "x\x1b[31mred\nnext\n",
		"style left open at end of output": "x\x1b[31mred",
		"style opened inside a style":      "\x1b[1mbold \x1b[31mred\x1b[0m\n",
		"reset with nothing open":          "plain\x1b[0m\n",
		"link left open":                   "\x1b]8;;https://example.com\x07text\n",
		"link inside a link":               "\x1b]8;;https://a.example\x07\x1b]8;;https://b.example\x07t\x1b]8;;\x07\x1b]8;;\x07\n",
		"link closed inside a style":       "\x1b]8;;https://a.example\x07\x1b[1mt\x1b]8;;\x07\x1b[0m\n",
		"close with nothing open":          "t\x1b]8;;\x07\n",
	}
	for name, s := range bad {
		if err := Validate([]byte(s)); err == nil {
			t.Errorf("%s: Validate accepted %q", name, s)
		}
	}
	// An author's well-formed red run inside a styled span breaks the shape.
	leaked := Encode([]Line{{{Text: "see \x1b[31mred\x1b[0m here", Style: Style{Bold: true}}}}, TrueColor)
	if err := Validate(leaked); err == nil || !strings.Contains(err.Error(), "offset") {
		t.Errorf("a leaked sequence inside a styled span passed: %v", err)
	}
}
