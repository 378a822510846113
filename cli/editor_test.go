package cli

import (
	"slices"
	"testing"
)

// The editor is found as less finds it: $VISUAL, else $EDITOR, else vi,
// and a value may carry its own arguments.
func TestEditorCommand(t *testing.T) {
	for _, c := range []struct {
		visual, editor string
		want           []string
	}{
		{"", "", []string{"vi"}},
		{"", "nano", []string{"nano"}},
		{"hx", "nano", []string{"hx"}},
		{"code -w", "", []string{"code", "-w"}},
		{"   ", "emacs -nw", []string{"emacs", "-nw"}},
	} {
		env := map[string]string{"VISUAL": c.visual, "EDITOR": c.editor}
		if got := editorCommand(func(k string) string { return env[k] }); !slices.Equal(got, c.want) {
			t.Errorf("VISUAL=%q EDITOR=%q: %q, want %q", c.visual, c.editor, got, c.want)
		}
	}
}
