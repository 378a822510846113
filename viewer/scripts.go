package viewer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/value"
)

const manualTrigger = script.Manual

// runState is the script run under way, if any, and what the last runs
// reported.
type runState struct {
	gen     int
	cancel  context.CancelFunc
	trigger script.Trigger
	spin    spinner.Model
	planned []string
	done    map[string]Progress
	notices []string
	// asking is the grant question waiting for an answer.
	asking *question
	// last summarises the last finished run for the status bar.
	last string
	// closed is set when the viewer closes: no more runs or timers.
	closed bool
	// ran is set once any run reported a value in this session.
	ran bool
	// note counts the notes closed so far (a library opens one after
	// another); the timers of the open note carry its count.
	note int
}

func (r *runState) active() bool { return r.cancel != nil }

// current reports whether gen is the run under way's: messages of a
// cancelled or finished run are not.
func (r *runState) current(gen int) bool { return gen == r.gen && r.active() }

// question is a grant prompt shown as a dialog. It hears only answers
// to itself: keys that reach the viewer before it was drawn and had time
// to be seen (typed ahead, pasted, or queued in the same burst as the
// question) are dropped, never taken as an answer.
type question struct {
	text  string
	reply chan bool
	// signature is the note's signature status, the question's first
	// line; the answer does not depend on it.
	signature signature.Status
	// drawn is set once a frame has shown the dialog; armed once, after
	// that, dialogArmDelay has passed, from when on keys answer it.
	drawn, armed bool
	// dropped counts keys dropped before the dialog was armed.
	dropped int
	// small is set while the last frame could not show the whole
	// question: a yes is refused until the terminal is large enough; no
	// and esc still answer.
	small bool
	// refused counts yeses refused while the question did not fit.
	refused int
}

// dialogArmDelay is how long a drawn grant dialog ignores keys: a few
// frames, less than anyone takes to read the question, more than a
// burst of typed-ahead or pasted keys takes to arrive.
const dialogArmDelay = 60 * time.Millisecond

// dialogArmMsg arms the dialog of q once it has been drawn.
type dialogArmMsg struct{ q *question }

func armDialog(q *question) tea.Cmd {
	return tea.Tick(dialogArmDelay, func(time.Time) tea.Msg { return dialogArmMsg{q} })
}

// dialogLegend is the dialog's key legend; its inner spacing is kept.
const dialogLegend = "y allow    n or esc deny"

func (q *question) lines() []string {
	out := append([]string{q.signature.Sentence(), ""}, grants.QuestionLines(q.text)...)
	out = append(out, "", dialogLegend)
	if q.dropped > 0 {
		out = append(out, "(keys typed before this question was shown were ignored)")
	}
	return out
}

// tooSmall is what the dialog says instead of the question when the
// terminal cannot show all of it.
const tooSmall = "Too small for the question: enlarge the terminal. n denies."

// Messages of a run; gen tells a current run's messages from a cancelled
// one's.
type (
	progressMsg struct {
		gen int
		p   Progress
	}
	askMsg struct {
		gen int
		q   *question
	}
	runEndMsg struct {
		gen int
		err error
	}
	// autoRunMsg and refreshMsg carry the note they were timed for (see
	// runState.note): a timer of a note the reader has left is ignored.
	autoRunMsg struct{ note int }
	refreshMsg struct{ note int }
	panicMsg   struct{ err error }
)

// drawOver draws the question's dialog over lines, the middle ones, in
// a width cells wide screen. A question that does not fit whole is not
// shown in part: the reader is told to enlarge the terminal, and a yes
// is refused until it fits (small).
func (q *question) drawOver(lines []string, c *chrome, width int) {
	box, fits := c.dialog(q.lines(), width, len(lines))
	if !fits {
		box = c.tooSmall(tooSmall, width, len(lines))
	}
	at := max((len(lines)-len(box))/2, 0)
	copy(lines[at:], box)
	q.small = !fits
	q.drawn = q.drawn || fits
}

