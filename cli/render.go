package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/internal/gctune"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/value"
)

// renderGCPercent is the garbage collector's target while a note is
// rendered a piece at a time: measured on 1 MB and 10 MB notes it saves
// 10–25% of the time for a peak heap still under 70 MB.
const renderGCPercent = 300

// emitBatch is how many lines runRender encodes before it writes them.
const emitBatch = 256

// defaultWidth is the layout width when stdout is not a terminal.
const defaultWidth = 80

// layoutFlags are the flags of the commands that lay a note out: render
// and view, and export with its own help.
type layoutFlags struct {
	width    countFlag
	color    choiceFlag
	theme    textFlag
	values   textFlag
	now      textFlag
	quiet    bool
	noEmoji  bool
	showURLs bool
}

// bind declares the layout flags of render and view.
func (o *layoutFlags) bind(fs *flagSet) {
	o.color.choices, o.width.max = colorChoices, config.MaxLayoutWidth
	fs.count(&o.width, flagSpec{name: "width", short: "w", value: "N", help: "layout width in columns (default: the terminal's up to the maxWidth setting, 120; else 80)"})
	fs.choice(&o.color, flagSpec{name: "color", short: "c", value: "WHEN", help: "auto, never, 16, 256 or truecolor (default auto)"})
	fs.text(&o.theme, flagSpec{name: "theme", short: "t", value: "NAME", help: "auto, dark, light, high-contrast or a theme file's name (default auto: the terminal's background, else dark; see --list-themes)", suggest: func(getenv func(string) string) []string { return append([]string{"auto"}, themeNames(getenv)...) }})
	fs.text(&o.values, flagSpec{name: "values", value: "FILE", help: "script values to show, a JSON object of name to value or entry"})
	fs.text(&o.now, flagSpec{name: "now", value: "TIME", help: "the time relative dates count from, RFC 3339 (default: the clock)"})
	fs.bool(&o.quiet, flagSpec{name: "quiet", help: "do not print diagnostics to stderr"})
	fs.bool(&o.noEmoji, flagSpec{name: "no-emoji", help: "keep emoji shortcodes such as :tada: as written"})
	fs.bool(&o.showURLs, flagSpec{name: "show-urls", help: "print every link's address after its text, as --color never does (also the showUrls setting)"})
}

// renderOptions are markii render's flags.
type renderOptions struct {
	layout layoutFlags
	run    bool
	images choiceFlag
	paging choiceFlag
	// verbose also names the note's signature status on stderr.
	verbose bool
	// notRunNotice, not a flag, asks a static render to say, when the
	// note has scripts, that they were not run (markii view on a pipe).
	notRunNotice bool
}

func (o *renderOptions) bind(fs *flagSet) {
	o.layout.bind(fs)
	o.images.choices = imageChoices
	o.paging.choices = config.PagingNames
	fs.bool(&o.run, flagSpec{name: "run", help: "first run the note's scripts unattended, with grants you already gave (never asks)"})
	fs.choice(&o.paging, pagingFlag)
	fs.bool(&o.verbose, flagSpec{name: "verbose", help: "also say on stderr whether the note is signed, and by whom (see markii verify)"})
	fs.choice(&o.images, flagSpec{name: "images", value: "HOW", help: "draw the note's own PNG, JPEG and GIF images at 256 colors or truecolor: blocks (half-block cells), kitty or iterm (real pixels through that terminal protocol), or off (default)"})
}

var renderCommand = commandOf(command{
	summary: "write a note to stdout for pipes and golden files",
	args:    "[FILE|-]",
	maxArgs: 1,
}, (*renderOptions).bind, runRender)

// runRender implements `markii render [FILE|-]`.
func runRender(c *invocation, o *renderOptions) error {
	if o.run && o.layout.values.set {
		return usagef("--run shows the values the run produced; it cannot be combined with --values")
	}
	n, opt, sig, err := c.renderInput(o)
	if err != nil {
		return err
	}
	dst, err := c.renderOutput(o.paging)
	if err != nil {
		return err
	}
	out := newLineWriter(dst, opt.Level)
	r, err := c.renderNote(o, n, opt, out.emit)
	if err != nil && !finishes(err) {
		return err
	}
	defer c.notRunNotice(o, r)
	if werr := finishOutput(r.writeErr, out, dst); werr != nil {
		return failf("cannot write the output: %s", osReason(werr))
	}
	c.renderReport(o, n, sig, r)
	return err
}

// renderInput reads the note to render and its layout options, and with
// --verbose its signature status, checked before the render, which lets
// go of the note's bytes. The note is read while the terminal is asked
// for its background.
func (c *invocation) renderInput(o *renderOptions) (n *note, opt render.Options, sig signature.Status, err error) {
	load := c.renderSource()
	if opt, err = c.layoutOptions(&o.layout, "auto", "auto"); err != nil {
		return nil, opt, sig, err
	}
	if n, err = load(); err != nil {
		return nil, opt, sig, err
	}
	if o.verbose {
		sig = c.noteSignature(n)
	}
	return n, opt, sig, nil
}

