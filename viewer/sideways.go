package viewer

import (
	"sort"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
)

// scrollWidth is the widest the viewer lays out a table or a code block
// that does not fit the screen (render.Options.ScrollWidth); the rest of
// the page is wrapped to the screen as ever. A table that needs more is
// laid out as render lays it out.
const scrollWidth = 1000

// The viewer scrolls sideways as less -S does, but only the blocks laid
// out wider than the page (render.Page.Wide): a table that would have to
// break its words and a code block with long lines. The prose around them
// stays wrapped to the screen and in place, so reading on after a wide
// table needs no scrolling back. The offset is one for the whole page
// (every wide block on screen moves together, as less's lines do), kept
// between 0 and the widest block's overhang.

// wideAt returns the width of the wide block page line ln is in, or 0.
func (p *page) wideAt(ln int) int {
	ws := p.laid.Wide
	i := sort.Search(len(ws), func(i int) bool { return ws[i].EndLine > ln })
	if i < len(ws) && ws[i].Line <= ln {
		return ws[i].Width
	}
	return 0
}

// widest is the width of the page's widest wide block (0 when none).
func (p *page) widest() int {
	w := 0
	for _, b := range p.laid.Wide {
		w = max(w, b.Width)
	}
	return w
}

// maxShift is the furthest the screen can scroll sideways: the widest
// block's overhang past the screen.
func (rd *reader) maxShift() int { return max(rd.pg.widest()-rd.width, 0) }

// shift is the sideways offset, kept in range whatever changed since it
// was set (a resize, a new layout, another note).
func (rd *reader) shift() int { return max(0, min(rd.hoff, rd.maxShift())) }

// sideways scrolls wide blocks by half the screen, or by the count typed
// before the key, which then stays the step (less's N← and N→).
func (rd *reader) sideways(dir int, c count) {
	if c.typed {
		rd.hstep = max(min(c.n, scrollWidth), 1)
	}
	if rd.maxShift() == 0 {
		rd.hoff = 0
		rd.message = "nothing here is wider than the screen"
		return
	}
	step := rd.hstep
	if step == 0 {
		step = max(rd.width/2, 1)
	}
	rd.hoff = max(0, min(rd.shift()+dir*step, rd.maxShift()))
}

// leftRight is ← or →: it switches the panels of a focused tabs block,
// else scrolls sideways.
func (rd *reader) leftRight(dir int, c count) tea.Cmd {
	if t, ok := rd.focused(); ok && t.kind == render.FocusTabs {
		return rd.switchTab(dir)
	}
	rd.sideways(dir, c)
	return nil
}

// revealColumns scrolls sideways so that bytes start to end of page line
// ln (a match, a focused link) are on screen, when the line is in a wide
// block.
func (rd *reader) revealColumns(ln, start, end int) {
	if rd.pg.wideAt(ln) == 0 {
		return
	}
	text := rd.pg.lineText(ln)
	start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
	from := ansi.Width(text[:start])
	to := from + ansi.Width(text[start:max(start, end)])
	if off := rd.shift(); from >= off && to <= off+rd.width {
		return
	}
	rd.hoff = max(0, min(from-rd.width/4, rd.maxShift()))
}

// cutWide cuts page line ln to the screen when it is in a wide block.
func (rd *reader) cutWide(line ansi.Line, ln, off int) ansi.Line {
	if w := rd.pg.wideAt(ln); w == 0 || (off == 0 && w <= rd.width) {
		return line
	}
	return line.Cut(off, rd.width)
}

// columns is the status bar's sideways position, "cols 41-120/180", when
// a block on screen is wider than it or the screen is scrolled sideways;
// else "".
func (rd *reader) columns() string {
	off, widest := rd.shift(), rd.pg.widest()
	if widest <= rd.width {
		return ""
	}
	shown := off > 0
	for r := rd.top; !shown && r < len(rd.pg.rows) && r < rd.top+rd.bodyHeight(); r++ {
		if rw := rd.pg.rows[r]; rw.fold < 0 {
			shown = rd.pg.wideAt(int(rw.line)) > rd.width
		}
	}
	if !shown {
		return ""
	}
	return "cols " + strconv.Itoa(off+1) + "-" + strconv.Itoa(min(off+rd.width, widest)) + "/" + strconv.Itoa(widest)
}
