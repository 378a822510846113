package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/value"
)

// runOptions are markii run's flags.
type runOptions struct{ json, verbose bool }

func (o *runOptions) bind(fs *flagSet) {
	fs.bool(&o.json, flagSpec{name: "json", help: "print the outcomes as a JSON array"})
	fs.bool(&o.verbose, flagSpec{name: "verbose", help: "also print each failure's full message"})
}

var runCommand = commandOf(command{
	summary: "run a note's scripts once and store their values",
	args:    "NOTE",
	maxArgs: 1,
}, (*runOptions).bind, runNote)

// runResult is one line of `markii run --json`.
type runResult struct {
	Name    string          `json:"name"`
	Outcome string          `json:"outcome"`
	Kind    string          `json:"kind,omitempty"`
	Detail  string          `json:"detail,omitempty"`
	Value   json.RawMessage `json:"value"`
	// Stale is the value an earlier run stored, kept (marked stale) when
	// this run failed.
	Stale json.RawMessage `json:"stale,omitempty"`
}

// maxKeptShown is the most characters of a kept value the run's line
// shows.
const maxKeptShown = 60

// keptValue is the value a failed script keeps from an earlier run (see
// value.Merge), or nil.
func keptValue(stored value.Values, o script.Outcome) json.RawMessage {
	if o.Kind == value.Ok {
		return nil
	}
	if e, ok := stored[o.Name]; ok && e.Status == value.Stale && len(e.Value) > 0 {
		return e.Value
	}
	return nil
}

func runNote(c *invocation, o *runOptions) error {
	if len(c.args) == 0 {
		return usagef("markii run needs a note to run (markii run NOTE)")
	}
	n, err := loadNote(c.args[0], c.stdio.In)
	if err != nil {
		return err
	}
	svc, err := c.runService(n)
	if err != nil {
		return err
	}
	rn := runnable(n, render.Parse(n.Source))
	res, err := svc.Run(context.Background(), c.runRequest(n, rn))
	if res == nil {
		return notStarted(err)
	}
	if err != nil {
		return failf("the scripts could not run: %w", err)
	}
	return c.reportRun(o, n, len(rn.Scripts), res)
}

// runRequest is markii run's request to run rn, the runnable form of n.
// The signature status is said once the scripts are about to run (a
// question has said it already): a run that cannot start says why in
// one line, and a note with no scripts says so.
func (c *invocation) runRequest(n *note, rn run.Note) run.Request {
	sig := c.signatureStatus(n, rn, false)
	scripts := len(rn.Scripts) > 0
	return run.Request{
		Note:      rn,
		Signature: sig,
		Trigger:   script.Manual,
		Prompter:  consentPrompter(c.stdio.In, c.stdio.Err, sig),
		Notices:   c.stdio.Err,
		OnPlan: func(run.Plan) {
			if scripts {
				fmt.Fprintf(c.stdio.Err, "markii: %s: %s\n", sanitize.Line(n.Name), sanitize.Line(sig.String()))
			}
		},
	}
}

// reportRun prints what the run of n's scripts (a number of them)
// reported and saves a failure; failed scripts exit ExitScripts.
func (c *invocation) reportRun(o *runOptions, n *note, scripts int, res *run.Result) error {
	if o.verbose {
		c.printDiagnostics(append(res.Diagnostics, res.HostDiagnostics...))
	}
	if scripts == 0 {
		fmt.Fprintln(c.stdio.Err, "markii: no scripts in this note")
	}
	if err := printOutcomes(c.stdio.Out, res.Outcomes, o.json, c.keptValues(n, res.Outcomes)); err != nil {
		return err
	}
	failed := reportFailures(c.stdio.Err, res.Outcomes, o.verbose)
	if err := saveFailure(res); err != nil {
		return err
	}
	if failed > 0 {
		return &exitError{code: ExitScripts}
	}
	return nil
}

// keptValues are n's stored values when a script of outcomes failed (a
// value an earlier run kept shows as stale), else nil.
func (c *invocation) keptValues(n *note, outcomes []script.Outcome) value.Values {
	for _, oc := range outcomes {
		if oc.Kind != value.Ok {
			return c.storedValues(n)
		}
	}
	return nil
}

