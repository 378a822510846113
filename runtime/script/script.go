// Package script holds the plain values that cross every boundary of a
// script run: the request the host builds, the limits, the capabilities the
// host performs, and the outcome of each script. It has no behaviour beyond
// clamping limits, so the engine, the isolate's wire protocol, the host and
// the viewer can all share it without depending on each other.
package script

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/value"
)

// Trigger is what started a run.
type Trigger string

// The three triggers of the Markii format.
const (
	Manual    Trigger = "manual"
	Auto      Trigger = "auto"
	Scheduled Trigger = "scheduled"
)

// Tier is what a run may do. Only a manual trigger yields TierManual.
type Tier string

// The two tiers.
const (
	TierManual Tier = "manual"
	TierAuto   Tier = "auto"
)

// TierOf maps a trigger to its tier; anything but Manual is TierAuto.
func TierOf(t Trigger) Tier {
	if t == Manual {
		return TierManual
	}
	return TierAuto
}

// Limits bounds one run. A zero field means "the ceiling".
type Limits struct {
	// Instructions is the Lua instruction budget per script.
	Instructions int64 `json:"instructions"`
	// ScriptTime is the in-sandbox wall clock per script.
	ScriptTime time.Duration `json:"scriptTime"`
	// Memory is the memory budget per run in bytes.
	Memory int64 `json:"memory"`
	// FetchBytes caps a fetched body and json.decode input.
	FetchBytes int64 `json:"fetchBytes"`
	// MarshalDepth and MarshalNodes cap every value crossing out of Lua
	// and every decoded value going in.
	MarshalDepth int `json:"marshalDepth"`
	MarshalNodes int `json:"marshalNodes"`
	// RunTime is the external watchdog for the whole note.
	RunTime time.Duration `json:"runTime"`
}

// Ceiling is the most any run may have: the reference defaults. Its
// FetchBytes is the network client's default body cap, and a run hands it
// to the client as Options.MaxBody.
var Ceiling = Limits{
	Instructions: 100_000_000,
	ScriptTime:   5 * time.Second,
	Memory:       32 << 20,
	FetchBytes:   netclient.DefaultMaxBody,
	MarshalDepth: 32,
	MarshalNodes: 20_000,
	RunTime:      15 * time.Second,
}

// Clamp returns l with every field that is zero, negative or above the
// ceiling replaced by the ceiling's value. A request can lower a limit but
// never raise one.
func (l Limits) Clamp() Limits {
	c := Ceiling
	l.Instructions = clamp(l.Instructions, c.Instructions)
	l.ScriptTime = clamp(l.ScriptTime, c.ScriptTime)
	l.Memory = clamp(l.Memory, c.Memory)
	l.FetchBytes = clamp(l.FetchBytes, c.FetchBytes)
	l.MarshalDepth = clamp(l.MarshalDepth, c.MarshalDepth)
	l.MarshalNodes = clamp(l.MarshalNodes, c.MarshalNodes)
	l.RunTime = clamp(l.RunTime, c.RunTime)
	return l
}

func clamp[T int | int64 | time.Duration](v, ceiling T) T {
	if v <= 0 || v > ceiling {
		return ceiling
	}
	return v
}

// MaxNoteBytes is the largest note markii reads (a single-file note or
// stdin). The isolate's frames are sized from it, so that every script of
// such a note can be handed to the sandbox.
const MaxNoteBytes = 16 << 20

// Block is one script to run. Source is the code (for a `src=` fence, the
// host has already resolved the file's text).
type Block struct {
	Name   string `json:"name"`
	Lang   string `json:"lang"`
	Src    string `json:"src,omitempty"`
	Source string `json:"source"`
}

// Attr is one attribute of a listed directive.
type Attr struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Directive is one entry of the doc.directives listing, already capped and
// cleaned by the host.
type Directive struct {
	Name  string `json:"name"`
	Form  string `json:"form"` // inline, leaf or container
	Attrs []Attr `json:"attrs"`
	Text  string `json:"text"`
}

