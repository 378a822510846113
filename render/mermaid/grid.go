package mermaid

import (
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/rivo/uniseg"
)

// Line connections of a cell: which neighbours a line drawn through it
// reaches.
const (
	up uint8 = 1 << iota
	right
	down
	left
)

// lineStyle is how an edge's line is drawn.
type lineStyle uint8

const (
	solid lineStyle = iota
	dotted
	thick
)

// cell is one terminal cell of a drawing: a glyph (a grapheme cluster,
// or "" for a line or a blank), the cell after a wide glyph (cont), or
// the line connections drawn through it.
type cell struct {
	glyph string
	class Class
	bits  uint8
	style lineStyle
	cont  bool
	// keep is a cell of a frame's line an edge meets, which its title
	// does not cover.
	keep bool
}

// grid is a drawing of w×h cells.
type grid struct {
	w, h  int
	cells []cell
}

func newGrid(w, h int) *grid {
	return &grid{w: w, h: h, cells: make([]cell, w*h)}
}

func (g *grid) at(x, y int) *cell {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return nil
	}
	return &g.cells[y*g.w+x]
}

// put writes one glyph of one cell.
func (g *grid) put(x, y int, glyph string, c Class) {
	if p := g.at(x, y); p != nil {
		*p = cell{glyph: glyph, class: c}
	}
}

// text writes s from (x, y), cluster by cluster, never past the grid's
// right edge; it returns the cells written.
func (g *grid) text(x, y int, s string, c Class) int {
	start := x
	state := -1
	for rest := s; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		w := ansi.Width(cluster)
		if w == 0 {
			continue
		}
		if x+w > g.w {
			break
		}
		g.put(x, y, cluster, c)
		for i := 1; i < w; i++ {
			if p := g.at(x+i, y); p != nil {
				*p = cell{cont: true, class: c}
			}
		}
		x += w
	}
	return x - start
}

// clear reports whether the n cells from (x, y) on hold no glyph, no
// line running up or down and no cell kept clear.
func (g *grid) clear(x, y, n int) bool {
	for i := x; i < x+n; i++ {
		if c := g.at(i, y); c != nil && (c.bits&(up|down) != 0 || c.glyph != "" || c.keep) {
			return false
		}
	}
	return true
}

// keepClear marks a cell no title may cover.
func (g *grid) keepClear(x, y int) {
	if p := g.at(x, y); p != nil {
		p.keep = true
	}
}

// hline and vline draw a line between two cells of one row or column,
// both ends included; a line of one cell draws nothing.
func (g *grid) hline(x0, x1, y int, st lineStyle, c Class) {
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	for x := x0; x <= x1; x++ {
		var b uint8
		if x > x0 {
			b |= left
		}
		if x < x1 {
			b |= right
		}
		g.bit(x, y, b, st, c)
	}
}

func (g *grid) vline(x, y0, y1 int, st lineStyle, c Class) {
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	for y := y0; y <= y1; y++ {
		var b uint8
		if y > y0 {
			b |= up
		}
		if y < y1 {
			b |= down
		}
		g.bit(x, y, b, st, c)
	}
}

// bit adds line connections to a cell; a cell holding a glyph keeps it.
func (g *grid) bit(x, y int, b uint8, st lineStyle, c Class) {
	p := g.at(x, y)
	if p == nil || b == 0 {
		return
	}
	if p.bits == 0 || st != solid {
		p.style = st
	}
	p.bits |= b
	if p.glyph == "" && !p.cont {
		p.class = c
	}
}

// lineGlyphs are the box-drawing characters for each set of connections,
// light and heavy.
var lineGlyphs = [2][16]string{
	{" ", "│", "─", "└", "│", "│", "┌", "├", "─", "┘", "─", "┴", "┐", "┤", "┬", "┼"},
	{" ", "┃", "━", "┗", "┃", "┃", "┏", "┣", "━", "┛", "━", "┻", "┓", "┫", "┳", "╋"},
}

// glyphOf is the character a cell draws.
func (p *cell) glyphOf() string {
	if p.glyph != "" {
		return p.glyph
	}
	if p.bits == 0 {
		return " "
	}
	heavy := 0
	if p.style == thick {
		heavy = 1
	}
	gl := lineGlyphs[heavy][p.bits]
	if p.style == dotted {
		switch gl {
		case "│":
			return "┆"
		case "─":
			return "┄"
		}
	}
	return gl
}

// classOf is the class a cell is drawn in: Blank when it draws nothing.
func (p *cell) classOf() Class {
	if p.blank() {
		return Blank
	}
	return p.class
}

// blank reports whether a cell draws nothing.
func (p *cell) blank() bool { return p.glyph == "" && p.bits == 0 && !p.cont }

// lines turns the grid into spans, one line a row, trailing blanks
// trimmed.
func (g *grid) lines() []Line {
	out := make([]Line, 0, g.h)
	var b strings.Builder
	for y := 0; y < g.h; y++ {
		out = append(out, rowLine(g.cells[y*g.w:(y+1)*g.w], &b))
	}
	return out
}

// rowLine turns a row of cells into spans of one class each, trailing
// blanks trimmed; b is scratch space.
func rowLine(row []cell, b *strings.Builder) Line {
	end := len(row)
	for end > 0 && row[end-1].blank() {
		end--
	}
	var ln Line
	for x := 0; x < end; {
		cls := row[x].classOf()
		b.Reset()
		for ; x < end && row[x].classOf() == cls; x++ {
			if !row[x].cont {
				b.WriteString(row[x].glyphOf())
			}
		}
		ln = append(ln, Span{Text: b.String(), Class: cls})
	}
	return ln
}
