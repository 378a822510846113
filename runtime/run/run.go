// Package run runs a note's scripts: it decides the grants for the run's
// tier (asking a prompter on a manual run), builds the request from the
// note's executable closure, runs it in the isolate, and reports each
// script's typed outcome as it comes, then stores the values and the
// script cache. It is what the command line's run, render --run and
// export, and the viewer's runner all call.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/host"
	"github.com/markii/markii/runtime/isolate"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/pack"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/value"
)

// ErrScriptsDisabled is returned when the user's settings turn scripts
// off; nothing was read or run.
var ErrScriptsDisabled = errors.New("scripts are turned off in your markii settings (scriptsDisabled); nothing was run")

// Service runs notes' scripts. Its fields are its dependencies; a
// Service is safe for concurrent use if they are.
type Service struct {
	// Settings reads the user's own settings at the start of every run;
	// nil means the defaults.
	Settings func() (config.Settings, error)
	// Store is the device state; nil keeps grants, values and the cache in
	// memory for the one run.
	Store Store
	// Runner runs a request; nil means the isolate (isolate.Run).
	Runner isolate.Runner
	// Resolver answers DNS for script requests; nil is the system's.
	Resolver netclient.Resolver
	// Version is markii's version, sent as the User-Agent of requests.
	Version string
	// Now is the clock for run ids, values and the cache; nil is time.Now.
	Now func() time.Time
	// Audit is the audit trail every run, decision and outcome is
	// appended to, by this process (never the worker); nil keeps none.
	Audit *audit.Log

	warnOnce sync.Once
}

// Prepare readies the service's next run: through the isolate, it keeps
// a confined worker started and idle, so the run does not wait for a
// process start. The viewer calls it once, after its first frame, for a
// note that may hold scripts.
func (s *Service) Prepare() {
	if s.Runner == nil {
		isolate.Prewarm()
	}
}

// Note is the executable part of a parsed note.
type Note struct {
	// Key is the note's document key; "" for a note without identity
	// (stdin), whose run stores nothing.
	Key string
	// Scripts are the note's script fences in document order.
	Scripts []Script
	// Directives is the doc.directives listing; Truncated is doc.truncated.
	Directives []script.Directive
	Truncated  bool
	// Bundle is the note's bundle, nil for a single file.
	Bundle *bundle.Bundle
}

// Script is one script fence as the note writes it.
type Script struct {
	Name, Lang string
	// Src is the src= path; HasSrc says whether src= was given.
	Src    string
	HasSrc bool
	// Source is the fence body.
	Source string
	// Permissions are the hosts the fence declares (never a grant).
	Permissions []string
}

// Request is one run of a note's scripts.
type Request struct {
	Note    Note
	Trigger script.Trigger
	// Prompter asks for grants on a manual run; nil denies every prompt
	// without asking and says why once on Notices. Auto and scheduled runs
	// never ask.
	Prompter grants.Prompter
	// Notices receives the run's plain notices (a prompt that could not be
	// shown, a sandbox protection this system lacks); nil discards them.
	Notices io.Writer
	// OnPlan, when set, is called before the first script starts.
	OnPlan func(Plan)
	// OnOutcome, when set, is called with each script's outcome in order.
	OnOutcome func(script.Outcome)
	// Signature is the note's signature status, recorded in the audit
	// trail. Nothing in the run reads it: no grant, prompt or tier
	// depends on who signed a note.
	Signature signature.Status
	// Origin names what asked for the run in the audit trail ("render
	// --run", "view"); "" records the trigger alone.
	Origin string
}

// Plan is what was decided before the scripts started.
type Plan struct {
	// Scripts are the names of the scripts that will run, in order.
	Scripts []string
	// Key is the closure key of the code that runs.
	Key string
	// Diagnostics are lines for a verbose report: declaration mismatches,
	// why addresses count as built at run time, and installed packs that
	// were refused.
	Diagnostics []string
}

// Result is what a run produced.
type Result struct {
	Plan
	// Outcomes are the scripts' outcomes in order.
	Outcomes []script.Outcome
	// HostDiagnostics are the capability host's notes (retried requests,
	// outcomes that could not be known).
	HostDiagnostics []string
	// SaveErr is set when the values or cache entries could not be stored.
	SaveErr error
}

