package cli

import (
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/htmlexport"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/sanitize"
)

// exportColor is the color level of an ansi export when --color is not
// given: terminal text carries its color, whatever it is written to.
const exportColor = "truecolor"

// exportFormats are the values of `markii export --format`.
var exportFormats = []string{"ansi", "html", "md-plain"}

// exportOptions are markii export's flags: the layout flags that apply
// to a file, with their own help, and the format and file to write.
type exportOptions struct {
	layout layoutFlags
	format choiceFlag
	output textFlag
	images choiceFlag
}

func (o *exportOptions) bind(fs *flagSet) {
	o.format.choices, o.layout.color.choices, o.images.choices = exportFormats, colorChoices, imageChoices
	o.layout.width.max = config.MaxLayoutWidth
	fs.choice(&o.format, flagSpec{name: "format", value: "FORMAT", help: "ansi (the render), html (one page that runs and fetches nothing) or md-plain (markdown any tool reads); required"})
	fs.text(&o.output, flagSpec{name: "output", short: "o", value: "FILE", help: "the file to write (-o FILE; - for stdout); required"})
	fs.choice(&o.layout.color, flagSpec{name: "color", short: "c", value: "WHEN", help: "ansi only: truecolor, 256, 16, never or auto (default truecolor)"})
	fs.count(&o.layout.width, flagSpec{name: "width", short: "w", value: "N", help: "ansi only: layout width (default: the terminal's, else 80)"})
	fs.text(&o.layout.theme, flagSpec{name: "theme", short: "t", value: "NAME", help: "ansi and html: dark, light, high-contrast or a theme file's name (default dark)", suggest: themeNames})
	fs.text(&o.layout.values, flagSpec{name: "values", value: "FILE", help: "ansi and html: script values to show instead of the stored ones"})
	fs.text(&o.layout.now, flagSpec{name: "now", value: "TIME", help: "ansi and html: the time relative dates count from, RFC 3339"})
	fs.choice(&o.images, flagSpec{name: "images", value: "HOW", help: "ansi only: draw the note's own images at 256 colors or truecolor: blocks, kitty, iterm or off (default)"})
	fs.bool(&o.layout.quiet, flagSpec{name: "quiet", help: "do not print diagnostics to stderr"})
	fs.bool(&o.layout.noEmoji, flagSpec{name: "no-emoji", help: "ansi only: keep emoji shortcodes such as :tada: as written"})
}

var exportCommand = commandOf(command{
	summary: "write a note to a file as terminal text, a self-contained HTML page or plain markdown",
	args:    "NOTE --format ansi|html|md-plain -o OUT|-",
	maxArgs: 1,
}, (*exportOptions).bind, runExport)

// runExport implements `markii export FILE --format ansi|html|md-plain -o
// OUT`. It never runs scripts: the ansi and html forms show the values
// stored on this device (or --values).
func runExport(c *invocation, o *exportOptions) error {
	if len(c.args) == 0 {
		return usagef("export needs a note to export (markii export FILE --format ansi -o OUT)")
	}
	if !o.format.set {
		return usagef("export needs --format ansi, --format html or --format md-plain")
	}
	if o.output.value == "" {
		return usagef("export needs -o FILE (the file to write)")
	}
	target, err := resolveOutput(o.output.value, c.args[0])
	if err != nil {
		return err
	}
	opt, err := c.layoutOptions(&o.layout, exportColor, "dark")
	if err != nil {
		return err
	}
	n, err := loadNote(c.args[0], c.stdio.In)
	if err != nil {
		return err
	}
	out, diagnostics := c.exportNote(o, n, opt, target)
	if err := target.write(out, c.stdio.Out); err != nil {
		return err
	}
	if !o.layout.quiet {
		c.printDiagnostics(append(n.Warnings, diagnostics...))
	}
	return nil
}

// exportNote is n in the format --format names, and its diagnostics.
func (c *invocation) exportNote(o *exportOptions, n *note, opt render.Options, target outputTarget) ([]byte, []string) {
	if o.format.value == "md-plain" {
		out := render.PlainMarkdown(n.Source)
		if target.reachesTerminal() {
			// Kept byte for byte in a file, but on its way to a terminal
			// the note's own control characters are made inert as the
			// render makes them.
			out = []byte(sanitize.Text(string(out)))
		}
		return out, nil
	}
	if !o.layout.values.set {
		opt.Values = c.storedValues(n)
	}
	doc := render.Parse(n.Source)
	if o.format.value == "html" {
		images, imageDiags := localImages(n, doc)
		// The page's title is the one a library of notes shows for it.
		page := htmlexport.Render(doc, htmlexport.Options{Theme: opt.Theme, Values: opt.Values, Now: opt.Now, Images: images, Title: render.Title(n.Source)})
		return page.HTML, append(imageDiags, page.Diagnostics...)
	}
	if target.kind != toStdout {
		// A file is not a terminal, whatever stdout is: its color level
		// and width are render's for a file.
		opt.Level = colorLevel(o.layout.color.or(exportColor), c.getenv, false)
		opt.Width = o.layout.width.or(defaultWidth)
	}
	diagnostics := c.noteExtras(&opt, n, doc, imageModeOf(o.images.or("off")), opt.Width)
	page := render.Layout(doc, opt)
	return ansi.Encode(page.Lines, opt.Level), append(diagnostics, page.Diagnostics...)
}
