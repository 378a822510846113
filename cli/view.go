package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/markii/markii/internal/gctune"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/snapshot"
	"github.com/markii/markii/value"
	"github.com/markii/markii/viewer"
)

// viewOptions are markii view's flags: render's, which a view that is
// not full-screen hands on, and the viewer's own.
type viewOptions struct {
	render  renderOptions
	static  bool
	noRun   bool
	verbose bool
	mouse   bool
	// keys and height: print the viewer's screen after a key script.
	keys   textFlag
	height countFlag
}

func (o *viewOptions) bind(fs *flagSet) {
	o.render.layout.bind(fs)
	o.render.images.choices = imageChoices
	fs.bool(&o.render.run, flagSpec{name: "run", help: "run the note's scripts unattended when the viewer opens, with grants you already gave (never asks)"})
	fs.choice(&o.render.images, flagSpec{name: "images", value: "HOW", help: "blocks (default: the note's own images as half-block cells at 256 colors or truecolor; kitty and iterm draw as blocks in the viewer) or off; on a pipe, as markii render (default off)"})
	fs.bool(&o.static, flagSpec{name: "static", help: "write the note like markii render even on a terminal"})
	fs.bool(&o.noRun, flagSpec{name: "no-run", help: "never run the note's scripts from the viewer"})
	fs.bool(&o.verbose, flagSpec{name: "verbose", help: "print run diagnostics after the viewer closes"})
	fs.bool(&o.mouse, flagSpec{name: "mouse", help: "let the mouse wheel scroll (the terminal then selects text only with Shift held)"})
	fs.alias("no-images", &o.render.images, "images", "off")
	fs.text(&o.keys, flagSpec{name: "keys", value: "SCRIPT", help: "press these keys in the viewer, run without a terminal at --width by --height, print its final screen and exit (keys such as Tab Enter Esc Down ctrl+f /word; see markii snapshot)"})
	o.height.max = 1000
	fs.count(&o.height, flagSpec{name: "height", value: "N", help: "with --keys: the screen's height in rows (default 24)"})
}

var viewCommand = commandOf(command{
	summary: "read a note full-screen: scroll, search, tabs, folds and script runs",
	args:    "[FILE...|DIR|-]",
	maxArgs: maxViewFiles,
}, (*viewOptions).bind, runView)

// maxViewFiles is how many notes `markii view` takes at once.
const maxViewFiles = 100

// viewMode is how markii view shows what it was given.
type viewMode int

const (
	// viewScreen is the full-screen viewer on a note or a library.
	viewScreen viewMode = iota
	// viewPiped is the full-screen viewer on a note piped in: the note is
	// read from standard input and the keys from the terminal, as less
	// does.
	viewPiped
	// viewStatic writes the note exactly as markii render does.
	viewStatic
	// viewList prints a library's notes, one a line.
	viewList
)

// runView implements `markii view [FILE...|DIR|-]`: the full-screen viewer
// on a terminal, and exactly `markii render` anywhere else (of each note
// in turn). A folder that is not a bundle is a library: the viewer lists
// its notes. Several notes are read one at a time, :n and :p between them.
func runView(c *invocation, o *viewOptions) error {
	if o.keys.set {
		return runViewScreen(c, o)
	}
	if o.height.set {
		return usagef("--height is the screen's height for --keys")
	}
	if _, err := viewFiles(c.args); err != nil {
		return err
	}
	mode, lib, err := c.viewMode(o)
	if err != nil {
		return err
	}
	switch mode {
	case viewList:
		return writeLibrary(c.stdio.Out, lib)
	case viewStatic:
		ro := o.render
		ro.notRunNotice = !o.noRun && !o.static
		return renderEach(c, &ro)
	}
	return c.runViewer(o, lib, mode == viewPiped)
}

