package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// TestColonRunsReadAsBefore: a run of colons is text however long, and
// the colon that ends it is still offered to the directive and emoji
// parsers, which read it as they did when every colon was offered.
func TestColonRunsReadAsBefore(t *testing.T) {
	for src, want := range map[string]string{
		"a ::::b c":                     "a ::::b c",
		"x :::smile: y":                 "x :::smile: y",
		":smile:::smile:":               "😄::smile:",
		":smile::smile:":                "😄😄",
		`\:::a`:                         ":::a",
		`\::smile: and \::b[label]`:     "::smile: and :label",
		"::::\n:::::note x":             ":::: :::::note x",
		"a " + strings.Repeat(":", 150): "a " + strings.Repeat(":", 150),
		"10:::30 a::b ::c[d]":           "10:::30 a::b ::c[d]",
	} {
		got, _ := laidText(t, src, ansi.None, false)
		if got = strings.TrimSuffix(got, "\n"); got != want {
			t.Errorf("%q reads %q, want %q", src, got, want)
		}
	}
}