// Run runs req's scripts once at the tier of its trigger. It returns nil
// and the reason when the run never started (ErrScriptsDisabled, unreadable
// settings, a failed prompt), and a result with an error when the isolate
// failed before every script had an outcome. A cancelled ctx stops the
// worker and stores no values.
func (s *Service) Run(ctx context.Context, req Request) (*Result, error) {
	notices := req.Notices
	if notices == nil {
		notices = io.Discard
	}
	p, err := s.prepare(ctx, req, notices)
	if err != nil {
		return nil, err
	}
	res := &Result{Plan: p.plan}
	p.audit.Record(false, s.runRecord(req, p))
	s.warnMissingProtections(notices)
	if req.OnPlan != nil {
		req.OnPlan(res.Plan)
	}
	n := req.Note
	runErr := s.execute(ctx, p.closure, &script.Request{
		RunID:      p.runID,
		Tier:       script.TierOf(req.Trigger),
		Directives: n.Directives,
		Truncated:  n.Truncated,
		Bundle:     n.Bundle != nil,
		Limits:     runLimits,
	}, p.host, func(o script.Outcome) {
		res.Outcomes = append(res.Outcomes, o)
		p.audit.Record(false, audit.Record{Event: audit.EventOutcome, Script: o.Name, Outcome: string(o.Kind), Limit: string(o.Limit),
			Capability: string(o.Capability), Host: o.Host})
		if req.OnOutcome != nil {
			req.OnOutcome(o)
		}
	})
	res.HostDiagnostics = p.host.Diagnostics()
	p.audit.Record(true, audit.Record{Event: audit.EventEnd, Outcome: endOutcome(ctx, runErr, res.Outcomes)})
	if err := p.audit.Err(); err != nil {
		res.HostDiagnostics = append(res.HostDiagnostics, "the audit trail could not be written: "+err.Error())
	}
	if p.store != nil {
		res.SaveErr = s.save(ctx, p, req, res)
	}
	if runErr != nil && len(res.Outcomes) < len(p.closure.blocks) && ctx.Err() == nil {
		return res, runErr
	}
	return res, nil
}

// save stores the run's cache and, unless ctx ended, its values.
func (s *Service) save(ctx context.Context, p *prepared, req Request, res *Result) error {
	key := req.Note.Key
	err := p.store.SaveCache(key, p.cache)
	if ctx.Err() == nil {
		err = errors.Join(err, p.store.RecordValues(key, res.Scripts, res.Outcomes, s.now(), script.TierOf(req.Trigger)))
	}
	return err
}

// prepared is everything decided before a run's first script starts.
type prepared struct {
	plan    Plan
	closure closure
	host    *host.Host
	cache   *host.MemoryCache
	runID   uint64
	audit   *audit.Run
	granted []string
	// store is where the run's values and cache go; nil for a note
	// without identity.
	store Store
}

// prepare reads the settings (with scriptsDisabled nothing else is read),
// builds the closure, decides the grants (a manual run may ask; an auto
// or scheduled run uses only a grant stored for exactly this code) and
// sets up the capability host.
func (s *Service) prepare(ctx context.Context, req Request, notices io.Writer) (*prepared, error) {
	settings, err := s.readSettings()
	if err != nil {
		return nil, err
	}
	n := req.Note
	tier := script.TierOf(req.Trigger)
	packs := pack.Load(settings.Packs)
	p := &prepared{closure: buildClosure(n), cache: host.NewMemoryCache()}
	p.closure.grants.Packs = packClosure(packs)

	var grantState state.Entries = &state.Memory{}
	docKey := grants.NoIdentity
	if n.Key != "" && s.Store != nil {
		p.store, docKey = s.Store, n.Key
		grantState = s.Store.Grants()
	}
	prep, err := grants.Prepare(ctx, tier, promptFor(req, tier, notices), grants.NewStore(grantState), docKey,
		p.closure.grants, p.closure.declared, bundleGrants(n.Bundle))
	if err != nil {
		return nil, err
	}
	if p.store != nil {
		if p.cache, err = p.store.Cache(n.Key, s.now()); err != nil {
			return nil, err
		}
	}
	p.runID = uint64(s.now().UnixNano())
	p.audit = audit.NewRun(s.Audit, audit.NewRunID(time.Unix(0, int64(p.runID))), docKey, prep.Key, req.Trigger == script.Manual)
	p.granted = prep.Decision.Hosts
	opts := s.hostOptions(req.Trigger, tier, settings, prep, p.cache, packs, n.Bundle)
	opts.Audit = p.audit
	p.host = host.New(opts)
	p.plan = planOf(prep, packs, p.closure)
	return p, nil
}

// readSettings reads the settings, none when the service has no reader;
// disabled scripts are ErrScriptsDisabled.
func (s *Service) readSettings() (config.Settings, error) {
	settings := config.Settings{}
	if s.Settings != nil {
		var err error
		if settings, err = s.Settings(); err != nil {
			return settings, err
		}
	}
	if settings.ScriptsDisabled {
		return settings, ErrScriptsDisabled
	}
	return settings, nil
}

// promptFor is who answers a run's questions: the request's prompter on a
// manual run, else no one (every question is refused, once noted).
func promptFor(req Request, tier script.Tier, notices io.Writer) grants.Prompter {
	if req.Prompter == nil || tier != script.TierManual {
		return &grants.NonInteractive{Out: notices}
	}
	return req.Prompter
}