// viewMode chooses how view shows its argument: full-screen when both
// standard input (or, for a piped note, the terminal) and standard
// output are terminals and --static is not given, else as render does,
// or as a list for a library. lib is the library the argument names, if
// it names one.
func (c *invocation) viewMode(o *viewOptions) (viewMode, *viewer.Library, error) {
	lib, err := c.viewLibrary()
	if err != nil {
		return 0, nil, err
	}
	mode := c.screenMode(o.static, lib == nil)
	if mode == viewStatic && lib != nil {
		mode = viewList
	}
	return mode, lib, nil
}

// viewLibrary is the library the argument names, nil when it names none.
func (c *invocation) viewLibrary() (*viewer.Library, error) {
	if len(c.args) == 0 || !isLibrary(c.args[0]) {
		return nil, nil
	}
	lib, err := viewer.ScanLibrary(c.args[0], viewer.DefaultLibraryLimits)
	if err != nil {
		return nil, failf("cannot read %s: %s", c.args[0], osReason(err))
	}
	c.signLibrary(lib)
	return lib, nil
}

// screenMode is viewScreen when both standard input (or, for a note
// piped in, the terminal) and standard output are terminals and static
// is not asked for, viewPiped for a note piped in, else viewStatic;
// notes says the arguments name notes, not a library.
func (c *invocation) screenMode(static, notes bool) viewMode {
	inTTY := isTerminal(c.stdio.In)
	piped := notes && (len(c.args) == 0 || c.args[0] == "-") && !inTTY
	switch {
	case static || (!inTTY && !piped) || !isTerminal(c.stdio.Out):
		return viewStatic
	case piped:
		return viewPiped
	}
	return viewScreen
}

// runViewer runs the full-screen viewer on lib, or else on the note
// given (the tour when none is).
func (c *invocation) runViewer(o *viewOptions, lib *viewer.Library, piped bool) error {
	viewer.WarmUp()
	// The note is read while the terminal is asked for its background.
	var load func() (*note, error)
	if lib == nil {
		load = c.renderSource()
	}
	s, opt, err := c.viewerOptions(o, lib)
	if err != nil {
		return err
	}
	if opt.Files, err = viewFiles(c.args); err != nil {
		return err
	}
	keys := c.stdio.In
	if lib == nil {
		tty, err := c.readViewerNote(s, &opt, load, piped)
		if err != nil {
			return err
		}
		if tty != nil {
			defer tty.Close()
			keys = tty
		}
	}
	defer c.fitMemory(&opt)()
	res, err := viewer.Run(opt, keys, c.stdio.Out.(*os.File))
	if err != nil {
		return failf("%w", err)
	}
	reportView(c.stdio.Err, res, o.render.layout.quiet, o.verbose)
	return nil
}

// readViewerNote reads the note load gives into opt, and for a note piped
// in opens the terminal the keys come from (the caller closes it).
func (c *invocation) readViewerNote(s *viewSession, opt *viewer.Options, load func() (*note, error), piped bool) (tty *os.File, err error) {
	n, err := load()
	if err != nil {
		return nil, err
	}
	if piped {
		if tty, err = openTerminal(); err != nil {
			return nil, failf("cannot read keys for the viewer: %s; markii render - writes a piped note without one", err)
		}
	}
	var problem error
	opt.Note, opt.Runner, problem = s.note(n)
	if problem != nil {
		// Shown on the terminal's own screen, under the viewer's.
		fmt.Fprintf(c.stdio.Err, "markii: the note's scripts will not run: %s\n", sanitize.Line(problem.Error()))
	}
	return tty, nil
}

// fitMemory sets the viewer's memory limit, fitted to its page when it
// opens on a note, and returns what restores the process's own.
func (c *invocation) fitMemory(opt *viewer.Options) (restore func()) {
	if opt.Note == nil {
		return func() {}
	}
	memory, restore := gctune.ForViewer(len(opt.Note.Source), c.getenv)
	opt.Memory = memory
	return restore
}

