package goldens

import (
	"os"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// gridOverflow reports whether a line is part of a table grid, the one
// construct allowed to be wider than the page once every column is at its
// minimum.
// Nested frames (`││ text ││`) are not a grid: their edges touch.
func gridOverflow(line string) bool {
	if strings.ContainsAny(line, "┬┼┴") {
		return true
	}
	return strings.Count(line, "│") >= 3 && !strings.Contains(line, "││")
}

// TestWidthProperty lays every fixture out at every width from 20 to 160
// and checks that no line is wider than the width (tables at their
// minimum excepted), and at every width below 20 that nothing fails.
func TestWidthProperty(t *testing.T) {
	maxW := 160
	if testing.Short() {
		maxW = 90
	}
	for _, fx := range listFixtures(t) {
		src, err := os.ReadFile(fx.Path)
		if err != nil {
			t.Fatal(err)
		}
		values, err := valuesFor(fx)
		if err != nil {
			t.Fatal(err)
		}
		doc := render.Parse(src)
		for w := 1; w <= maxW; w++ {
			page := render.Layout(doc, render.Options{Width: w, Level: ansi.TrueColor, Theme: theme.Dark, Values: values, Now: fixedNow})
			for i, ln := range page.Lines {
				text := ln.Text()
				if strings.Contains(text, "failed to render") {
					t.Errorf("%s at width %d, line %d: a component failed: %q", fx.Name, w, i+1, text)
				}
				if w >= 20 && ln.Width() > w && !gridOverflow(text) {
					t.Errorf("%s at width %d, line %d is %d cells wide: %q", fx.Name, w, i+1, ln.Width(), text)
				}
			}
			if err := ansi.Validate(ansi.Encode(page.Lines, ansi.TrueColor)); err != nil {
				t.Errorf("%s at width %d: %v", fx.Name, w, err)
			}
		}
	}
}
