package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/markii/markii/fixtures"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/isolate"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/viewer"
)

var viewCommand = &command{
	summary: "read a note full-screen: scroll, search, tabs, folds and script runs",
	args:    "[FILE|-]",
	maxArgs: 1,
	run:     runView,
}

func init() {
	viewCommand.flags = append(append([]flagSpec{}, renderCommand.flags...),
		flagSpec{name: "static", isBool: true, help: "write the note like markii render even on a terminal"},
		flagSpec{name: "no-run", isBool: true, help: "never run the note's scripts from the viewer"},
		flagSpec{name: "verbose", isBool: true, help: "print run diagnostics after the viewer closes"},
		flagSpec{name: "no-images", isBool: true, help: "show images as text in the viewer (they are drawn by default at 256 colors or truecolor)"},
	)
}

// runView implements `markii view [FILE]`: the full-screen viewer on a
// terminal, and exactly `markii render` anywhere else.
func runView(c *invocation) error {
	if c.bool("static") || !isTerminal(c.stdio.In) || !isTerminal(c.stdio.Out) {
		c.notRunNotice = !c.bool("no-run") && !c.bool("static")
		return runRender(c)
	}
	out := c.stdio.Out.(*os.File)
	layout, err := c.layoutOptions("auto", "auto")
	if err != nil {
		return err
	}
	// With no file, the viewer shows the built-in tour.
	n := &note{Source: fixtures.Tour, Name: "tour"}
	if len(c.args) > 0 {
		if n, err = loadNote(c.args[0], c.stdio.In); err != nil {
			return err
		}
	}
	first := c.viewerNote(n)
	pictures := viewPictures{c: c, on: !c.bool("no-images"), level: layout.Level, theme: layout.Theme}
	pictures.add(first, n)
	packs, packWarnings := c.installedPacks()
	first.Diagnostics = append(first.Diagnostics, packWarnings...)
	if c.set["values"] {
		first.Values = layout.Values
	}
	settings, err := c.settings()
	if err != nil {
		return failf("%v", err)
	}
	opt := viewer.Options{
		Note:            first,
		Level:           layout.Level,
		Theme:           layout.Theme,
		Width:           layout.Width,
		FixedWidth:      c.set["width"],
		MaxWidth:        c.startSettings.WidthCap(),
		Load:            pictures.load,
		Packs:           packs,
		Watch:           true,
		ScriptsDisabled: settings.ScriptsDisabled,
		RunOnOpen:       settings.RunOnOpen,
		RefreshInterval: time.Duration(settings.RefreshIntervalSeconds) * time.Second,
		Editor:          editorCommand(os.Getenv),
	}
	if settings.OpenLinksInBrowser {
		opt.OpenBrowser = openBrowser
	}
	svc, err := c.runService(n)
	if err != nil && !c.bool("no-run") {
		// Shown on the terminal's own screen, under the viewer's.
		fmt.Fprintf(c.stdio.Err, "markii: the note's scripts will not run: %s\n", sanitize.Line(err.Error()))
	}
	if svc != nil && !c.bool("no-run") {
		opt.Runner = &noteRunner{service: svc, path: n.Path, source: n.Source}
		if !settings.ScriptsDisabled && mayHaveScripts(first.Source) {
			// A worker started now is confined and idle by the time the
			// reader presses r.
			isolate.Prewarm()
		}
	}
	res, err := viewer.Run(opt, c.stdio.In, out)
	if err != nil {
		return failf("%v", err)
	}
	return reportView(c, res)
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

// reportView prints, once the terminal is back, what markii view prints
// on stderr: render diagnostics (unless --quiet), one line per script that
// failed in the last run, and with --verbose each failure's message and
// the host's notices. A failed script makes the exit code 2.
func reportView(c *invocation, res *viewer.Result) error {
	w := c.stdio.Err
	if !c.bool("quiet") {
		for _, d := range res.Diagnostics {
			fmt.Fprintf(w, "markii: %s\n", sanitize.Line(d))
		}
	}
	failed := 0
	for _, o := range res.Outcomes {
		if o.Outcome.Kind == script.Ok {
			continue
		}
		failed++
		fmt.Fprintf(w, "markii: script %q failed (%s)\n", sanitize.Line(o.Script), o.Outcome.Kind)
		if c.bool("verbose") && o.Outcome.Detail != "" {
			fmt.Fprintf(w, "markii: %s: %s\n", sanitize.Line(o.Script), sanitize.Line(o.Outcome.Detail))
		}
	}
	if c.bool("verbose") {
		for _, n := range res.Notices {
			fmt.Fprintf(w, "markii: %s\n", sanitize.Line(n))
		}
	}
	if failed > 0 {
		return &exitError{code: ExitScripts}
	}
	return nil
}

// viewerNote turns a loaded note into the viewer's plain form, with the
// values stored on this device.
func (c *invocation) viewerNote(n *note) *viewer.Note {
	vn := &viewer.Note{Name: n.Name, Path: n.Path, Source: n.Source, Diagnostics: n.Warnings}
	if n.Path != "" {
		vn.Watch = []string{n.Path}
	}
	vn.Values = c.storedValues(n)
	return vn
}

// mayHaveScripts is a cheap look for a script fence (a code fence whose
// info string carries a {…} group), so that opening a long note does not
// wait for a whole parse just to decide whether to start a worker early.
func mayHaveScripts(src []byte) bool {
	for _, fence := range [][]byte{[]byte("```"), []byte("~~~")} {
		for rest := src; ; {
			i := bytes.Index(rest, fence)
			if i < 0 {
				break
			}
			rest = rest[i+len(fence):]
			line := rest
			if j := bytes.IndexByte(line, '\n'); j >= 0 {
				line = line[:j]
			}
			if bytes.IndexByte(line, '{') >= 0 {
				return true
			}
		}
	}
	return false
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
	// source is the text of a note with no file (the tour), run as is.
	source []byte
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
	res, err := r.service.Run(ctx, run.Request{
		Note:     runnable(n, render.Parse(n.Source)),
		Trigger:  trigger,
		Prompter: askerPrompter{ctx, ask},
		Notices:  &notices,
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
			report(viewer.Progress{Kind: viewer.ProgressDone, Script: o.Name, Outcome: o, Entry: entryOf(o)})
		},
	})
	if res == nil {
		return err
	}
	if err := saveFailure(res); err != nil {
		report(viewer.Progress{Kind: viewer.ProgressNotice, Notice: sanitize.Line(err.Error())})
	}
	if err != nil {
		return fmt.Errorf("the scripts could not run: %v", err)
	}
	return nil
}
