package render_test

import (
	"fmt"
	"os"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// spoiler is a component written outside package render: a block a
// viewer can focus and open, whose hidden body still takes its IDs (so
// the blocks after it keep theirs) and whose title is the focus target.
// It uses only the exported Context API, as the standard components do.
func spoiler(c *render.Context) []ansi.Line {
	id := render.BlockID(-1)
	if !c.Inert() {
		id = c.NextID(render.FocusDetails)
	}
	open := c.Live() == nil // the static form shows everything
	if live := c.Live(); live != nil {
		open = live.Open[id]
	}
	label, _ := c.Attr("title")
	title := c.NewTarget("")
	out := []ansi.Line{{{Text: "spoiler"}, {Text: ": "}, {Text: label, Target: title}}}
	var hidden []render.HiddenPanel // what a search finds while it is closed
	if open {
		out = append(out, c.Layout(c.Blocks, c.Width)...)
	} else {
		hidden = []render.HiddenPanel{{Lines: c.Skip(c.Blocks, c.Width)}}
	}
	if id >= 0 {
		c.AddFocusable(render.Focusable{ID: id, Kind: render.FocusDetails, EndLine: len(out),
			Label: label, Open: open, TitleTarget: title, Hidden: hidden})
	}
	return out
}

// A program embedding markii adds its own component to a registry; the
// page then carries the component's focusable block with the range of
// its title, as it does for the standard ones.
func ExampleRegistry_Register() {
	reg := render.NewStandardRegistry()
	if err := reg.Register(render.Component{Name: "spoiler", Form: render.FormContainer, Block: spoiler}); err != nil {
		panic(err)
	}
	doc := render.Parse([]byte(":::spoiler{title=\"the end\"}\nThe butler did it.\n:::\n"))
	for _, live := range []*render.LiveState{nil, {Focus: -1}} {
		page := render.Layout(doc, render.Options{Width: 40, Level: ansi.None, Theme: theme.Dark, Registry: reg, Live: live})
		os.Stdout.Write(ansi.Encode(page.Lines, ansi.None))
		for _, f := range page.Focusables {
			fmt.Printf("focusable: %q open=%v title=%+v hidden=%v\n", f.Label, f.Open, f.Title, f.Hidden)
		}
	}
	// Output:
	// spoiler: the end
	// The butler did it.
	// focusable: "the end" open=true title={Line:0 From:9 To:16} hidden=[]
	// spoiler: the end
	// focusable: "the end" open=false title={Line:0 From:9 To:16} hidden=[{0 [The butler did it.]}]
}
