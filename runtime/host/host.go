// Package host is the host side of a script run: the capability broker
// that performs every request a script makes. It checks the run's tier
// (which comes from the trigger only) and the run's grants, performs
// fetches through the pinned client, records every refusal out of band
// with the host actually attempted, delegates bundle files to the bundle
// session and keeps cache entries.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/sanitize"
)

// Bundle is one run's view of a bundle (runtime/bundle's Session satisfies
// it): jailed reads, exists, .cache/ writes and bundle-local modules. Its
// refusals are *script.Denial values.
type Bundle interface {
	Read(name string) ([]byte, bool, error)
	Exists(name string) (bool, error)
	Write(name string, data []byte) error
	Module(name string) (string, error)
}

// Packs resolves pack-namespaced modules (`require "ana/http"`).
type Packs interface {
	Module(pack, path string) (string, error)
}

// Cache keeps cache.get entries.
type Cache interface {
	Get(key string) (value json.RawMessage, storedAt time.Time, found bool)
	Put(key string, value json.RawMessage, storedAt time.Time) error
}

// Options configures a Host for one run.
type Options struct {
	// Trigger started the run; it alone decides the tier.
	Trigger script.Trigger
	// Hosts are the hosts the run may reach (from the grant decision).
	Hosts []string
	// Listed are the hosts the static scan could list for this code, and
	// BuildsAddresses says whether the code also builds addresses at run
	// time (grants.Result). A refused request to a host not listed, from
	// code that builds addresses, is DenialUngrantable: no grant for this
	// code could allow it.
	Listed          []string
	BuildsAddresses bool
	// Client performs requests; nil refuses every request.
	Client *netclient.Client
	// Bundle is the bundle session, nil when the note is not a bundle.
	Bundle Bundle
	// Packs resolves pack modules; nil refuses pack requires.
	Packs Packs
	// Cache keeps cache entries; nil keeps them in memory for this run.
	Cache Cache
	// Now is the clock for cache entries; nil means time.Now.
	Now func() time.Time
	// Audit records each request, decision and effect in the audit trail
	// from the host's own records; nil records nothing.
	Audit *audit.Run
}

// Host implements script.Host. It is safe for concurrent use.
type Host struct {
	tier    script.Tier
	granted map[string]bool
	// listed is nil unless the code builds addresses at run time.
	listed map[string]bool
	client *netclient.Client
	bundle Bundle
	packs  Packs
	cache  Cache
	now    func() time.Time
	audit  *audit.Run

	mu      sync.Mutex
	denials []script.Denial
	notes   []string
}

var _ script.Host = (*Host)(nil)

// New returns a Host for one run.
func New(o Options) *Host {
	h := &Host{
		tier:    script.TierOf(o.Trigger),
		granted: map[string]bool{},
		client:  o.Client,
		bundle:  o.Bundle,
		packs:   o.Packs,
		cache:   o.Cache,
		now:     o.Now,
		audit:   o.Audit,
	}
	for _, g := range o.Hosts {
		h.granted[g] = true
	}
	if o.BuildsAddresses {
		h.listed = map[string]bool{}
		for _, l := range o.Listed {
			h.listed[l] = true
		}
	}
	if h.cache == nil {
		h.cache = NewMemoryCache()
	}
	if h.now == nil {
		h.now = time.Now
	}
	return h
}

// Tier is the run's tier.
func (h *Host) Tier() script.Tier { return h.tier }

// Denials returns every refusal made so far, in order, each with the
// capability and (for net) the host actually attempted. The record lives
// here, out of the script's reach.
func (h *Host) Denials() []script.Denial {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]script.Denial(nil), h.denials...)
}

// Diagnostics returns notes for the diagnostics surface: retried requests
// and outcomes that could not be known.
func (h *Host) Diagnostics() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.notes...)
}

// deny keeps a refusal of a network request (Fetch records it in the
// audit trail with the request).
func (h *Host) deny(d script.Denial) *script.Denial { return h.denyOp("", "", d) }

// denyOp keeps a refusal of the call op (bundle.read, require, ...) on
// path and records it in the audit trail.
func (h *Host) denyOp(op, path string, d script.Denial) *script.Denial {
	h.mu.Lock()
	h.denials = append(h.denials, d)
	h.mu.Unlock()
	h.auditDenial(op, path, d)
	return &d
}

