package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/runtime/values"
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
	width := defaultWidth
	if f, ok := c.stdio.Out.(*os.File); ok && isTerminal(f) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			width = w
		}
	}
	width, err := c.positiveInt("width", width)
	if err != nil {
		return err
	}
	th, err := theme.ByName(c.str("theme", "dark"))
	if err != nil {
		return usagef("%s", err)
	}
	now := time.Now()
	if c.set["now"] {
		if now, err = time.Parse(time.RFC3339, c.vals["now"]); err != nil {
			return usagef("--now wants an RFC 3339 time such as 2026-01-02T15:04:05Z, not %q", c.vals["now"])
		}
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
		vals, err := exportValues(c, n)
		if err != nil {
			return err
		}
		level := colorLevel(c.str("color", "never"), os.Getenv, c.vals["output"] == "-" && isTerminal(c.stdio.Out))
		doc := render.Parse(n.Source)
		page := render.Layout(doc, render.Options{Width: width, Level: level, Theme: th, Values: vals, Now: now})
		out = ansi.Encode(page.Lines, level)
		diagnostics = page.Diagnostics
	}
	if err := writeExport(c, out); err != nil {
		return err
	}
	if !c.bool("quiet") {
		for _, d := range append(n.Warnings, diagnostics...) {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", oneLine(d))
		}
	}
	return nil
}

// exportValues returns --values when given, else the values stored on this
// device for the note.
func exportValues(c *invocation, n *note) (render.Values, error) {
	if c.set["values"] {
		return loadValues(c.vals["values"])
	}
	if n.Key == "" {
		return nil, nil
	}
	dir, err := stateDir()
	if err != nil {
		return nil, nil
	}
	snap := values.Load(state.Open(dir), n.Key)
	vals := make(render.Values, len(snap))
	for k, e := range snap {
		vals[k] = render.Entry{Value: e.Value, Status: render.Status(e.Status), FailureKind: e.FailureKind}
	}
	return vals, nil
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
