package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/host"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/pack"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
)

// errScriptsDisabled is returned when the user's settings turn scripts off.
var errScriptsDisabled = errors.New("scripts are turned off in your markii settings (scriptsDisabled); nothing was run")

// loadSettings reads the user's own settings; tests point it elsewhere.
var loadSettings = config.Load

// resolverForRuns answers DNS for script requests; production uses the
// system resolver.
var resolverForRuns netclient.Resolver

// runPlan is everything decided before a note's scripts start: the blocks
// (src= files resolved), the host that performs their capabilities, and
// the diagnostics of the grant decision.
type runPlan struct {
	Blocks   []script.Block
	Host     *host.Host
	Prepared grants.Prepared
	// Diagnostics are host-side lines for --verbose: declaration
	// mismatches, why addresses count as built at run time.
	Diagnostics []string
	// finish persists what the run produced besides values (the cache).
	finish func()
}

// Finish persists the run's cache entries. Call it after the run.
func (p *runPlan) Finish() {
	if p.finish != nil {
		p.finish()
	}
}

// consentPrompter is how a manual run started from the command line asks
// for grants: on the terminal when stdin and errOut are both terminals;
// otherwise nil, and every prompt is denied without asking.
func consentPrompter(stdin io.Reader, errOut io.Writer) grants.Prompter {
	if isTerminal(stdin) && isTerminal(errOut) {
		return grants.NewTerminalPrompter(stdin, errOut)
	}
	return nil
}

// planRun prepares a run of n's scripts for trigger. It reads the user's
// settings first: with scriptsDisabled it returns errScriptsDisabled before
// any grant is read. A manual run asks prompter (nil: every prompt is
// denied without asking and the reason is printed once to errOut); an auto
// or scheduled run never asks and uses only a grant stored for exactly
// this code.
func planRun(ctx context.Context, n *note, doc *render.Document, trigger script.Trigger, prompter grants.Prompter, errOut io.Writer) (*runPlan, error) {
	settings, err := loadSettings()
	if err != nil {
		return nil, failf("%v", err)
	}
	if settings.ScriptsDisabled {
		return nil, errScriptsDisabled
	}
	tier := script.TierOf(trigger)
	packs := pack.Load(settings.Packs)
	blocks, closure, declared := noteClosure(n, doc)
	closure.Packs = packClosure(packs)
	var bundleGrants []string
	if n.Bundle != nil {
		for _, g := range n.Bundle.Manifest().Bundle {
			bundleGrants = append(bundleGrants, string(g))
		}
	}

	var st grants.State = &grants.MemoryState{}
	var devState *state.Store
	docKey := n.Key
	if docKey != "" {
		if dir, err := stateDir(); err == nil {
			devState = state.Open(dir)
			st = devState
		}
	} else {
		docKey = "stdin"
	}
	if prompter == nil || tier != script.TierManual {
		prompter = &grants.NonInteractive{Out: errOut}
	}
	prep, err := grants.Prepare(ctx, tier, prompter, grants.NewStore(st), docKey, closure, declared, bundleGrants)
	if err != nil {
		return nil, failf("the grant prompt failed: %v", err)
	}

	var cache *host.MemoryCache
	if devState != nil {
		cache = host.LoadCache(devState, docKey, time.Now())
	} else {
		cache = host.NewMemoryCache()
	}
	opts := host.Options{
		Trigger: trigger,
		Hosts:   prep.Decision.Hosts,
		Client: netclient.New(netclient.Options{
			Resolver:     resolverForRuns,
			AllowPrivate: settings.AllowPrivateNetworkAddresses,
			Version:      Version,
		}),
		Cache: cache,
		Packs: packs,
	}
	if n.Bundle != nil {
		var granted []bundle.Grant
		for _, g := range prep.Decision.BundleGrants {
			granted = append(granted, bundle.Grant(g))
		}
		opts.Bundle = n.Bundle.Session(granted, tier)
	}
	plan := &runPlan{Blocks: blocks, Host: host.New(opts), Prepared: prep}
	plan.Diagnostics = append(plan.Diagnostics, prep.Scan.Mismatch...)
	plan.Diagnostics = append(plan.Diagnostics, prep.Scan.Reasons...)
	plan.finish = func() {
		if devState != nil {
			_ = host.SaveCache(devState, docKey, cache)
		}
	}
	return plan, nil
}

// noteClosure lists a note's executable code: the blocks to run (a src=
// block carries its file's text), the closure for the grant key and the
// scan (every block, every src= file, and every Lua file a require could
// load from the bundle: *.lua under scripts/, assets/ and .cache/), and
// what the note declares about its network reach.
func noteClosure(n *note, doc *render.Document) ([]script.Block, grants.Closure, grants.Declared) {
	var blocks []script.Block
	var c grants.Closure
	var d grants.Declared
	modules := map[string]string{}
	for _, s := range doc.Scripts {
		gs := grants.Script{Name: s.Name, Lang: s.Lang, Src: s.Src, HasSrc: s.HasSrc}
		b := script.Block{Name: s.Name, Lang: s.Lang, Src: s.Src, Source: s.Source}
		if s.HasSrc {
			text, ok := "", false
			if n.Bundle != nil {
				if t, err := n.Bundle.Resolve(s.Src); err == nil {
					text, ok = t, true
				}
			}
			gs.Unresolved = !ok
			b.Source = text
			if ok {
				modules[s.Src] = text
			}
		} else {
			gs.Code = s.Source
		}
		c.Scripts = append(c.Scripts, gs)
		blocks = append(blocks, b)
		d.Hosts = append(d.Hosts, s.Permissions...)
	}
	if n.Bundle != nil {
		files := n.Bundle.Files()
		for _, name := range files.Names() {
			top, _, _ := strings.Cut(name, "/")
			if path.Ext(name) != ".lua" || (top != "scripts" && top != "assets" && top != ".cache") {
				continue
			}
			if data, ok := files.Get(name); ok {
				modules[name] = string(data)
			}
		}
		m := n.Bundle.Manifest()
		d.Hosts = append(d.Hosts, m.NetGet...)
		d.Hosts = append(d.Hosts, m.NetPost...)
	}
	for p, src := range modules {
		c.BundleModules = append(c.BundleModules, grants.Module{Path: p, Source: src})
	}
	return blocks, c, d
}

// packClosure lists every installed pack with its module sources: a
// script can require any of them, so all of them are part of the code a
// grant is given for.
func packClosure(set *pack.Set) []grants.Pack {
	var out []grants.Pack
	for _, name := range set.Names() {
		p, _ := set.Get(name)
		gp := grants.Pack{Namespace: p.Name, Version: p.Version, ModulesKnown: true}
		for path, src := range p.Modules() {
			gp.Modules = append(gp.Modules, grants.Module{Path: path, Source: src})
		}
		out = append(out, gp)
	}
	return out
}

// isTerminal reports whether a stream is an *os.File on a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && f != nil && term.IsTerminal(f.Fd())
}