// Request is one run of a note's scripts.
type Request struct {
	// RunID is a monotonic identifier the host assigns.
	RunID uint64 `json:"runId"`
	Tier  Tier   `json:"tier"`
	// Blocks are the scripts in document order.
	Blocks []Block `json:"blocks"`
	// Directives is the doc.directives listing; Truncated is doc.truncated.
	Directives []Directive `json:"directives"`
	Truncated  bool        `json:"truncated"`
	// Bundle reports whether the note is a bundle (the bundle table then
	// forwards to the host; otherwise it denies).
	Bundle bool   `json:"bundle"`
	Limits Limits `json:"limits"`
}

// LimitKind says which limit a run exceeded.
type LimitKind string

// The limits a run can exceed.
const (
	LimitInstructions LimitKind = "instructions"
	LimitTimeout      LimitKind = "timeout"
	LimitMemory       LimitKind = "memory"
)

// Capability names a host-performed power.
type Capability string

// The capabilities a script can ask the host for.
const (
	CapNet     Capability = "net"
	CapBundle  Capability = "bundle"
	CapCache   Capability = "cache"
	CapRequire Capability = "require"
)

// DenialReason says why a capability was refused. The zero value is the
// common case: the capability was not granted for this code (a grant
// could allow it).
type DenialReason string

// DenialUngrantable is a net request to a host that no grant for this
// code can allow: the script builds the address at run time and the host
// is written nowhere in the code as a literal the scan can list, so there
// is nothing to ask about.
const DenialUngrantable DenialReason = "ungrantable"

// UngrantableAdvice is what a note's author can do about an ungrantable
// request to host ("" when unknown).
func UngrantableAdvice(host string) string {
	if host == "" {
		host = "host"
	}
	return "cannot be granted: this script builds its address at run time; write the URL (at least `https://" + host + "/`) as a literal"
}

// Outcome is the result of one script. It is the one value that carries a
// script's end from the engine, across the isolate's wire, through the
// run service, to the viewer, the command line and the value store;
// display text is made from it only where it is shown (see Summary).
type Outcome struct {
	Name string     `json:"name"`
	Kind value.Kind `json:"kind"`
	// Limit is set when Kind is LimitExceeded.
	Limit LimitKind `json:"limit,omitempty"`
	// Capability and Host are set for a denial: what was refused and, for
	// net, the host the script attempted. For OutcomeUnknown, Capability
	// is net and Host is the host the request went to.
	Capability Capability `json:"capability,omitempty"`
	Host       string     `json:"host,omitempty"`
	// Reason is why a denial was made (see DenialReason).
	Reason DenialReason `json:"reason,omitempty"`
	// Detail is the full message for diagnostics. It is never drawn in a
	// document.
	Detail string `json:"detail,omitempty"`
	// Value is the script's marshalled return value when Kind is Ok.
	Value json.RawMessage `json:"value,omitempty"`
	// Net is set when the script failed because a network request the
	// host made failed (and the script did not catch it): how it failed,
	// from the host's own record of the call. Capability is then net and
	// Host the host the request went to.
	Net *NetFailure `json:"net,omitempty"`
}

// NetFailure is how a network request the host made for a script failed:
// the network client's kind, and whether a whole request had reached a
// server before it failed (see netclient.Error).
type NetFailure struct {
	Kind netclient.ErrorKind `json:"kind"`
	Sent bool                `json:"sent,omitempty"`
	// Cause is why a request that never reached a server did not get
	// through (see netclient.Error.Cause); "" when it reached one.
	Cause netclient.Cause `json:"cause,omitempty"`
}

// FailedKind is the outcome kind of a script that failed because of the
// network request f describes: value.Offline when the request never
// reached a server (the name did not resolve, the connection was refused,
// timed out or reset, TLS failed), else value.ScriptError. It is decided
// from the host's record of the call, never from any text.
func (f *NetFailure) FailedKind() value.Kind {
	if f != nil && f.Cause != "" && !f.Sent {
		return value.Offline
	}
	return value.ScriptError
}

// NetFailureOf is the network failure err carries, or nil when no
// *netclient.Error is in its chain.
func NetFailureOf(err error) *NetFailure {
	var ne *netclient.Error
	if !errors.As(err, &ne) {
		return nil
	}
	return &NetFailure{Kind: ne.Kind, Sent: ne.Sent, Cause: ne.Cause}
}