// notRunNotice says, last, that the scripts of a note rendered to a pipe
// were not run, when the settings ask for it.
func (c *invocation) notRunNotice(o *renderOptions, r rendered) {
	if o.notRunNotice && r.scripts > 0 {
		fmt.Fprintln(c.stdio.Err, "markii: scripts not run because the output is not a terminal; use markii run first")
	}
}

// renderReport says on stderr, after the output, the signature status
// with --verbose and the diagnostics unless --quiet.
func (c *invocation) renderReport(o *renderOptions, n *note, sig signature.Status, r rendered) {
	if o.verbose {
		fmt.Fprintf(c.stdio.Err, "markii: %s: %s\n", sanitize.Line(n.Name), sanitize.Line(sig.String()))
	}
	if !o.layout.quiet {
		c.printDiagnostics(append(n.Warnings, r.diagnostics...))
	}
}

// renderNote renders n to emit: whole for --run, --images and pack
// components, which need the whole note first, else a piece at a time.
func (c *invocation) renderNote(o *renderOptions, n *note, opt render.Options, emit func([]ansi.Line) error) (rendered, error) {
	if o.run || imageModeOf(o.images.or("off")).On || mayNamePackComponent(n.Source) {
		return c.renderWhole(o, n, opt, emit)
	}
	return c.renderChunks(n, opt, emit), nil
}

// finishOutput flushes out and closes dst after a render that stopped
// with writeErr, and returns the first error of the three.
func finishOutput(writeErr error, out *lineWriter, dst io.Closer) error {
	if writeErr == nil {
		writeErr = out.flush()
	}
	if cerr := dst.Close(); writeErr == nil {
		writeErr = cerr
	}
	return writeErr
}

// renderSource is the note render reads: the file or standard input
// named, else standard input when it is not a terminal, else the tour.
func (c *invocation) renderSource() func() (*note, error) {
	if len(c.args) > 0 {
		if c.args[0] == "-" && isTerminal(c.stdio.In) {
			// Typed at the terminal: say so, or the wait looks like a hang.
			fmt.Fprintln(c.stdio.Err, "markii: reading the note from the terminal; end it with Ctrl-D")
		}
		return loadNoteAsync(c.args[0], c.stdio.In)
	}
	if !isTerminal(c.stdio.In) {
		return loadNoteAsync("-", c.stdio.In)
	}
	return func() (*note, error) { return &note{Source: fixtures.Tour, Name: "tour"}, nil }
}

// rendered is what a render leaves to report: its diagnostics, how many
// scripts the note has, and the error that stopped the output.
type rendered struct {
	diagnostics []string
	scripts     int
	writeErr    error
}

// renderWhole parses the whole note before it lays it out: for --run,
// --images and pack components, which need the whole note first. A
// failed script or values that could not be saved come back as an error
// that finishes the output first.
func (c *invocation) renderWhole(o *renderOptions, n *note, opt render.Options, emit func([]ansi.Line) error) (rendered, error) {
	var r rendered
	doc := render.Parse(n.Source)
	// The signature covers the note's bytes: it is checked before they
	// are let go.
	var sig signature.Status
	if o.run && len(doc.Scripts) > 0 {
		sig = c.signatureStatus(n, runnable(n, doc), false)
	}
	n.Source = nil
	r.diagnostics = c.noteExtras(&opt, n, doc, imageModeOf(o.images.or("off")), opt.Width)
	r.scripts = len(doc.Scripts)
	var runErr error
	if o.run && len(doc.Scripts) > 0 {
		opt.Values, runErr = runBeforeRender(c, n, doc, sig)
		if runErr != nil && !finishes(runErr) {
			return r, runErr
		}
	}
	diags, err := render.Stream(doc, opt, emit)
	r.diagnostics, r.writeErr = append(r.diagnostics, diags...), err
	return r, runErr
}

// renderChunks parses, lays out and writes the note a piece at a time,
// so only a sliver of a long note's parse is ever in memory; with a live
// heap that small, collecting less often is a clear win.
func (c *invocation) renderChunks(n *note, opt render.Options, emit func([]ansi.Line) error) rendered {
	defer gctune.Percent(renderGCPercent)()
	var r rendered
	var s *render.Streamer
	r.writeErr = render.ParseChunks(n.Source, func(doc *render.Document) error {
		if s == nil {
			r.diagnostics = c.noteExtras(&opt, n, doc, imageMode{}, opt.Width)
			s = render.NewStreamer(opt, emit)
		}
		r.scripts += len(doc.Scripts)
		return s.Add(doc)
	})
	n.Source = nil
	r.diagnostics = append(r.diagnostics, s.Diagnostics()...)
	return r
}

