package cli

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// defaultWidth is the layout width when stdout is not a terminal.
const defaultWidth = 80

var renderCommand = &command{
	summary: "write a note to stdout for pipes and golden files",
	flags: []flagSpec{
		{name: "width", value: "N", help: "layout width in columns (default: the terminal's, else 80)"},
		{name: "color", value: "WHEN", help: "auto, never, 16, 256 or truecolor (default auto)", choices: colorChoices},
		{name: "theme", value: "NAME", help: "dark or light (default dark)", choices: theme.Names},
		{name: "values", value: "FILE", help: "script values to show, a JSON object of name to value or entry"},
		{name: "now", value: "TIME", help: "the time relative dates count from, RFC 3339 (default: the clock)"},
		{name: "quiet", isBool: true, help: "do not print diagnostics to stderr"},
	},
	run: runRender,
}

// runRender implements `markii render [FILE|-]`.
func runRender(c *invocation) error {
	outTTY := isTerminal(c.stdio.Out)
	width := defaultWidth
	if f, ok := c.stdio.Out.(*os.File); ok && outTTY {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			width = w
		}
	}
	width, err := c.positiveInt("width", width)
	if err != nil {
		return err
	}
	level := colorLevel(c.str("color", "auto"), os.Getenv, outTTY)
	th, err := theme.ByName(c.str("theme", "dark"))
	if err != nil {
		return usagef("%s", err)
	}
	now := time.Now()
	if c.set["now"] {
		now, err = time.Parse(time.RFC3339, c.vals["now"])
		if err != nil {
			return usagef("--now wants an RFC 3339 time such as 2026-01-02T15:04:05Z, not %q", c.vals["now"])
		}
	}
	var values render.Values
	if c.set["values"] {
		if values, err = loadValues(c.vals["values"]); err != nil {
			return err
		}
	}

	var src []byte
	var warnings []string
	path := "-"
	if len(c.args) > 0 {
		path = c.args[0]
	}
	if len(c.args) == 0 && isTerminal(c.stdio.In) {
		src = fixtures.Tour
	} else {
		n, err := loadNote(path, c.stdio.In)
		if err != nil {
			return err
		}
		src, warnings = n.Source, n.Warnings
	}

	doc := render.Parse(src)
	src = nil
	w := bufio.NewWriterSize(c.stdio.Out, 64<<10)
	opt := render.Options{Width: width, Level: level, Theme: th, Values: values, Now: now}
	var buf []byte
	diags, err := render.Stream(doc, opt, func(lines []ansi.Line) error {
		buf = ansi.AppendLines(buf[:0], lines, level)
		_, err := w.Write(buf)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return failf("cannot write the output: %s", osReason(err))
	}
	if !c.bool("quiet") {
		for _, d := range append(warnings, diags...) {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", oneLine(d))
		}
	}
	return nil
}
