package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/isolate"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/runtime/values"
)

// scriptRunner runs a request's scripts. The product runs them in the
// isolate (a child process the host can kill); tests swap in another
// runner with the same signature.
var scriptRunner func(ctx context.Context, req *script.Request, host script.Host, emit func(script.Outcome)) error = isolate.Run

// stateDir finds the device-state directory; tests point it elsewhere.
var stateDir = func() (string, error) { return state.Dir(runtime.GOOS, os.Getenv) }

var runCommand = &command{
	summary: "run a note's scripts once and store their values",
	flags: []flagSpec{
		{name: "json", isBool: true, help: "print the outcomes as a JSON array"},
		{name: "verbose", isBool: true, help: "also print each failure's full message"},
	},
	run: runNote,
}

// runResult is one line of `markii run --json`.
type runResult struct {
	Name    string          `json:"name"`
	Outcome string          `json:"outcome"`
	Kind    string          `json:"kind,omitempty"`
	Detail  string          `json:"detail,omitempty"`
	Value   json.RawMessage `json:"value"`
}

func runNote(c *invocation) error {
	if len(c.args) == 0 {
		return usagef("markii run needs a note to run (markii run NOTE)")
	}
	n, err := loadNote(c.args[0], c.stdio.In)
	if err != nil {
		return err
	}
	doc := render.Parse(n.Source)
	var outcomes []script.Outcome
	plan, runErr := runScripts(context.Background(), n, doc, script.Manual,
		consentPrompter(c.stdio.In, c.stdio.Err), c.stdio.Err, nil,
		func(o script.Outcome) { outcomes = append(outcomes, o) })
	if plan == nil {
		return runErr
	}
	if runErr != nil {
		return failf("the scripts could not run: %v", runErr)
	}
	if c.bool("verbose") {
		for _, d := range plan.Diagnostics {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", oneLine(d))
		}
		for _, d := range plan.Host.Diagnostics() {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", oneLine(d))
		}
	}

	failed := 0
	if c.bool("json") {
		results := make([]runResult, 0, len(outcomes))
		for _, o := range outcomes {
			r := runResult{Name: o.Name, Outcome: outcomeLine(o), Value: json.RawMessage("null")}
			if o.Kind != script.Ok {
				failed++
				r.Kind, r.Detail = string(o.Kind), o.Detail
			} else if len(o.Value) > 0 {
				r.Value = o.Value
			}
			results = append(results, r)
		}
		enc := json.NewEncoder(c.stdio.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return failf("cannot write the results: %v", err)
		}
	} else {
		for _, o := range outcomes {
			fmt.Fprintf(c.stdio.Out, "%s: %s\n", oneLine(o.Name), outcomeLine(o))
			if o.Kind != script.Ok {
				failed++
			}
		}
	}
	for _, o := range outcomes {
		if o.Kind == script.Ok {
			continue
		}
		fmt.Fprintf(c.stdio.Err, "markii: script %q failed (%s)\n", o.Name, o.Kind)
		if c.bool("verbose") && o.Detail != "" {
			fmt.Fprintf(c.stdio.Err, "markii: %s: %s\n", oneLine(o.Name), oneLine(o.Detail))
		}
	}
	if failed > 0 {
		return &exitError{code: ExitScripts}
	}
	return nil
}

// runScripts plans and runs n's scripts for trigger through the isolate:
// it reads the user's settings and grants (asking prompter on a manual
// run; see planRun), builds the request, calls onPlan with the script names
// before the first one starts, streams every outcome to emit, persists the
// cache and, unless ctx was cancelled, the values. It returns the plan
// (nil when the run never started, with the reason as the error) and an
// error when the isolate failed before every script had an outcome.
func runScripts(ctx context.Context, n *note, doc *render.Document, trigger script.Trigger, prompter grants.Prompter, errOut io.Writer, onPlan func(*runPlan, []string), emit func(script.Outcome)) (*runPlan, error) {
	plan, err := planRun(ctx, n, doc, trigger, prompter, errOut)
	if err != nil {
		return nil, err
	}
	warnMissingProtections(errOut)
	defer plan.Finish()
	req := &script.Request{
		RunID:  uint64(time.Now().UnixNano()),
		Tier:   plan.Host.Tier(),
		Blocks: plan.Blocks,
		Bundle: n.Bundle != nil,
		Limits: script.Ceiling,
	}
	names := make([]string, 0, len(plan.Blocks))
	for _, b := range plan.Blocks {
		names = append(names, b.Name)
	}
	req.Directives, req.Truncated = docListing(doc)
	if onPlan != nil {
		onPlan(plan, names)
	}
	var outcomes []script.Outcome
	runErr := scriptRunner(ctx, req, plan.Host, func(o script.Outcome) {
		outcomes = append(outcomes, o)
		emit(o)
	})
	if ctx.Err() == nil {
		persistValues(n, names, outcomes)
	}
	if runErr != nil && len(outcomes) < len(req.Blocks) && ctx.Err() == nil {
		return plan, runErr
	}
	return plan, nil
}

var missingProtectionsOnce sync.Once

// warnMissingProtections says once per process, plainly, which isolate
// protections this platform cannot give, so a weaker sandbox is never
// presented as the full one.
func warnMissingProtections(w io.Writer) {
	missingProtectionsOnce.Do(func() {
		for _, m := range isolate.MissingProtections() {
			fmt.Fprintf(w, "markii: this system lacks a script sandbox protection: %s\n", m)
		}
	})
}

// storedValues reads the values this device stored for n, as the renderer
// reads them; a note without identity (stdin) has none.
func storedValues(n *note) render.Values {
	if n.Key == "" {
		return nil
	}
	dir, err := stateDir()
	if err != nil {
		return nil
	}
	snap := values.Load(state.Open(dir), n.Key)
	out := make(render.Values, len(snap))
	for k, e := range snap {
		out[k] = render.Entry{Value: e.Value, Status: render.Status(e.Status), FailureKind: script.Kind(e.FailureKind).AsFailure()}
	}
	return out
}

// outcomeLine is the short, display-safe line for an outcome; it never
// carries the failure's text.
func outcomeLine(o script.Outcome) string { return oneLine(o.Summary()) }

// persistValues merges the outcomes into the note's stored values. A note
// read from stdin has no identity and stores nothing; write failures are
// swallowed (the run itself succeeded or failed on its own terms).
func persistValues(n *note, names []string, outcomes []script.Outcome) {
	if n.Key == "" {
		return
	}
	dir, err := stateDir()
	if err != nil {
		return
	}
	st := state.Open(dir)
	snap := values.Apply(values.Load(st, n.Key), names, outcomes, time.Now())
	_ = values.Save(st, n.Key, snap)
}

// docListing is the note's doc.directives listing for the request (the
// engine applies the caps again on its side).
func docListing(doc *render.Document) ([]script.Directive, bool) {
	items, truncated := render.Listing(doc)
	out := make([]script.Directive, len(items))
	for i, d := range items {
		attrs := make([]script.Attr, len(d.Attrs))
		for j, a := range d.Attrs {
			attrs[j] = script.Attr{Key: a.Key, Value: a.Value}
		}
		out[i] = script.Directive{Name: d.Name, Form: d.Form, Attrs: attrs, Text: d.Text}
	}
	return out, truncated
}