// viewerOptions builds the viewer's options from the flags and the
// settings, and the session that makes each note it shows.
func (c *invocation) viewerOptions(o *viewOptions, lib *viewer.Library) (*viewSession, viewer.Options, error) {
	layout, err := c.layoutOptions(&o.render.layout, "auto", "auto")
	if err != nil {
		return nil, viewer.Options{}, err
	}
	settings, err := c.settings()
	if err != nil {
		return nil, viewer.Options{}, failf("%w", err)
	}
	s := &viewSession{c: c, layout: layout, settings: settings, givenValues: o.render.layout.values.set, noRun: o.noRun,
		pictures: viewPictures{c: c, on: imageModeOf(o.render.images.or("blocks")).On, level: layout.Level, theme: layout.Theme}}
	s.packs, s.packWarnings = c.installedPacks()
	opt := viewer.Options{
		Level:           layout.Level,
		Theme:           layout.Theme,
		Width:           layout.Width,
		FixedWidth:      o.render.layout.width.set,
		ShowURLs:        layout.ShowURLs,
		NoEmoji:         layout.NoEmoji,
		MaxWidth:        c.startSettings.WidthCap(),
		Load:            s.pictures.load,
		Packs:           s.packs,
		Watch:           true,
		ScriptsDisabled: settings.ScriptsDisabled,
		RunOnOpen:       settings.RunOnOpen || o.render.run,
		RefreshInterval: time.Duration(settings.RefreshIntervalSeconds) * time.Second,
		Editor:          editorCommand(c.getenv),
		Library:         lib,
		Open:            s.open,
		Mouse:           settings.Mouse || o.mouse,
	}
	if o.render.layout.now.set {
		now := layout.Now
		opt.Now = func() time.Time { return now }
	}
	if settings.OpenLinksInBrowser {
		opt.OpenBrowser = openBrowser
	}
	return s, opt, nil
}

// viewFiles checks the notes named on the command line when there are
// several, each a file (not a folder's list or standard input), and
// returns their absolute paths; nil for one note or none.
func viewFiles(args []string) ([]string, error) {
	if len(args) < 2 {
		return nil, nil
	}
	files := make([]string, len(args))
	for i, a := range args {
		if a == "-" || isLibrary(a) {
			return nil, usagef("markii view reads several notes, or one folder or -, not both: %s", sanitize.Line(a))
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, failf("cannot read %s: %s", sanitize.Line(a), osReason(err))
		}
		files[i] = abs
	}
	return files, nil
}

// renderEach renders the notes named on the command line one after the
// other, as markii render does each; the first failure stops.
func renderEach(c *invocation, o *renderOptions) error {
	args := c.args
	if len(args) < 2 {
		return runRender(c, o)
	}
	defer func() { c.args = args }()
	for _, a := range args {
		c.args = []string{a}
		if err := runRender(c, o); err != nil {
			return err
		}
	}
	return nil
}

// openTerminal opens the controlling terminal to read keys from when
// standard input is the note.
func openTerminal() (*os.File, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("there is no terminal to read them from (/dev/tty: %s)", osReason(err))
	}
	if !isTerminal(f) {
		f.Close()
		return nil, errors.New("/dev/tty is not a terminal")
	}
	return f, nil
}

// isLibrary reports whether path is a folder that is not a bundle (it
// has no manifest.json): a folder of notes.
func isLibrary(path string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.IsDir() {
		return false
	}
	_, err = os.Lstat(filepath.Join(path, bundle.ManifestName))
	return errors.Is(err, fs.ErrNotExist)
}

// writeLibrary prints a library's notes, one a line: the path below the
// folder, a tab and the title, both made inert.
func writeLibrary(w io.Writer, lib *viewer.Library) error {
	bw := bufio.NewWriter(w)
	for _, e := range lib.Entries {
		line := sanitize.Line(e.Rel)
		if e.Title != "" {
			line += "\t" + sanitize.Line(e.Title)
		}
		line += "\t" + sanitize.Line(viewer.LibrarySignature(e.Signature))
		bw.WriteString(line + "\n")
	}
	if err := bw.Flush(); err != nil {
		return failf("cannot write the list: %s", osReason(err))
	}
	return nil
}

