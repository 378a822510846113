package render_test

import (
	"fmt"
	"os"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// Render draws a note in one call: 80 cells wide, in the dark theme. At
// ansi.None the output is plain text.
func ExampleRender() {
	note := "# Groceries\n\n- [x] bread\n- [ ] *fresh* milk\n\n> Buy on the way home.\n"
	os.Stdout.Write(render.Render([]byte(note), ansi.None))
	// Output:
	// # Groceries
	// ━━━━━━━━━━━
	//
	// • [x] bread
	// • [ ] fresh milk
	//
	// │ Buy on the way home.
}

// RenderWith takes layout options; the fields left zero keep Render's
// defaults.
func ExampleRenderWith() {
	note := "A paragraph long enough to wrap at twenty cells."
	os.Stdout.Write(render.RenderWith([]byte(note), render.Options{Width: 20}))
	// Output:
	// A paragraph long
	// enough to wrap at
	// twenty cells.
}

// The steps of the pipeline, one at a time: the page also carries the
// headings, and a directive no component draws keeps its content in a
// box (why is in page.Diagnostics).
func ExampleLayout() {
	doc := render.Parse([]byte("# Title\n\n## Part\n\n:::nosuchthing\nbody\n:::\n"))
	page := render.Layout(doc, render.Options{Width: 40, Level: ansi.None, Theme: theme.Dark})
	for _, h := range page.Headings {
		fmt.Println("heading:", h.Level, h.Text)
	}
	os.Stdout.Write(ansi.Encode(page.Lines, ansi.None))
	// Output:
	// heading: 1 Title
	// heading: 2 Part
	// # Title
	// ━━━━━━━
	//
	// ## Part
	// ───────
	//
	// ┌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┐
	// ┆ body                                 ┆
	// └╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┘
}
