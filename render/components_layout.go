package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/markii/markii/ansi"
)

// layoutComponents are the standard components that arrange other blocks.
func layoutComponents() []Component {
	return []Component{
		{Name: "row", Form: FormContainer, Block: row},
		{Name: "cell", Form: FormContainer, Block: cell},
		{Name: "center", Form: FormContainer, SelfSizing: true, Block: alignWrapper("center")},
		{Name: "left", Form: FormContainer, SelfSizing: true, Block: alignWrapper("left")},
		{Name: "right", Form: FormContainer, SelfSizing: true, Block: alignWrapper("right")},
		{Name: "wide", Form: FormContainer, Block: widthWrapper(PresetWide)},
		{Name: "full", Form: FormContainer, Block: widthWrapper(PresetFull)},
		{Name: "narrow", Form: FormContainer, Block: widthWrapper(PresetNarrow)},
		{Name: "fit", Form: FormContainer, Block: widthWrapper(PresetFit)},
	}
}

// minRowWidth is the width below which a row stacks its cells.
const minRowWidth = 60

// rowGutter is the blank between a row's cells: wide enough that one
// cell's text never reads as part of its neighbour's.
const rowGutter = 3

// rowCells returns a row's cells: its direct child blocks, skipping
// paragraphs of white space only.
func rowCells(blocks []Block) []Block {
	cells := make([]Block, 0, len(blocks))
	for _, b := range blocks {
		if p, ok := b.(*Paragraph); ok && strings.TrimSpace(plainText(p.Content)) == "" {
			continue
		}
		cells = append(cells, b)
	}
	return cells
}

// row lays its cells side by side, `cols` per grid row (2, 3 or 4; else
// one column per cell), with a gutter of rowGutter cells; below 60 columns, or with
// one column, the cells stack with a blank line between.
func row(c *Context) []ansi.Line {
	k := newKit(c)
	align := k.textAlign()
	cells := rowCells(c.Blocks)
	cols := len(cells)
	if n, err := strconv.Atoi(k.enum("cols", "auto", "2", "3", "4")); err == nil {
		cols = n
	}
	cols = min(cols, len(cells))
	var out []ansi.Line
	if c.Width < minRowWidth || cols <= 1 {
		for i, b := range cells {
			if i > 0 {
				out = append(out, nil)
			}
			out = append(out, rowCell(c, b, align, c.Width)...)
		}
		return k.withMarkers(out, c.Width)
	}
	colW := (c.Width - (cols-1)*rowGutter) / cols
	for start := 0; start < len(cells); start += cols {
		if start > 0 {
			out = append(out, nil)
		}
		laid := make([][]ansi.Line, 0, cols)
		for _, b := range cells[start:min(start+cols, len(cells))] {
			laid = append(laid, rowCell(c, b, align, colW))
		}
		out = append(out, sideBySide(laid, colW)...)
	}
	return k.withMarkers(out, c.Width)
}

// rowCell lays out one cell of a row at width: a cell directive's body
// aligned by its own text attribute (the row's align by default), any
// other block as it is.
func rowCell(c *Context, b Block, align string, width int) []ansi.Line {
	blocks, cellAlign := []Block{b}, align
	var ck *kit
	if d, ok := b.(*Directive); ok && d.Name == "cell" && d.Form == FormContainer {
		blocks = d.Blocks
		ck = newKit(c.Nested(d))
		cellAlign = ck.enum("text", align, "left", "center", "right")
	}
	var lines []ansi.Line
	if cellAlign != "left" {
		lines = alignText(c.LayoutInert(blocks, width), cellAlign, width)
	} else {
		lines = c.Layout(blocks, width)
	}
	if ck != nil {
		lines = ck.withMarkers(lines, width)
	}
	return lines
}

// sideBySide joins laid-out cells of colW cells each into lines, a
// gutter between them, each line's trailing spaces dropped.
func sideBySide(laid [][]ansi.Line, colW int) []ansi.Line {
	height := 0
	for _, cl := range laid {
		height = max(height, len(cl))
	}
	out := make([]ansi.Line, 0, height)
	for y := 0; y < height; y++ {
		var ln ansi.Line
		for i, cl := range laid {
			if i > 0 {
				ln = append(ln, ansi.Span{Text: blank(rowGutter)})
			}
			var part ansi.Line
			if y < len(cl) {
				part = cl[y]
			}
			ln = append(ln, part...)
			if pad := colW - part.Width(); i < len(laid)-1 && pad > 0 {
				ln = append(ln, ansi.Span{Text: blank(pad)})
			}
		}
		out = append(out, trimRight(ln))
	}
	return out
}

// trimRight drops trailing plain spaces from a line.
func trimRight(ln ansi.Line) ansi.Line {
	for len(ln) > 0 {
		last := ln[len(ln)-1]
		if !last.Style.IsZero() || last.Link != "" || last.Target != 0 {
			break
		}
		t := strings.TrimRight(last.Text, " ")
		if t != "" {
			ln[len(ln)-1].Text = t
			break
		}
		ln = ln[:len(ln)-1]
	}
	return ln
}

// cell groups blocks into one row cell; on its own it just shows its body
// (in string mode), padded to `text`.
func cell(c *Context) []ansi.Line {
	k := newKit(c)
	align := k.textAlign()
	return k.withMarkers(alignText(c.LayoutInert(c.Blocks, c.Width), align, c.Width), c.Width)
}

// alignWrapper returns a wrapper that pads every body line to side within
// the width; its `width` attribute sets the width the body is laid out at
// (fit leaves the lines as they are: each is already its own width).
func alignWrapper(side string) func(c *Context) []ansi.Line {
	return func(c *Context) []ansi.Line {
		target := c.Width
		if c.Preset == PresetNarrow {
			target = c.BoxWidth(0)
		}
		if c.Preset == PresetFit {
			// The body is one block as wide as its widest line, placed
			// whole, so the boxes in it keep straight edges.
			return alignLines(c.LayoutFit(c.Blocks, max(target, 1)), side, c.Width, true)
		}
		return alignText(c.Layout(c.Blocks, max(target, 1)), side, c.Width)
	}
}

// widthWrapper returns a wrapper that lays its body out at a preset width:
// narrow is max(20, round(width/2)), wide and full the whole width, fit
// the body's widest line. The `align` attribute then places the lines.
func widthWrapper(preset string) func(c *Context) []ansi.Line {
	return func(c *Context) []ansi.Line {
		if preset == PresetNarrow {
			w := max(20, int(math.Round(float64(c.Width)/2)))
			return c.Layout(c.Blocks, max(1, min(w, c.Width)))
		}
		if preset == PresetFit {
			return c.LayoutFit(c.Blocks, c.Width)
		}
		return c.Layout(c.Blocks, c.Width)
	}
}