// auditDenial records a refusal other than a request's (Fetch records
// those with the request), named by the call that was refused.
func (h *Host) auditDenial(op, path string, d script.Denial) {
	if d.Capability == script.CapNet {
		return
	}
	if op == "" {
		op = string(d.Capability)
	}
	h.audit.Record(false, audit.Record{Event: audit.EventBundle, Capability: op, Path: clip(path),
		Decision: audit.Denied, Failure: audit.FailDenied, Reason: d.Reason})
}

// auditAllowed records a bundle or module call the host allowed, with
// how many bytes it handed the script.
func (h *Host) auditAllowed(op, path string, n int) {
	h.audit.Record(false, audit.Record{Event: audit.EventBundle, Capability: op, Path: clip(path),
		Decision: audit.Allowed, BytesIn: int64(n)})
}

func (h *Host) note(format string, a ...any) {
	h.mu.Lock()
	h.notes = append(h.notes, fmt.Sprintf(format, a...))
	h.mu.Unlock()
}

// Fetch performs a script's request: GET at every tier, POST and PATCH only
// at the manual tier, always through the pinned client and only to granted
// hosts. Each request is recorded in the audit trail with its decision and
// result; a POST or PATCH is claimed in the effect ledger before it is
// sent, and one whose earlier claim is still open (its outcome unknown) is
// not sent again except on a run a person started. A refusal is a
// *script.Denial and a lost effectful answer a *script.UnknownOutcome, each
// wrapping the client's *netclient.Error; any other failure of the request
// is that *netclient.Error itself, so its kind and cause reach the caller.
func (h *Host) Fetch(ctx context.Context, r script.FetchRequest) (script.FetchResponse, error) {
	rec := requestRecord(r)
	if r.Method == http.MethodPost || r.Method == http.MethodPatch {
		if err := h.claim(r, &rec); err != nil {
			h.finish(rec, script.FetchResponse{}, err)
			return script.FetchResponse{}, err
		}
	}
	resp, err := h.fetch(ctx, r, &rec)
	h.finish(rec, resp, err)
	return resp, err
}

// requestRecord is the audit record of a request before it is decided,
// named by the canonical host the client decides the grant for, so the
// trail, the denial and the grant name one host.
func requestRecord(r script.FetchRequest) audit.Record {
	path, query := audit.SplitURL(r.URL)
	rec := audit.Record{Event: audit.EventRequest, Capability: string(script.CapNet), Method: r.Method,
		Host: netclient.HostOf(r.URL), Path: path, Query: query}
	if r.Method != http.MethodGet {
		rec.BytesOut = int64(len(r.Body))
	}
	return rec
}

// claim claims an effectful request in the ledger before it is sent. On a
// run that may not send it, an open claim of the same effect is only
// noted in the record.
func (h *Host) claim(r script.FetchRequest, rec *audit.Record) error {
	if h.tier != script.TierManual || h.client == nil {
		if c := h.audit.OpenClaim(*rec, []byte(r.Body)); c != nil {
			rec.Failure, rec.Reason = audit.FailClaimed, c.Error()
		}
		return nil
	}
	id, err := h.audit.Claim(*rec, []byte(r.Body))
	var claimed *audit.ClaimedError
	switch {
	case errors.As(err, &claimed):
		// The open claim is someone else's to settle.
		rec.Failure = audit.FailClaimed
		return h.deny(script.Denial{Capability: script.CapNet, Host: rec.Host, Reason: claimed.Error()})
	case err != nil:
		return h.deny(script.Denial{Capability: script.CapNet, Host: rec.Host,
			Reason: "the request was not sent because the audit trail could not record it: " + err.Error()})
	}
	rec.Effect = id
	return nil
}

// finish records what came of a request and settles its claim.
func (h *Host) finish(rec audit.Record, resp script.FetchResponse, err error) {
	if h.audit == nil {
		return
	}
	known := true
	var d *script.Denial
	var unknown *script.UnknownOutcome
	switch {
	case err == nil:
		rec.Decision, rec.Status, rec.BytesIn = audit.Allowed, resp.Status, int64(len(resp.Body))
	case errors.As(err, &d):
		rec.Decision, rec.Reason = audit.Denied, d.Reason
		if rec.Failure == "" {
			rec.Failure = audit.FailDenied
		}
	case errors.As(err, &unknown):
		rec.Decision, rec.Failure, known = audit.Allowed, audit.FailUnknown, false
	default:
		rec.Decision = audit.Allowed
		if rec.Failure == "" {
			rec.Failure = audit.FailError
		}
	}
	h.audit.Record(false, rec)
	h.audit.Settle(rec, known)
}