// viewSession makes what the viewer needs for each note it shows as its
// own, the one it was started on or one picked from a library: the
// note with its stored values, pictures and pack warnings, and the runner
// of its scripts.
type viewSession struct {
	c            *invocation
	layout       render.Options
	settings     config.Settings
	pictures     viewPictures
	packs        map[string]string
	packWarnings []string
	// givenValues says --values was given: its values are shown instead
	// of the stored ones; noRun is --no-run.
	givenValues bool
	noRun       bool
}

// note returns n as the viewer shows it and the runner of its scripts;
// problem says why its scripts cannot run (the runner is then nil).
func (s *viewSession) note(n *note) (vn *viewer.Note, runner viewer.Runner, problem error) {
	vn = s.c.viewerNote(n)
	s.pictures.add(vn, n)
	vn.Diagnostics = append(vn.Diagnostics, s.packWarnings...)
	if s.givenValues {
		vn.Values = s.layout.Values
	}
	if s.noRun {
		return vn, nil, nil
	}
	svc, err := s.c.runService(n)
	if err != nil {
		return vn, nil, err
	}
	return vn, &noteRunner{service: svc, path: n.Path, source: n.Source, signature: func(n *note, rn run.Note) signature.Status {
		return s.c.signatureStatus(n, rn, false)
	}}, nil
}

// open implements viewer.Opener for a library's notes.
func (s *viewSession) open(path string) (*viewer.Note, viewer.Runner, error) {
	n, err := loadNote(filepath.Clean(path), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%s", sanitize.Line(err.Error()))
	}
	vn, runner, problem := s.note(n)
	if problem != nil {
		vn.Diagnostics = append(vn.Diagnostics, "the note's scripts will not run: "+sanitize.Line(problem.Error()))
	}
	return vn, runner, nil
}

