package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
)

// exportFormats are the values of `markii export --format`.
var exportFormats = []string{"ansi", "md-plain"}

var exportCommand = &command{
	summary: "write a note to a file as terminal text or plain markdown",
	flags: []flagSpec{
		{name: "format", value: "FORMAT", help: "ansi (the render) or md-plain (markdown any tool reads); required", choices: exportFormats},
		{name: "output", value: "FILE", help: "the file to write (-o FILE; - for stdout); required"},
		{name: "color", value: "WHEN", help: "ansi only: never, 16, 256, truecolor or auto (default never)", choices: colorChoices},
		{name: "width", value: "N", help: "ansi only: layout width (default: the terminal's, else 80)"},
		{name: "theme", value: "NAME", help: "ansi only: dark or light (default dark)", choices: theme.Names},
		{name: "values", value: "FILE", help: "ansi only: script values to show instead of the stored ones"},
		{name: "now", value: "TIME", help: "ansi only: the time relative dates count from, RFC 3339"},
		{name: "images", isBool: true, help: "ansi only: draw the note's own images at 256 colors or truecolor"},
		{name: "quiet", isBool: true, help: "do not print diagnostics to stderr"},
	},
	run: runExport,
}

// runExport implements `markii export FILE --format ansi|md-plain -o OUT`.
// It never runs scripts: the ansi form shows the values stored on this
// device (or --values).
func runExport(c *invocation) error {
	if len(c.args) == 0 {
		return usagef("export needs a note to export (markii export FILE --format ansi -o OUT)")
	}
	if !c.set["format"] {
		return usagef("export needs --format ansi or --format md-plain")
	}
	if !c.set["output"] || c.vals["output"] == "" {
		return usagef("export needs -o FILE (the file to write)")
	}
	opt, err := c.layoutOptions("never", "dark")
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
	default:
		if !c.set["values"] {
			opt.Values = c.storedValues(n)
		}
		if c.vals["output"] != "-" {
			// A file is not a terminal, whatever stdout is.
			opt.Level = colorLevel(c.str("color", "never"), c.getenv, false)
		}
		doc := render.Parse(n.Source)
		diagnostics = c.noteExtras(&opt, n, doc, c.bool("images"), opt.Width)
		page := render.Layout(doc, opt)
		out = ansi.Encode(page.Lines, opt.Level)
		diagnostics = append(diagnostics, page.Diagnostics...)
	}
	if err := writeExport(c, out); err != nil {
		return err
	}
	if !c.bool("quiet") {
		for _, d := range append(n.Warnings, diagnostics...) {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(d))
		}
	}
	return nil
}

// writeExport writes the export to -o: stdout for "-", else a temporary
// sibling renamed over the target, so a failed export never leaves half a
// file.
func writeExport(c *invocation, data []byte) error {
	path := c.vals["output"]
	if path == "-" {
		w := bufio.NewWriter(c.stdio.Out)
		if _, err := w.Write(data); err != nil {
			return failf("could not export this note: %s", osReason(err))
		}
		if err := w.Flush(); err != nil {
			return failf("could not export this note: %s", osReason(err))
		}
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return failf("could not export this note: cannot write %s: %s", path, osReason(err))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return failf("could not export this note: cannot write %s: %s", path, osReason(err))
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return failf("could not export this note: cannot write %s: %s", path, osReason(err))
	}
	if err := tmp.Close(); err != nil {
		return failf("could not export this note: cannot write %s: %s", path, osReason(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return failf("could not export this note: cannot write %s: %s", path, osReason(err))
	}
	return nil
}