// startCmds are the script work the viewer starts with: warming the
// runner up after the first frame, and the run on open or the first
// refresh the settings ask for.
func (r *runState) startCmds(opt *Options) []tea.Cmd {
	if opt.ScriptsDisabled || opt.Runner == nil {
		return nil
	}
	var cmds []tea.Cmd
	if p, ok := opt.Runner.(Preparer); ok {
		cmds = append(cmds, afterFirstFrame(func() tea.Msg {
			p.Prepare()
			return nil
		}))
	}
	if opt.RunOnOpen {
		note := r.note
		return append(cmds, func() tea.Msg { return autoRunMsg{note: note} })
	}
	if opt.RefreshInterval > 0 {
		cmds = append(cmds, r.scheduleRefresh(opt.RefreshInterval))
	}
	return cmds
}

// startRun starts a run at trigger unless one is under way, scripts are
// off, or the note on screen is not the one the viewer was opened with.
func (m *Model) startRun(trigger script.Trigger) tea.Cmd {
	rd := m.reader
	switch {
	case m.run.closed:
		return nil
	case m.opt.ScriptsDisabled:
		rd.message = "scripts are turned off in your settings (scriptsDisabled)"
		return nil
	case m.opt.Runner == nil:
		rd.message = "this note's scripts cannot run here"
		return nil
	case rd.note != rd.first:
		rd.message = "scripts of linked notes do not run"
		return nil
	case m.run.active():
		if trigger == manualTrigger {
			rd.message = "a run is already under way (esc cancels it)"
		}
		return nil
	}
	rd.message = ""
	return m.run.start(m.opt.Runner, trigger, rd.note.Signature)
}

// start runs runner's scripts at trigger in the background; its
// messages come back through waitRun.
func (r *runState) start(runner Runner, trigger script.Trigger, sig signature.Status) tea.Cmd {
	r.gen++
	gen := r.gen
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.trigger = trigger
	r.planned = nil
	r.done = map[string]Progress{}
	r.notices = nil
	r.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	ch := make(chan tea.Msg, 16)
	send := func(msg tea.Msg) {
		select {
		case ch <- msg:
		case <-ctx.Done():
		}
	}
	ask := func(actx context.Context, text string) (bool, error) {
		if trigger != manualTrigger {
			return false, nil
		}
		q := &question{text: text, reply: make(chan bool, 1), signature: sig}
		send(askMsg{gen: gen, q: q})
		select {
		case ok := <-q.reply:
			return ok, nil
		case <-ctx.Done():
			return false, ctx.Err()
		case <-actx.Done():
			return false, actx.Err()
		}
	}
	go func() {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("the script run stopped after an internal error (%v)", r)
				}
			}()
			err = runner.Run(ctx, trigger, ask, func(p Progress) { send(progressMsg{gen: gen, p: p}) })
		}()
		select {
		case ch <- runEndMsg{gen: gen, err: err}:
		case <-time.After(time.Second):
		}
	}()
	return tea.Batch(waitRun(ch), r.spin.Tick)
}

// waitRun waits for the next message of a run.
func waitRun(ch chan tea.Msg) tea.Cmd {
	return func() tea.Msg { return wrapRun{ch: ch, msg: <-ch} }
}

// wrapRun carries a run message with its channel, to wait for the next.
type wrapRun struct {
	ch  chan tea.Msg
	msg tea.Msg
}

// cancelRun ends the run under way; the runner's context ends, which
// stops its worker.
func (m *Model) cancelRun(why string) {
	if m.run.cancel == nil {
		return
	}
	m.run.cancel()
	m.run.cancel = nil
	if q := m.run.asking; q != nil {
		q.reply <- false
		m.run.asking = nil
	}
	if why != "" {
		m.run.last = why
	}
	m.run.next(&m.opt)
}

// runUpdate handles the messages of runs and timers.
func (m *Model) runUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case wrapRun:
		return msg.andWait(m.runMsg(msg.msg)), true
	case spinner.TickMsg:
		return m.run.tick(msg), true
	case autoRunMsg:
		return m.autoRun(msg.note), true
	case refreshMsg:
		if m.run.active() || m.run.closed || !m.onScreen(msg.note) {
			return nil, true
		}
		return m.startRun(script.Scheduled), true
	case dialogArmMsg:
		return m.run.arm(msg.q), true
	}
	return nil, false
}

// andWait is cmd, then waiting for the run's next message unless w
// carried its last.
func (w wrapRun) andWait(cmd tea.Cmd) tea.Cmd {
	if _, end := w.msg.(runEndMsg); end {
		return cmd
	}
	return tea.Batch(cmd, waitRun(w.ch))
}