// failureOf is the audit failure kind of a network error.
func failureOf(k netclient.ErrorKind) (audit.Failure, string) {
	switch k {
	case netclient.TooLarge:
		return audit.FailLimit, "response size"
	case netclient.Timeout:
		return audit.FailOffline, "time"
	case netclient.Network:
		return audit.FailOffline, ""
	case netclient.OutcomeUnknown:
		return audit.FailUnknown, ""
	}
	return audit.FailDenied, ""
}

func (h *Host) fetch(ctx context.Context, r script.FetchRequest, rec *audit.Record) (script.FetchResponse, error) {
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost, http.MethodPatch:
		if h.tier != script.TierManual {
			return script.FetchResponse{}, h.deny(script.Denial{Capability: script.CapNet, Host: rec.Host, TierBlocked: true,
				Reason: "a " + r.Method + " request is only available on a manual run"})
		}
	default:
		return script.FetchResponse{}, h.deny(script.Denial{Capability: script.CapNet, Host: rec.Host,
			Reason: "the method " + r.Method + " is not available to scripts"})
	}
	if h.client == nil {
		return script.FetchResponse{}, h.deny(script.Denial{Capability: script.CapNet, Host: rec.Host,
			Reason: "network access is not available to this run"})
	}
	var body []byte
	if r.Method != http.MethodGet {
		body = []byte(r.Body)
	}
	resp, err := h.client.Do(ctx, netclient.Request{
		Method:  r.Method,
		URL:     r.URL,
		Body:    body,
		Granted: func(host string) bool { return h.granted[host] },
	})
	if err != nil {
		var ne *netclient.Error
		if !errors.As(err, &ne) {
			return script.FetchResponse{}, err
		}
		if rec.Failure == "" {
			rec.Failure, rec.Limit = failureOf(ne.Kind)
		}
		return script.FetchResponse{}, h.fetchFailure(r, ne)
	}
	if resp.Retried {
		h.note("a GET to %s failed once on the network and was retried", resp.Host)
	}
	return script.FetchResponse{Status: resp.Status, Body: string(resp.Body), Host: resp.Host}, nil
}

// fetchFailure records and returns the error for a request the client
// could not complete, named by the host the client worked out (the URL's,
// when the client refused it before naming one).
func (h *Host) fetchFailure(r script.FetchRequest, ne *netclient.Error) error {
	if ne.Host == "" {
		ne.Host = netclient.HostOf(r.URL)
	}
	host := ne.Host
	if ne.Retried {
		h.note("a GET to %s failed, was retried once, and failed again", host)
	}
	switch {
	case ne.Kind == netclient.OutcomeUnknown:
		h.note("a %s to %s was sent but its answer was lost; it may or may not have taken effect, and it was not retried", r.Method, host)
		return &script.UnknownOutcome{Host: host, Reason: ne.Msg, Err: ne}
	case ne.Kind == netclient.NotGranted && h.listed != nil && !h.listed[host]:
		return h.deny(script.Denial{Capability: script.CapNet, Host: host,
			Why: script.DenialUngrantable, Reason: ne.Msg + "; it " + script.UngrantableAdvice(host), Err: ne})
	case ne.Policy():
		return h.deny(script.Denial{Capability: script.CapNet, Host: host, Reason: ne.Msg, Err: ne})
	}
	// The network or the server failed: the client's typed error, its
	// kind and cause, goes back as it is.
	return ne
}

// BundleRead reads a bundle file through the bundle session.
func (h *Host) BundleRead(_ context.Context, path string) ([]byte, bool, error) {
	if h.bundle == nil {
		return nil, false, h.denyOp("bundle.read", path, noBundle())
	}
	data, found, err := h.bundle.Read(path)
	if err == nil {
		h.auditAllowed("bundle.read", path, len(data))
	}
	return data, found, h.record(err, script.CapBundle, "bundle.read", path)
}

// BundleExists checks a bundle path through the bundle session.
func (h *Host) BundleExists(_ context.Context, path string) (bool, error) {
	if h.bundle == nil {
		return false, h.denyOp("bundle.exists", path, noBundle())
	}
	ok, err := h.bundle.Exists(path)
	if err == nil {
		h.auditAllowed("bundle.exists", path, 0)
	}
	return ok, h.record(err, script.CapBundle, "bundle.exists", path)
}