// printDiagnostics prints each diagnostic as one line on stderr.
func (c *invocation) printDiagnostics(diags []string) {
	for _, d := range diags {
		fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(d))
	}
}

// lineWriter encodes laid-out lines at one color level and writes them
// through a buffer.
type lineWriter struct {
	w     *bufio.Writer
	level ansi.Level
	enc   ansi.Encoder
	buf   []byte
}

func newLineWriter(w io.Writer, level ansi.Level) *lineWriter {
	return &lineWriter{w: bufio.NewWriterSize(w, 64<<10), level: level}
}

// emit writes lines. A block's lines are encoded a batch at a time, so
// that a note of one long paragraph does not grow the buffer to the size
// of its output.
func (lw *lineWriter) emit(lines []ansi.Line) error {
	for len(lines) > 0 {
		n := min(len(lines), emitBatch)
		lw.buf = lw.enc.AppendLines(lw.buf[:0], lines[:n], lw.level)
		lines = lines[n:]
		if _, err := lw.w.Write(lw.buf); err != nil {
			return err
		}
	}
	return nil
}

// flush writes what is buffered.
func (lw *lineWriter) flush() error { return lw.w.Flush() }

// layoutOptions reads the layout flags every command that draws a note
// shares: --width (default: the terminal's width when stdout is a
// terminal, at most the settings' width cap, else 80), --color (default
// defColor), --theme (default defTheme), --now and --values.
func (c *invocation) layoutOptions(o *layoutFlags, defColor, defTheme string) (render.Options, error) {
	outTTY := isTerminal(c.stdio.Out)
	opt := render.Options{
		Level:    colorLevel(o.color.or(defColor), c.getenv, outTTY),
		Now:      time.Now(),
		Width:    o.width.or(c.terminalWidth(outTTY)),
		NoEmoji:  o.noEmoji,
		ShowURLs: o.showURLs || c.startSettings.ShowURLs,
	}
	var err error
	dark := func() bool { return terminalIsDark(c.stdio.Out.(*os.File)) }
	if opt.Theme, err = c.loadTheme(themeName(o.theme.or(defTheme), outTTY, dark)); err != nil {
		return opt, err
	}
	if o.now.set {
		if opt.Now, err = time.Parse(time.RFC3339, o.now.value); err != nil {
			return opt, usagef("--now wants an RFC 3339 time such as 2026-01-02T15:04:05Z, not %q", o.now.value)
		}
	}
	if o.values.set {
		if opt.Values, err = loadValues(o.values.value); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// terminalWidth is the layout width when none is given: the terminal's,
// at most the settings' width cap, when stdout is one, else 80.
func (c *invocation) terminalWidth(outTTY bool) int {
	if f, ok := c.stdio.Out.(*os.File); ok && outTTY {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return min(w, c.startSettings.WidthCap())
		}
	}
	return defaultWidth
}

// runBeforeRender runs doc's scripts for `markii render --run` (sig is
// the note's signature status, for the audit trail): at the auto
// tier, so it never asks and reaches only hosts granted by hand for exactly
// this code, and read-only. It returns the values to draw (what this device
// now stores for the note, or the run's own outcomes for a note without
// identity). When a script failed, after saying which on stderr, or the
// values could not be saved, the values come with an exit-2 or exit-1
// error that lets the note be written first (finishes); any other error
// means there is nothing to draw.
func runBeforeRender(c *invocation, n *note, doc *render.Document, sig signature.Status) (value.Values, error) {
	svc, err := c.runService(n)
	if err != nil {
		return nil, err
	}
	rn := runnable(n, doc)
	res, err := svc.Run(context.Background(), run.Request{
		Note: rn, Trigger: script.Auto, Notices: c.stdio.Err,
		Signature: sig, Origin: "render --run",
	})
	if errors.Is(err, run.ErrScriptsDisabled) {
		fmt.Fprintf(c.stdio.Err, "markii: %s\n", err)
		return c.storedValues(n), nil
	}
	if res == nil {
		return nil, notStarted(err)
	}
	if err != nil {
		return nil, failf("the scripts could not run: %w", err)
	}
	failed := reportFailures(c.stdio.Err, res.Outcomes, false)
	vals := value.Values{}
	if n.Key != "" {
		vals = c.storedValues(n)
	} else {
		for _, o := range res.Outcomes {
			vals[o.Name] = entryOf(o)
		}
	}
	if err := saveFailure(res); err != nil {
		return vals, finishing(err)
	}
	if failed > 0 {
		return vals, &exitError{code: ExitScripts, finish: true}
	}
	return vals, nil
}

// entryOf is the value entry a run's outcome makes, before it is merged
// with what was stored.
func entryOf(o script.Outcome) value.Entry {
	if o.Kind == value.Ok {
		return value.Entry{Value: o.Value, Status: value.Fresh}
	}
	return value.Entry{Status: value.Error, FailureKind: o.Kind}
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
