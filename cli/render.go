package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/sanitize"
)

// renderGCPercent is the garbage collector's target while a note is
// rendered a piece at a time: measured on 1 MB and 10 MB notes it saves
// 10–25% of the time for a peak heap still under 70 MB.
const renderGCPercent = 300

// emitBatch is how many lines runRender encodes before it writes them.
const emitBatch = 256

// defaultWidth is the layout width when stdout is not a terminal.
const defaultWidth = 80

// layoutFlags are the flags of the commands that lay a note out for a
// terminal: render and view.
var layoutFlags = []flagSpec{
	{name: "width", short: "w", value: "N", help: "layout width in columns (default: the terminal's up to the maxWidth setting, 120; else 80)"},
	{name: "color", short: "c", value: "WHEN", help: "auto, never, 16, 256 or truecolor (default auto)", choices: colorChoices},
	{name: "theme", short: "t", value: "NAME", help: "auto, dark, light, high-contrast or a theme file's name (default auto: the terminal's background, else dark; see --list-themes)", suggest: func() []string { return append([]string{"auto"}, themeNames()...) }},
	{name: "values", value: "FILE", help: "script values to show, a JSON object of name to value or entry"},
	{name: "now", value: "TIME", help: "the time relative dates count from, RFC 3339 (default: the clock)"},
	{name: "quiet", isBool: true, help: "do not print diagnostics to stderr"},
	{name: "no-emoji", isBool: true, help: "keep emoji shortcodes such as :tada: as written"},
	{name: "show-urls", isBool: true, help: "print every link's address after its text, as --color never does (also the showUrls setting)"},
}

var renderCommand = &command{
	summary: "write a note to stdout for pipes and golden files",
	args:    "[FILE|-]",
	maxArgs: 1,
	flags: append(slices.Clone(layoutFlags),
		flagSpec{name: "run", isBool: true, help: "first run the note's scripts unattended, with grants you already gave (never asks)"},
		flagSpec{name: "images", value: "HOW", help: "draw the note's own PNG, JPEG and GIF images at 256 colors or truecolor: blocks (half-block cells), kitty or iterm (real pixels through that terminal protocol), or off (default)", choices: imageChoices},
	),
	run: runRender,
}

