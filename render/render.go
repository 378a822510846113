package render

import (
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// DefaultWidth is the width Render lays a note out at when Options.Width
// is zero.
const DefaultWidth = 80

// Render parses src and draws it for a terminal at level, 80 cells wide
// in the dark theme: Parse, Layout and ansi.Encode in one call. Scripts
// are shown as not run; the page's diagnostics are dropped (use Layout to
// see them).
func Render(src []byte, level ansi.Level) []byte {
	return RenderWith(src, Options{Level: level})
}

// RenderWith is Render with layout options. A zero Width means
// DefaultWidth, a zero Theme means theme.Dark and a zero Now means the
// current time; the other fields mean what they mean to Layout.
func RenderWith(src []byte, opt Options) []byte {
	if opt.Width == 0 {
		opt.Width = DefaultWidth
	}
	if opt.Theme == (theme.Theme{}) {
		opt.Theme = theme.Dark
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	return ansi.Encode(Layout(Parse(src), opt).Lines, opt.Level)
}