// Summary is the short, display-ready line for o, built from its typed
// fields and never from Detail: the kind's phrase with the limit, or the
// capability and host a denial or a lost request concerns. Host text comes
// from the script, so the edge that shows Summary sanitizes it.
func (o Outcome) Summary() string {
	if s := o.specificSummary(); s != "" {
		return s
	}
	return o.Kind.Phrase()
}

// specificSummary is Summary's line when o's typed fields say more than
// its kind's phrase, else "".
func (o Outcome) specificSummary() string {
	switch o.Kind {
	case value.CapabilityDenied:
		return o.denialSummary()
	case value.LimitExceeded:
		if o.Limit != "" {
			return "limit exceeded (" + string(o.Limit) + ")"
		}
	case value.OutcomeUnknown:
		if o.Host != "" {
			return value.UnknownOutcomePhrase + " (net: " + o.Host + ")"
		}
	case value.Offline:
		if o.Net != nil && o.Host != "" {
			return "offline: " + o.Net.Cause.Sentence(o.Host)
		}
	}
	return ""
}

// denialSummary is the line of a denial: the advice for a host that can
// never be granted, else the permission it needs.
func (o Outcome) denialSummary() string {
	switch {
	case o.Capability == CapNet && o.Reason == DenialUngrantable:
		return UngrantableAdvice(o.Host)
	case o.Capability == CapNet && o.Host != "":
		return "needs permission (net: " + o.Host + ")"
	case o.Capability != "":
		return "needs permission (" + string(o.Capability) + ")"
	}
	return ""
}

// FetchRequest is a network call a script asks the host to make.
type FetchRequest struct {
	Method string `json:"method"` // GET, POST or PATCH
	URL    string `json:"url"`
	Body   string `json:"body,omitempty"`
}

// FetchResponse is what the host hands back. Host is the canonical host
// the request went to, as the network client worked it out.
type FetchResponse struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
	Host   string `json:"host,omitempty"`
}

// Denial is the error a Host returns when it refuses a capability. The host
// records it out of band; the engine turns it into a Lua error whose text
// carries no authority.
type Denial struct {
	Capability  Capability
	Host        string
	TierBlocked bool
	// Why is the typed reason for the refusal (zero: not granted).
	Why    DenialReason
	Reason string
	// Err is the refusal's cause when another layer made it (the network
	// client's *netclient.Error, a bundle path error); nil otherwise.
	Err error
}

func (d *Denial) Error() string { return d.Reason }

// Unwrap returns the refusal's cause (nil when there is none).
func (d *Denial) Unwrap() error { return d.Err }

// Record is the refusal as a record keeps it: a copy of d whose
// capability and host, when d leaves them empty, are the call's c and
// host. Every record of a refusal is made by it.
func (d *Denial) Record(c Capability, host string) Denial {
	rec := *d
	if rec.Capability == "" {
		rec.Capability = c
	}
	if rec.Host == "" {
		rec.Host = host
	}
	return rec
}

// UnknownOutcome is the error a Host returns when an effectful request was
// sent and then timed out or lost its connection before the answer came
// back. It is never retried; the engine reports the script's outcome as
// OutcomeUnknown.
type UnknownOutcome struct {
	Host   string
	Reason string
	// Err is the network client's error for the lost answer, when known.
	Err error
}

func (u *UnknownOutcome) Error() string { return u.Reason }

// Unwrap returns the cause (nil when there is none).
func (u *UnknownOutcome) Unwrap() error { return u.Err }

// Host performs every capability for the engine. Every method may return a
// *Denial; any other error is a script error.
type Host interface {
	Fetch(ctx context.Context, r FetchRequest) (FetchResponse, error)
	BundleRead(ctx context.Context, path string) (data []byte, found bool, err error)
	BundleExists(ctx context.Context, path string) (bool, error)
	BundleWrite(ctx context.Context, path string, data []byte) error
	// CacheGet returns the stored value for key and when it was stored.
	CacheGet(ctx context.Context, key string) (value json.RawMessage, storedAt time.Time, found bool, err error)
	CachePut(ctx context.Context, key string, value json.RawMessage) error
	// Require returns a module's Lua source text.
	Require(ctx context.Context, name string) (string, error)
}