// onScreen reports whether a timer of note (see runState.note) is the
// note on screen's.
func (m *Model) onScreen(note int) bool {
	return note == m.run.note && !m.browsing
}

// autoRun starts the run on open of note unless the reader left it; a
// run that cannot start leaves the refresh, if there is one, to time the
// next.
func (m *Model) autoRun(note int) tea.Cmd {
	if !m.onScreen(note) {
		return nil
	}
	if cmd := m.startRun(script.Auto); cmd != nil || m.opt.RefreshInterval <= 0 {
		return cmd
	}
	return m.run.scheduleRefresh(m.opt.RefreshInterval)
}

// tick turns the spinner of the run under way.
func (r *runState) tick(msg spinner.TickMsg) tea.Cmd {
	if !r.active() {
		return nil
	}
	var cmd tea.Cmd
	r.spin, cmd = r.spin.Update(msg)
	return cmd
}

// arm lets the dialog of q take keys once a frame has shown it.
func (r *runState) arm(q *question) tea.Cmd {
	if r.asking != q {
		return nil
	}
	if !q.drawn {
		// No frame has shown it yet: wait again from the first.
		return armDialog(q)
	}
	q.armed = true
	return nil
}

func (m *Model) runMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case progressMsg:
		if !m.run.current(msg.gen) {
			return nil
		}
		return m.progress(msg.p)
	case askMsg:
		if !m.run.current(msg.gen) {
			msg.q.reply <- false
			return nil
		}
		m.run.asking = msg.q
		return armDialog(msg.q)
	case runEndMsg:
		if !m.run.current(msg.gen) {
			return nil
		}
		m.run.cancel()
		m.run.cancel = nil
		m.run.asking = nil
		m.run.last = m.run.summary(msg.err)
		return m.run.next(&m.opt)
	}
	return nil
}

// next schedules the next refresh when the settings ask for one; a
// refresh is only timed from the end of the previous run, so runs never
// overlap.
func (r *runState) next(opt *Options) tea.Cmd {
	if opt.RefreshInterval > 0 && !r.closed && !opt.ScriptsDisabled {
		return r.scheduleRefresh(opt.RefreshInterval)
	}
	return nil
}

func (r *runState) scheduleRefresh(every time.Duration) tea.Cmd {
	note := r.note
	return tea.Tick(every, func(time.Time) tea.Msg { return refreshMsg{note: note} })
}

// progress applies one report: a finished script's value updates the
// page in place, merged with what the page showed by value.Merge, the
// rule the store keeps too (a failure keeps the old value, marked stale).
func (m *Model) progress(p Progress) tea.Cmd {
	switch p.Kind {
	case ProgressPlan:
		m.run.planned = append([]string(nil), p.Scripts...)
	case ProgressNotice:
		m.run.notices = append(m.run.notices, p.Notice)
	case ProgressDone:
		m.run.done[p.Script] = p
		m.run.ran = true
		o := p.Outcome
		e := value.Merge(m.reader.values[p.Script], o.Kind, o.Value, m.opt.Now().UnixMilli(), m.run.trigger == manualTrigger)
		return m.reader.storeValue(p.Script, e)
	}
	return nil
}

// summary is the status-bar line of a finished run.
func (r *runState) summary(err error) string {
	failed, offline := 0, 0
	for _, p := range r.done {
		switch p.Outcome.Kind {
		case value.Ok:
		case value.Offline:
			offline++
		default:
			failed++
		}
	}
	s := fmt.Sprintf("ran %d", len(r.done))
	if offline > 0 {
		// The network is down, not the note: said once, however many
		// scripts could not reach their hosts.
		s = "offline · " + s
	}
	if failed > 0 {
		s += fmt.Sprintf(", %d failed (D shows why)", failed)
	}
	if err != nil {
		s = "run failed (D shows why)"
		r.notices = append(r.notices, err.Error())
	}
	return s
}

