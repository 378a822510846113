package snapshot

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// TestViewerScreenAfterTabEnter: the viewer's screen after Tab Enter (the
// first focusable block, a details block, opened) differs from the
// screen before, and is byte-identical in a second run under a scrambled
// environment.
func TestViewerScreenAfterTabEnter(t *testing.T) {
	dir := t.TempDir()
	src := "# Trip\n\n:::details{summary=\"Packing list\"}\n- blue bag\n- the map\n:::\n\nEnd.\n"
	writeTree(t, dir, map[string][]byte{"trip.mk.md": []byte(src)})
	n, err := notefile.Load(filepath.Join(dir, "trip.mk.md"), nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := render.Options{Width: 60, Level: ansi.TrueColor, Theme: theme.Dark, Now: DefaultNow}
	before, err := Screen(n, opt, 12, "")
	if err != nil {
		t.Fatal(err)
	}
	first, err := Screen(n, opt, 12, "Tab Enter")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before, first) || !strings.Contains(string(first), "blue bag") || strings.Contains(string(before), "blue bag") {
		t.Fatalf("Tab Enter did not open the details block:\nbefore:\n%s\nafter:\n%s", Visible(before), Visible(first))
	}
	if err := ansi.Validate(bytes.ReplaceAll(first, []byte("\r\n"), []byte("\n"))); err != nil {
		t.Errorf("the screen has a sequence markii does not write: %v\n%s", err, Visible(first))
	}
	restore := scramble()
	second, err := Screen(n, opt, 12, "Tab Enter")
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("the screen differs under a scrambled environment:\n%s", Diff("screen", first, second))
	}
}