// BundleWrite writes a .cache/ file through the bundle session, at the
// manual tier only. The write is claimed in the effect ledger first and
// recorded with its result.
func (h *Host) BundleWrite(ctx context.Context, path string, data []byte) error {
	rec := audit.Record{Event: audit.EventBundle, Capability: "bundle.write", Path: clip(path), BytesOut: int64(len(data))}
	if h.tier == script.TierManual && h.bundle != nil {
		id, err := h.audit.Claim(rec, data)
		var claimed *audit.ClaimedError
		if errors.As(err, &claimed) {
			rec.Failure = audit.FailClaimed
			return h.denyOp("bundle.write", path, script.Denial{Capability: script.CapBundle, Reason: claimed.Error()})
		} else if err != nil {
			return h.denyOp("bundle.write", path, script.Denial{Capability: script.CapBundle,
				Reason: "bundle.write was not done because the audit trail could not record it: " + err.Error()})
		}
		rec.Effect = id
	}
	err := h.bundleWrite(ctx, path, data)
	if rec.Effect != "" {
		rec.Event, rec.Decision = audit.EventSettle, audit.Allowed
		if err != nil {
			rec.Failure, rec.Reason = audit.FailError, clip(err.Error())
		}
		h.audit.Settle(rec, true)
	}
	return err
}

func (h *Host) bundleWrite(_ context.Context, path string, data []byte) error {
	if h.tier != script.TierManual {
		return h.denyOp("bundle.write", path, script.Denial{Capability: script.CapBundle, TierBlocked: true,
			Reason: "writing is only available on a manual run"})
	}
	if h.bundle == nil {
		return h.denyOp("bundle.write", path, noBundle())
	}
	return h.record(h.bundle.Write(path, data), script.CapBundle, "bundle.write", path)
}

// CacheGet returns a stored cache entry.
func (h *Host) CacheGet(_ context.Context, key string) (json.RawMessage, time.Time, bool, error) {
	v, at, ok := h.cache.Get(key)
	return v, at, ok, nil
}

// CachePut stores a cache entry stamped with the host's clock. Cache writes
// are allowed at every tier.
func (h *Host) CachePut(_ context.Context, key string, value json.RawMessage) error {
	if !json.Valid(value) {
		return errors.New("cache.get: the value to store is not valid JSON")
	}
	err := h.cache.Put(key, value, h.now())
	var over *state.OverCapError
	if errors.As(err, &over) {
		h.note("cache.get: the entry %q was not cached: %v", key, err)
	}
	return err
}

// Require returns a module's source: bundle-local names (scripts/,
// assets/, .cache/) through the bundle session, anything else from a pack.
func (h *Host) Require(_ context.Context, name string) (string, error) {
	first, rest, _ := strings.Cut(name, "/")
	switch first {
	case "scripts", "assets", ".cache":
		if h.bundle == nil {
			return "", h.denyOp("require", name, script.Denial{Capability: script.CapRequire,
				Reason: "require of a bundle module is only available in a bundle"})
		}
		src, err := h.bundle.Module(name)
		if err == nil {
			h.auditAllowed("require", name, len(src))
		}
		return src, h.record(err, script.CapRequire, "require", name)
	}
	if h.packs == nil || rest == "" {
		return "", h.denyOp("require", name, script.Denial{Capability: script.CapRequire,
			Reason: fmt.Sprintf("require: no pack provides %q", clip(name))})
	}
	src, err := h.packs.Module(first, rest)
	if err == nil {
		h.auditAllowed("require", name, len(src))
	}
	return src, h.record(err, script.CapRequire, "require", name)
}

// record notes a denial a delegate returned to the call op on path and
// passes err through.
func (h *Host) record(err error, c script.Capability, op, path string) error {
	var d *script.Denial
	if errors.As(err, &d) {
		rec := *d
		if rec.Capability == "" {
			rec.Capability = c
		}
		h.mu.Lock()
		h.denials = append(h.denials, rec)
		h.mu.Unlock()
		h.auditDenial(op, path, rec)
	}
	return err
}

// noBundle refuses a bundle call in a note that is not a bundle (the
// engine names the call).
func noBundle() script.Denial {
	return script.Denial{Capability: script.CapBundle, Reason: "this note is not a bundle"}
}

// clip keeps a name printable and short for records.
func clip(s string) string {
	s = sanitize.Line(s)
	if len(s) > 253 {
		s = s[:253]
	}
	return s
}