// runStatus is the script part of the status bar.
func (m *Model) runStatus() string {
	if m.run.active() {
		return m.run.running(m.reader.pg.scripts)
	}
	if m.run.last != "" {
		return m.run.last
	}
	pg := m.reader.pg
	if m.opt.ScriptsDisabled && pg.scripts > 0 {
		return "scripts off"
	}
	if pg.scripts > 0 && m.reader.note == m.reader.first && m.opt.Runner != nil {
		return "r runs scripts"
	}
	return ""
}

// running is the status of the run under way of a page's scripts.
func (r *runState) running(scripts int) string {
	if r.asking != nil {
		return "waiting for your answer: 1 question"
	}
	n := len(r.planned)
	if n == 0 {
		// Before the run's plan arrives (grants are decided first), the
		// page's own count of scripts is the total.
		n = scripts
	}
	return fmt.Sprintf("%s running %d/%d", r.spin.View(), len(r.done), max(n, len(r.done)))
}

// dialogKey answers the grant dialog: y allows, n or esc denies; Ctrl-C
// denies and quits. Until the dialog is armed only Ctrl-C counts, and a
// refusal of a question too large to read. Other keys are dropped.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	q := m.run.asking
	k := msg.String()
	yes, answers := dialogAnswers[k]
	switch {
	case q.small && yes:
		// The question cannot be read: a yes would grant what the reader
		// never saw. A refusal is always safe.
		q.refused++
		return nil
	case !answers:
		if !q.armed {
			q.dropped++
		}
		return nil
	case !q.armed && !q.small && k != "ctrl+c":
		q.dropped++
		return nil
	}
	m.run.asking = nil
	q.reply <- yes
	if k == "ctrl+c" {
		return m.quit()
	}
	return nil
}

// dialogAnswers are the grant dialog's keys and the answer each gives.
var dialogAnswers = map[string]bool{"y": true, "Y": true, "n": false, "N": false, "esc": false, "ctrl+c": false}

// diagnostics lists the diagnostics pane: each script's outcome, the host
// a denied call attempted, host notices, and render diagnostics.
func (m *Model) diagnostics() []string {
	out := m.run.outcomeLines()
	if out == nil && m.reader.pg.scripts > 0 {
		out = append(out, "Scripts: not run in this session (r runs them)")
	}
	if len(m.run.notices) > 0 {
		out = append(out, "Run notices:")
		for _, n := range m.run.notices {
			out = append(out, "  "+n)
		}
	}
	if d := append(append([]string(nil), m.reader.note.Diagnostics...), m.reader.pg.laid.Diagnostics...); len(d) > 0 {
		out = append(out, "Render:")
		for _, l := range d {
			out = append(out, "  "+l)
		}
	}
	if len(out) == 0 {
		out = append(out, "No diagnostics.")
	}
	out = append([]string{"Signature: " + m.reader.note.Signature.String()}, out...)
	for i := range out {
		out[i] = strings.TrimRight(out[i], " ")
	}
	return out
}

// names are the scripts of the last run: the planned ones in order,
// then any other that reported.
func (r *runState) names() []string {
	names := append([]string(nil), r.planned...)
	for n := range r.done {
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// outcomeLines are the diagnostics pane's lines on each script of the
// last run; nil when there was none.
func (r *runState) outcomeLines() []string {
	if len(r.done) == 0 && len(r.planned) == 0 {
		return nil
	}
	out := []string{"Scripts (" + string(r.trigger) + " run):"}
	for _, n := range r.names() {
		p, ok := r.done[n]
		switch {
		case !ok:
			out = append(out, "  "+n+": not finished")
		case p.Outcome.Kind == value.Ok:
			out = append(out, "  "+n+": ok")
		default:
			line := "  " + n + ": " + p.Outcome.Summary()
			if p.Outcome.Detail != "" && !strings.HasSuffix(line, p.Outcome.Detail) {
				line += ": " + p.Outcome.Detail
			}
			out = append(out, line)
		}
	}
	return out
}

// result collects what the command line reports after the viewer closes.
func (m *Model) result() *Result {
	r := &Result{Notices: append([]string(nil), m.run.notices...)}
	for _, n := range m.run.names() {
		if p, ok := m.run.done[n]; ok {
			r.Outcomes = append(r.Outcomes, p)
		}
	}
	r.Diagnostics = append(append([]string(nil), m.reader.first.Diagnostics...), m.reader.firstPage().laid.Diagnostics...)
	return r
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
