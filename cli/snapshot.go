package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/snapshot"
)

// snapshotOptions are markii snapshot's flags.
type snapshotOptions struct {
	width, color, theme                   textFlag
	update, prune, accept, reject, review bool
	checkDeterminism, github              bool
	junit                                 textFlag
	jobs                                  countFlag
}

func (o *snapshotOptions) bind(fs *flagSet) {
	fs.text(&o.width, flagSpec{name: "width", short: "w", value: "N,N", help: "layout widths of the matrix, comma-separated (default 80, or the folder's markii-snapshot.json)"})
	fs.text(&o.color, flagSpec{name: "color", short: "c", value: "LEVEL,LEVEL", help: "color levels of the matrix: never, 16, 256, truecolor (default never,truecolor)"})
	fs.text(&o.theme, flagSpec{name: "theme", short: "t", value: "NAME,NAME", help: "built-in themes of the matrix: dark, light, high-contrast (default dark)"})
	fs.bool(&o.update, flagSpec{name: "update", short: "u", help: "write new and changed snapshots (and replace files there that are not snapshots)"})
	fs.bool(&o.prune, flagSpec{name: "prune", help: "with --update: remove obsolete snapshots"})
	fs.bool(&o.review, flagSpec{name: "review", help: "walk the pending snapshots full-screen: each diff in color (t: as tokens), a accept, r reject, s skip"})
	fs.bool(&o.accept, flagSpec{name: "accept", help: "accept every pending snapshot"})
	fs.bool(&o.reject, flagSpec{name: "reject", help: "reject (remove) every pending snapshot"})
	fs.bool(&o.checkDeterminism, flagSpec{name: "check-determinism", help: "render each variant again under a scrambled environment and fail any difference"})
	fs.text(&o.junit, flagSpec{name: "junit", value: "FILE", help: "also write a JUnit XML report to FILE"})
	fs.bool(&o.github, flagSpec{name: "github", help: "also print GitHub Actions annotation lines for every case that did not match"})
	o.jobs.max = 1024
	fs.count(&o.jobs, flagSpec{name: "jobs", short: "j", value: "N", help: "notes rendered at once (default: one per core)"})
}

var snapshotCommand = commandOf(command{
	summary: "check notes against stored snapshots of their rendering (golden files)",
	args:    "[PATH...]",
	maxArgs: 1 << 16,
}, (*snapshotOptions).bind, runSnapshot)

// runSnapshot implements `markii snapshot [PATH...]`: exit 0 when every
// snapshot matches (or was written), 1 when any differs, is new or
// failed, 3 for a usage error.
func runSnapshot(c *invocation, o *snapshotOptions) error {
	paths := c.args
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if n := btoi(o.review) + btoi(o.accept) + btoi(o.reject) + btoi(o.update); n > 1 {
		return usagef("--update, --review, --accept and --reject are separate steps; give one")
	}
	if o.prune && !o.update {
		return usagef("--prune removes obsolete snapshots only with --update")
	}
	switch {
	case o.accept, o.reject:
		return settlePending(c, paths, o.reject)
	case o.review:
		return reviewPending(c, paths)
	}
	opt, err := o.runOptions()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := snapshot.Run(ctx, paths, opt)
	if errors.Is(err, context.Canceled) {
		return &exitError{code: 130, msg: "interrupted; no snapshot was left half-written", err: err}
	}
	if err != nil {
		return failf("snapshot: %w", err)
	}
	return reportSnapshots(c, o, rep)
}

// runOptions are the run's options from the matrix and run flags.
func (o *snapshotOptions) runOptions() (snapshot.Options, error) {
	opt := snapshot.Options{Update: o.update, Prune: o.prune, CheckDeterminism: o.checkDeterminism, Jobs: o.jobs.or(0)}
	for _, w := range listFlag(o.width) {
		n, err := strconv.Atoi(w)
		if err != nil || n < 1 || n > snapshot.MaxWidth {
			return opt, usagef("--width wants widths between 1 and %d, comma-separated, not %q", snapshot.MaxWidth, w)
		}
		opt.Matrix.Widths = append(opt.Matrix.Widths, n)
	}
	for _, l := range listFlag(o.color) {
		lv, err := snapshot.ParseLevel(l)
		if err != nil {
			return opt, usagef("--color: %v", err)
		}
		opt.Matrix.Levels = append(opt.Matrix.Levels, lv)
	}
	opt.Matrix.Themes = listFlag(o.theme)
	if err := opt.Matrix.Check(); err != nil {
		return opt, usagef("%v", err)
	}
	return opt, nil
}

// listFlag is a comma-separated flag's values.
func listFlag(f textFlag) []string {
	if !f.set {
		return nil
	}
	var out []string
	for _, v := range strings.Split(f.value, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// reportSnapshots prints the report (and writes --junit), and returns the
// exit: 1 unless everything matched or was written.
func reportSnapshots(c *invocation, o *snapshotOptions, rep *snapshot.Report) error {
	if err := rep.WriteText(c.stdio.Out); err != nil {
		return failf("cannot write the report: %s", osReason(err))
	}
	if o.github {
		_ = rep.WriteAnnotations(c.stdio.Out)
	}
	if path := o.junit.value; o.junit.set {
		var b strings.Builder
		_ = rep.WriteJUnit(&b)
		target, err := resolveOutput(path, "-")
		if err == nil {
			err = target.write([]byte(b.String()), c.stdio.Out)
		}
		if err != nil {
			return failf("cannot write the JUnit report %s: %s", path, strings.TrimPrefix(err.Error(), "could not export this note: "))
		}
	}
	if !rep.OK() {
		return &exitError{code: ExitFailure}
	}
	return nil
}

// settlePending accepts or rejects every pending snapshot under paths.
func settlePending(c *invocation, paths []string, reject bool) error {
	act, verb := snapshot.Accept, "accepted"
	if reject {
		act, verb = snapshot.Reject, "rejected"
	}
	failed := 0
	pending := snapshot.Pending(paths)
	for _, p := range pending {
		if err := act(p); err != nil {
			fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(err.Error()))
			failed++
			continue
		}
		fmt.Fprintf(c.stdio.Out, "%s %s\n", verb, sanitize.Line(p))
	}
	fmt.Fprintf(c.stdio.Out, "snapshots: %d pending, %d %s, %d failed\n", len(pending), len(pending)-failed, verb, failed)
	if failed > 0 {
		return &exitError{code: ExitFailure}
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reviewPending implements --review: the pending snapshots under paths,
// one at a time, full-screen.
func reviewPending(c *invocation, paths []string) error {
	if !isTerminal(c.stdio.In) || !isTerminal(c.stdio.Out) {
		return usagef("--review needs a terminal; use --accept or --reject elsewhere")
	}
	pending := snapshot.Pending(paths)
	if len(pending) == 0 {
		fmt.Fprintln(c.stdio.Out, "snapshots: nothing pending")
		return nil
	}
	res, err := snapshot.Review(c.stdio.In, c.stdio.Out, pending)
	if err != nil {
		return failf("the review ended: %w", err)
	}
	for _, e := range res.Failed {
		fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(e.Error()))
	}
	fmt.Fprintf(c.stdio.Out, "snapshots: %d pending, %d accepted, %d rejected, %d skipped, %d failed\n", len(pending), res.Accepted, res.Rejected, res.Skipped, len(res.Failed))
	if len(res.Failed) > 0 {
		return &exitError{code: ExitFailure}
	}
	return nil
}