// planOf is the plan shown before a run: its grant key, the scan's and
// the packs' diagnostics, and the scripts by name.
func planOf(prep grants.Prepared, packs *pack.Set, c closure) Plan {
	plan := Plan{Key: prep.Key}
	plan.Diagnostics = append(append(plan.Diagnostics, prep.Scan.Mismatch...), prep.Scan.Reasons...)
	for _, problem := range packs.Problems {
		plan.Diagnostics = append(plan.Diagnostics, problem.String())
	}
	for _, b := range c.blocks {
		plan.Scripts = append(plan.Scripts, b.Name)
	}
	return plan
}

// execute runs the blocks that can run and emits every block's outcome in
// document order: a block whose src= file could not be loaded fails with
// its own reason and is never handed to the isolate.
func (s *Service) execute(ctx context.Context, c closure, req *script.Request, h script.Host, emit func(script.Outcome)) error {
	var runnable []int
	for i, b := range c.blocks {
		if c.unloadable[i] == "" {
			req.Blocks = append(req.Blocks, b)
			runnable = append(runnable, i)
		}
	}
	next := 0
	flushTo := func(end int) {
		for ; next < end; next++ {
			if why := c.unloadable[next]; why != "" {
				emit(script.Outcome{Name: c.blocks[next].Name, Kind: value.ScriptError, Detail: why})
			}
		}
	}
	var err error
	if len(req.Blocks) > 0 {
		runner := s.Runner
		if runner == nil {
			runner = isolate.Run
		}
		ran := 0
		err = runner(ctx, req, h, func(o script.Outcome) {
			if ran < len(runnable) {
				flushTo(runnable[ran])
				next++
			}
			ran++
			emit(o)
		})
	}
	flushTo(len(c.blocks))
	return err
}

// runLimits are the limits of every run: the ceiling. The request carries
// them to the sandbox and the network client takes its body cap from them.
var runLimits = script.Ceiling

func (s *Service) hostOptions(trigger script.Trigger, tier script.Tier, settings config.Settings, prep grants.Prepared, cache *host.MemoryCache, packs *pack.Set, b *bundle.Bundle) host.Options {
	opts := host.Options{
		Trigger:         trigger,
		Hosts:           prep.Decision.Hosts,
		Listed:          prep.Scan.Hosts,
		BuildsAddresses: prep.Scan.RuntimeAddresses,
		Client: netclient.New(netclient.Options{
			Resolver:     s.Resolver,
			AllowPrivate: settings.AllowPrivateNetworkAddresses,
			Version:      s.Version,
			// The one body cap: the run's own limit, enforced where the
			// body is read.
			MaxBody: runLimits.FetchBytes,
		}),
		Cache: cache,
		Packs: packs,
		Now:   s.Now,
	}
	if b != nil {
		var granted []bundle.Grant
		for _, g := range prep.Decision.BundleGrants {
			granted = append(granted, bundle.Grant(g))
		}
		opts.Bundle = b.Session(granted, tier)
	}
	return opts
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// warnMissingProtections says once per service, plainly, which isolate
// protections this platform cannot give, so a weaker sandbox is never
// presented as the full one.
func (s *Service) warnMissingProtections(w io.Writer) {
	s.warnOnce.Do(func() {
		for _, m := range isolate.MissingProtections() {
			fmt.Fprintf(w, "markii: this system lacks a script sandbox protection: %s\n", m)
		}
	})
}

// bundleGrants are the bundle permissions a bundle's manifest asks for.
func bundleGrants(b *bundle.Bundle) []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, g := range b.Manifest().Bundle {
		out = append(out, string(g))
	}
	return out
}

// runRecord is the audit record that opens a run.
func (s *Service) runRecord(req Request, p *prepared) audit.Record {
	trigger := string(req.Trigger)
	if req.Origin != "" {
		trigger += " (" + req.Origin + ")"
	}
	rec := audit.Record{Event: audit.EventRun, Note: req.Note.Key, Closure: p.plan.Key, Trigger: trigger,
		Signature: req.Signature.Code(), Granted: p.granted}
	switch req.Signature.State {
	case signature.Trusted:
		rec.Signer = req.Signature.Principal
	case signature.UnknownKey, signature.Mismatch:
		rec.Signer = req.Signature.Fingerprint
	}
	return rec
}

// endOutcome is the closing record's summary of a run.
func endOutcome(ctx context.Context, runErr error, outcomes []script.Outcome) string {
	failed := 0
	for _, o := range outcomes {
		if o.Kind != value.Ok {
			failed++
		}
	}
	out := fmt.Sprintf("%d scripts, %d failed", len(outcomes), failed)
	switch {
	case ctx.Err() != nil:
		out += "; cancelled"
	case runErr != nil:
		out += "; the worker failed"
	}
	return out
}