// runRender implements `markii render [FILE|-]`.
func runRender(c *invocation) error {
	if c.bool("run") && c.set["values"] {
		return usagef("--run shows the values the run produced; it cannot be combined with --values")
	}
	path := "-"
	if len(c.args) > 0 {
		path = c.args[0]
	}
	// The note is read while the terminal is asked for its background.
	load := func() (*note, error) { return &note{Source: fixtures.Tour, Name: "tour"}, nil }
	if len(c.args) > 0 || !isTerminal(c.stdio.In) {
		load = loadNoteAsync(path, c.stdio.In)
	}
	opt, err := c.layoutOptions("auto", "auto")
	if err != nil {
		return err
	}
	level := opt.Level

	var warnings []string
	n, err := load()
	if err != nil {
		return err
	}
	warnings = n.Warnings
	w := bufio.NewWriterSize(c.stdio.Out, 64<<10)
	var buf []byte
	var enc ansi.Encoder
	// A block's lines are encoded a batch at a time, so that a note of
	// one long paragraph does not grow buf to the size of its output.
	emit := func(lines []ansi.Line) error {
		for len(lines) > 0 {
			n := min(len(lines), emitBatch)
			buf = enc.AppendLines(buf[:0], lines[:n], level)
			lines = lines[n:]
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
	var diags []string
	var scriptsFailed error
	scripts := 0
	if c.bool("run") || c.imagesFlag("off").on || mayNamePackComponent(n.Source) {
		doc := render.Parse(n.Source)
		n.Source = nil
		warnings = append(warnings, c.noteExtras(&opt, n, doc, c.imagesFlag("off"), opt.Width)...)
		scripts = len(doc.Scripts)
		if c.bool("run") && len(doc.Scripts) > 0 {
			opt.Values, scriptsFailed, err = runBeforeRender(c, n, doc)
			if err != nil {
				return err
			}
		}
		diags, err = render.Stream(doc, opt, emit)
	} else {
		// The note is parsed, laid out and written a piece at a time, so
		// only a sliver of a long note's parse is ever in memory; with a
		// live heap that small, collecting less often is a clear win.
		defer debug.SetGCPercent(debug.SetGCPercent(renderGCPercent))
		var s *render.Streamer
		err = render.ParseChunks(n.Source, func(doc *render.Document) error {
			if s == nil {
				warnings = append(warnings, c.noteExtras(&opt, n, doc, imageMode{}, opt.Width)...)
				s = render.NewStreamer(opt, emit)
			}
			scripts += len(doc.Scripts)
			return s.Add(doc)
		})
		n.Source = nil
		diags = s.Diagnostics()
	}
	if c.notRunNotice && scripts > 0 {
		defer fmt.Fprintln(c.stdio.Err, "markii: scripts not run because the output is not a terminal; use markii run first")
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return failf("cannot write the output: %s", osReason(err))
	}
	if !c.bool("quiet") {
		for _, d := range append(warnings, diags...) {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(d))
		}
	}
	return scriptsFailed
}

// layoutOptions reads the layout flags every command that draws a note
// shares: --width (default: the terminal's width when stdout is a
// terminal, at most the settings' width cap, else 80), --color (default
// defColor), --theme (default defTheme), --now and --values.
func (c *invocation) layoutOptions(defColor, defTheme string) (render.Options, error) {
	outTTY := isTerminal(c.stdio.Out)
	width := defaultWidth
	if f, ok := c.stdio.Out.(*os.File); ok && outTTY {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			width = min(w, c.startSettings.WidthCap())
		}
	}
	opt := render.Options{Level: colorLevel(c.str("color", defColor), c.getenv, outTTY), Now: time.Now()}
	var err error
	opt.NoEmoji = c.bool("no-emoji")
	opt.ShowURLs = c.bool("show-urls") || c.startSettings.ShowURLs
	if opt.Width, err = c.positiveInt("width", width); err != nil {
		return opt, err
	}
	dark := func() bool { return terminalIsDark(c.stdio.Out.(*os.File)) }
	if opt.Theme, err = loadTheme(themeName(c.str("theme", defTheme), outTTY, dark)); err != nil {
		return opt, err
	}
	if c.set["now"] {
		if opt.Now, err = time.Parse(time.RFC3339, c.vals["now"]); err != nil {
			return opt, usagef("--now wants an RFC 3339 time such as 2026-01-02T15:04:05Z, not %q", c.vals["now"])
		}
	}
	if c.set["values"] {
		if opt.Values, err = loadValues(c.vals["values"]); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// runBeforeRender runs doc's scripts for `markii render --run`: at the auto
// tier, so it never asks and reaches only hosts granted by hand for exactly
// this code, and read-only. It returns the values to draw (what this device
// now stores for the note, or the run's own outcomes for a note without
// identity), and an exit-2 error when a script failed, after saying which
// on stderr, or an exit-1 error when the values could not be saved.
func runBeforeRender(c *invocation, n *note, doc *render.Document) (render.Values, error, error) {
	svc, err := c.runService(n)
	if err != nil {
		return nil, nil, err
	}
	res, err := svc.Run(context.Background(), run.Request{
		Note: runnable(n, doc), Trigger: script.Auto, Notices: c.stdio.Err,
	})
	if errors.Is(err, run.ErrScriptsDisabled) {
		fmt.Fprintf(c.stdio.Err, "markii: %s\n", err)
		return c.storedValues(n), nil, nil
	}
	if res == nil {
		return nil, nil, notStarted(err)
	}
	if err != nil {
		return nil, nil, failf("the scripts could not run: %v", err)
	}
	failed := reportFailures(c, res.Outcomes)
	vals := render.Values{}
	if n.Key != "" {
		vals = c.storedValues(n)
	} else {
		for _, o := range res.Outcomes {
			vals[o.Name] = entryOf(o)
		}
	}
	if err := saveFailure(res); err != nil {
		return vals, err, nil
	}
	if failed > 0 {
		return vals, &exitError{code: ExitScripts}, nil
	}
	return vals, nil, nil
}

// entryOf is the value entry a run's outcome makes, before it is merged
// with what was stored.
func entryOf(o script.Outcome) render.Entry {
	if o.Kind == script.Ok {
		return render.Entry{Value: o.Value, Status: render.Fresh}
	}
	return render.Entry{Status: render.Error, FailureKind: o.Kind}
}

// mayNamePackComponent reports whether src could hold a directive whose
// name has an underscore, the mark of a pack component: a colon followed
// by a name that contains '_'. Such notes are parsed whole, so that the
// installed packs are read before the first block is laid out.
func mayNamePackComponent(src []byte) bool {
	for i := bytes.IndexByte(src, ':'); i >= 0; {
		j := i + 1
		for j < len(src) && (isNameByte(src[j]) || src[j] == ':') {
			if src[j] == '_' {
				return true
			}
			j++
		}
		k := bytes.IndexByte(src[j:], ':')
		if k < 0 {
			return false
		}
		i = j + k
	}
	return false
}

// isNameByte reports whether c can appear in a directive name.
func isNameByte(c byte) bool {
	return c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