// printOutcomes prints one line per script's outcome, or with asJSON
// the outcomes as a JSON array; a failed script's value kept from an
// earlier run (stored, see keptValue) is shown as stale.
func printOutcomes(w io.Writer, outcomes []script.Outcome, asJSON bool, stored value.Values) error {
	if !asJSON {
		for _, o := range outcomes {
			line := outcomeLine(o)
			if kept := keptValue(stored, o); kept != nil {
				k := sanitize.Line(string(kept))
				if len([]rune(k)) > maxKeptShown {
					k = string([]rune(k)[:maxKeptShown-1]) + "…"
				}
				line += " (kept " + k + ", stale)"
			}
			fmt.Fprintf(w, "%s: %s\n", sanitize.Line(o.Name), line)
		}
		return nil
	}
	results := make([]runResult, 0, len(outcomes))
	for _, o := range outcomes {
		r := runResult{Name: o.Name, Outcome: outcomeLine(o), Value: json.RawMessage("null"), Stale: keptValue(stored, o)}
		if o.Kind != value.Ok {
			r.Kind, r.Detail = string(o.Kind), o.Detail
		} else if len(o.Value) > 0 {
			r.Value = o.Value
		}
		results = append(results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(results); err != nil {
		return failf("cannot write the results: %w", err)
	}
	return nil
}

// reportFailures says on stderr which scripts failed, with --verbose each
// failure's message too, and returns how many failed.
func reportFailures(w io.Writer, outcomes []script.Outcome, verbose bool) int {
	failed := 0
	for _, o := range outcomes {
		if o.Kind == value.Ok {
			continue
		}
		failed++
		fmt.Fprintf(w, "markii: script %q failed (%s)\n", sanitize.Line(o.Name), failure(o))
		if verbose && o.Detail != "" {
			fmt.Fprintf(w, "markii: %s: %s\n", sanitize.Line(o.Name), sanitize.Line(o.Detail))
		}
	}
	return failed
}

// failure is how a failed script's line names its failure: the outcome's
// kind, or for an offline run the host and what failed, which the host
// knows from its own record ("offline: api.github.com could not be
// resolved").
func failure(o script.Outcome) string {
	if o.Kind == value.Offline {
		return sanitize.Line(o.Summary())
	}
	return string(o.Kind)
}

// notStarted is the command-line error for a run that never started.
func notStarted(err error) error {
	if errors.Is(err, run.ErrScriptsDisabled) {
		return err
	}
	return failf("%w", err)
}

// runnable is the executable part of a loaded note for the run service.
func runnable(n *note, doc *render.Document) run.Note {
	rn := run.Note{Key: n.Key, Bundle: n.Bundle}
	for _, s := range doc.Scripts {
		rn.Scripts = append(rn.Scripts, run.Script{Name: s.Name, Lang: s.Lang, Src: s.Src, HasSrc: s.HasSrc,
			Source: s.Source, Permissions: s.Permissions})
	}
	items, truncated := render.Listing(doc)
	rn.Truncated = truncated
	for _, d := range items {
		attrs := make([]script.Attr, len(d.Attrs))
		for j, a := range d.Attrs {
			attrs[j] = script.Attr{Key: a.Key, Value: a.Value}
		}
		rn.Directives = append(rn.Directives, script.Directive{Name: d.Name, Form: d.Form, Attrs: attrs, Text: d.Text})
	}
	return rn
}

// storedValues reads the values this device stored for n, as the renderer
// reads them; a note without identity (stdin) has none.
func (c *invocation) storedValues(n *note) value.Values {
	if n.Key == "" {
		return nil
	}
	st, err := c.deviceState()
	if err != nil {
		fmt.Fprintf(c.stdio.Err, "markii: cannot read the stored values: %v\n", err)
		return nil
	}
	snap, err := run.DeviceStore{State: st}.Values(n.Key)
	if err != nil {
		fmt.Fprintf(c.stdio.Err, "markii: cannot read the stored values: %v\n", err)
		return nil
	}
	return value.Values(snap)
}

// outcomeLine is the short, display-safe line for an outcome; it never
// carries the failure's text.
func outcomeLine(o script.Outcome) string { return sanitize.Line(o.Summary()) }

// saveFailure is the exit-1 error for a run whose values or cache could
// not be stored (what was stored before is kept), or nil.
func saveFailure(res *run.Result) error {
	if res.SaveErr == nil {
		return nil
	}
	return failf("cannot save values: %w", res.SaveErr)
}