// editorCommand is the reader's editor as less finds it: $VISUAL, else
// $EDITOR, else vi; a value may carry arguments ("code -w").
func editorCommand(getenv func(string) string) []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(getenv(v)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// reportView prints, once the terminal is back, what markii view has to
// say about the session — only with --verbose: render diagnostics (unless
// --quiet), each script that failed in the last run with its message, and
// the host's notices. Leaving the viewer is quiet otherwise: the reader
// saw all of it in the viewer (the status bar and the D pane), and a
// script that failed or was declined is not a failure of markii, so the
// exit code stays 0.
func reportView(w io.Writer, res *viewer.Result, quiet, verbose bool) {
	if !verbose {
		return
	}
	if !quiet {
		for _, d := range res.Diagnostics {
			fmt.Fprintf(w, "markii: %s\n", sanitize.Line(d))
		}
	}
	for _, o := range res.Outcomes {
		if o.Outcome.Kind == value.Ok {
			continue
		}
		fmt.Fprintf(w, "markii: script %q failed (%s)\n", sanitize.Line(o.Script), failure(o.Outcome))
		if o.Outcome.Detail != "" {
			fmt.Fprintf(w, "markii: %s: %s\n", sanitize.Line(o.Script), sanitize.Line(o.Outcome.Detail))
		}
	}
	for _, n := range res.Notices {
		fmt.Fprintf(w, "markii: %s\n", sanitize.Line(n))
	}
}

// viewerNote turns a loaded note into the viewer's plain form, with the
// values stored on this device.
func (c *invocation) viewerNote(n *note) *viewer.Note {
	vn := &viewer.Note{Name: n.Name, Path: n.Path, Source: n.Source, Diagnostics: n.Warnings}
	if n.Path != "" {
		vn.Watch = []string{n.Path}
	}
	vn.Values = c.storedValues(n)
	vn.Signature = c.noteSignature(n)
	return vn
}

// askerPrompter answers grant questions with the viewer's in-viewer
// dialog.
type askerPrompter struct {
	ctx context.Context
	ask viewer.Asker
}

// Ask implements grants.Prompter.
func (a askerPrompter) Ask(question string) (bool, error) {
	if a.ask == nil {
		return false, nil
	}
	return a.ask(a.ctx, question)
}

// noteRunner runs the open note's scripts for the viewer. It reads the
// note again at the start of each run, so the closure key is always that
// of the code on disk.
type noteRunner struct {
	service *run.Service
	path    string
	// source is the note's text as opened: run as is for a note with no
	// file (the tour), and looked through for scripts by Prepare.
	source []byte
	// signature checks the note's signature for the audit trail; nil
	// records none.
	signature func(*note, run.Note) signature.Status
}

// Prepare implements viewer.Preparer: for a note that may hold scripts it
// starts a confined worker, idle by the time the reader presses r. The
// viewer calls it after the first frame, so neither the look for scripts
// (a pass over a long note) nor the worker's start delays that frame.
func (r *noteRunner) Prepare() {
	if render.MayHaveScripts(r.source) {
		r.service.Prepare()
	}
}

// Run implements viewer.Runner.
func (r *noteRunner) Run(ctx context.Context, trigger script.Trigger, ask viewer.Asker, report func(viewer.Progress)) error {
	n := &note{Source: r.source, Name: "tour"}
	if r.path != "" {
		var err error
		if n, err = loadNote(r.path, nil); err != nil {
			return err
		}
	}
	var notices bytes.Buffer
	rn := runnable(n, render.Parse(n.Source))
	var sig signature.Status
	if r.signature != nil {
		sig = r.signature(n, rn)
	}
	res, err := r.service.Run(ctx, run.Request{
		Note:      rn,
		Signature: sig,
		Origin:    "view",
		Trigger:   trigger,
		Prompter:  askerPrompter{ctx, ask},
		Notices:   &notices,
		OnPlan: func(plan run.Plan) {
			for _, d := range plan.Diagnostics {
				report(viewer.Progress{Kind: viewer.ProgressNotice, Notice: d})
			}
			if notices.Len() > 0 {
				report(viewer.Progress{Kind: viewer.ProgressNotice, Notice: sanitize.Line(notices.String())})
			}
			report(viewer.Progress{Kind: viewer.ProgressPlan, Scripts: plan.Scripts})
		},
		OnOutcome: func(o script.Outcome) {
			report(viewer.Progress{Kind: viewer.ProgressDone, Script: o.Name, Outcome: o})
		},
	})
	if res == nil {
		return err
	}
	if err := saveFailure(res); err != nil {
		report(viewer.Progress{Kind: viewer.ProgressNotice, Notice: sanitize.Line(err.Error())})
	}
	if err != nil {
		return fmt.Errorf("the scripts could not run: %w", err)
	}
	return nil
}

// runViewScreen implements `markii view --keys SCRIPT`: the viewer's final
// screen after the key script, printed once, as a viewer snapshot is made
// (theme dark unless --theme; scripts never run).
func runViewScreen(c *invocation, o *viewOptions) error {
	path := "-"
	if len(c.args) > 1 {
		return usagef("--keys shows one note")
	}
	if len(c.args) > 0 {
		path = c.args[0]
	}
	height := o.height.or(snapshot.DefaultHeight)
	if height > 1000 || height < 2 {
		return usagef("--height wants 2 to 1000 rows, not %d", height)
	}
	if _, err := viewer.ParseKeys(o.keys.value); err != nil {
		return usagef("--keys: %v", err)
	}
	opt, err := c.layoutOptions(&o.render.layout, "auto", "dark")
	if err != nil {
		return err
	}
	n, err := loadNote(path, c.stdio.In)
	if err != nil {
		return err
	}
	screen, err := snapshot.Screen(n, opt, height, o.keys.value)
	if err != nil {
		return failf("%v", err)
	}
	if _, err := c.stdio.Out.Write(append(screen, '\n')); err != nil {
		return failf("cannot write the screen: %s", osReason(err))
	}
	return nil
}
