package cli

import (
	"fmt"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/htmlexport"
	"github.com/markii/markii/render"
	"github.com/markii/markii/sanitize"
)

// exportColor is the color level of an ansi export when --color is not
// given: terminal text carries its color, whatever it is written to.
const exportColor = "truecolor"

// exportFormats are the values of `markii export --format`.
var exportFormats = []string{"ansi", "html", "md-plain"}

var exportCommand = &command{
	summary: "write a note to a file as terminal text, a self-contained HTML page or plain markdown",
	args:    "NOTE --format ansi|html|md-plain -o OUT|-",
	maxArgs: 1,
	flags: []flagSpec{
		{name: "format", value: "FORMAT", help: "ansi (the render), html (one page that runs and fetches nothing) or md-plain (markdown any tool reads); required", choices: exportFormats},
		{name: "output", short: "o", value: "FILE", help: "the file to write (-o FILE; - for stdout); required"},
		{name: "color", short: "c", value: "WHEN", help: "ansi only: truecolor, 256, 16, never or auto (default truecolor)", choices: colorChoices},
		{name: "width", short: "w", value: "N", help: "ansi only: layout width (default: the terminal's, else 80)"},
		{name: "theme", short: "t", value: "NAME", help: "ansi and html: dark, light, high-contrast or a theme file's name (default dark)", suggest: themeNames},
		{name: "values", value: "FILE", help: "ansi and html: script values to show instead of the stored ones"},
		{name: "now", value: "TIME", help: "ansi and html: the time relative dates count from, RFC 3339"},
		{name: "images", value: "HOW", help: "ansi only: draw the note's own images at 256 colors or truecolor: blocks, kitty, iterm or off (default)", choices: imageChoices},
		{name: "quiet", isBool: true, help: "do not print diagnostics to stderr"},
		{name: "no-emoji", isBool: true, help: "ansi only: keep emoji shortcodes such as :tada: as written"},
	},
	run: runExport,
}

// runExport implements `markii export FILE --format ansi|html|md-plain -o
// OUT`. It never runs scripts: the ansi and html forms show the values
// stored on this device (or --values).
func runExport(c *invocation) error {
	if len(c.args) == 0 {
		return usagef("export needs a note to export (markii export FILE --format ansi -o OUT)")
	}
	if !c.set["format"] {
		return usagef("export needs --format ansi, --format html or --format md-plain")
	}
	if !c.set["output"] || c.vals["output"] == "" {
		return usagef("export needs -o FILE (the file to write)")
	}
	target, err := resolveOutput(c.vals["output"], c.args[0])
	if err != nil {
		return err
	}
	opt, err := c.layoutOptions(exportColor, "dark")
	if err != nil {
		return err
	}
	n, err := loadNote(c.args[0], c.stdio.In)
	if err != nil {
		return err
	}
	var out []byte
	var diagnostics []string
	switch c.vals["format"] {
	case "md-plain":
		out = render.PlainMarkdown(n.Source)
		if target.reachesTerminal() {
			// Kept byte for byte in a file, but on its way to a terminal
			// the note's own control characters are made inert as the
			// render makes them.
			out = []byte(sanitize.Text(string(out)))
		}
	case "html":
		if !c.set["values"] {
			opt.Values = c.storedValues(n)
		}
		doc := render.Parse(n.Source)
		images, imageDiags := localImages(n, doc)
		page := htmlexport.Render(doc, htmlexport.Options{Theme: opt.Theme, Values: opt.Values, Now: opt.Now, Images: images})
		out = page.HTML
		diagnostics = append(imageDiags, page.Diagnostics...)
	default:
		if !c.set["values"] {
			opt.Values = c.storedValues(n)
		}
		if target.kind != toStdout {
			// A file is not a terminal, whatever stdout is.
			opt.Level = colorLevel(c.str("color", exportColor), c.getenv, false)
		}
		doc := render.Parse(n.Source)
		diagnostics = c.noteExtras(&opt, n, doc, c.imagesFlag("off"), opt.Width)
		page := render.Layout(doc, opt)
		out = ansi.Encode(page.Lines, opt.Level)
		diagnostics = append(diagnostics, page.Diagnostics...)
	}
	if err := target.write(out, c.stdio.Out); err != nil {
		return err
	}
	if !c.bool("quiet") {
		for _, d := range append(n.Warnings, diagnostics...) {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(d))
		}
	}
	return nil
}
