package goldens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldensHoldNoDiagnostics: what markii has to say about a note goes to
// its diagnostics (stderr, the viewer's D pane), never into the page. No
// reviewed output of any fixture carries a diagnostic's words.
func TestGoldensHoldNoDiagnostics(t *testing.T) {
	files, err := filepath.Glob("*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	phrases := []string{"unknown component `", "ignored]", "no content (", "image not shown",
		"written inline", "cannot be drawn in a terminal", "failed to render: "}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range phrases {
			if strings.Contains(string(b), p) {
				t.Errorf("%s holds the diagnostic text %q", filepath.Base(f), p)
			}
		}
	}
}
