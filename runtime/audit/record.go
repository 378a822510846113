// Package audit keeps markii's audit trail and effect ledger: a JSON Lines
// file in the state directory (audit.jsonl, mode 0600) to which the parent
// process, and only it, appends one record for every run, every
// capability decision and every script outcome, from the host's own
// records. A worker never writes it, and nothing a script returns becomes
// a record.
//
// Each record is one line of JSON. Strings pass encoding/json, which
// escapes every control character, so no host, path or reason a note
// supplies can end a line early or add a field. Records are appended
// under the device state's lock (runtime/state), each append one write of
// whole lines, so concurrent markii processes never interleave or lose
// one. Every record carries Prev, the SHA-256 of the line before it (in
// this file or the file rotated before it), and a small chain head
// (audit-head.json, rewritten under the same lock with every append) holds
// the current file's size and the hash of its last line, so an edited,
// removed, added or torn line shows up in Verify, the last one included.
// This is evidence, not protection: whoever can write the files can also
// rewrite the chain.
//
// The trail is never read on the run path: an append opens it write-only,
// takes the previous hash from the chain head and stats the file for its
// size. Only when the head does not describe the file (a trail from an
// older markii, a crash between a record and its head, a hand edit) does
// an append read the file's last 64 KiB instead. When the file reaches
// Options.MaxBytes it is renamed to audit.1.jsonl (older ones shift up to
// Options.Keep and the oldest is removed); nothing is copied.
//
// The effect ledger is the same trail: an effectful request (net.post,
// net.patch, bundle.write) is claimed by a "claim" record, synced to disk
// before the request is sent, and settled by a "settle" record. A claim
// whose outcome could not be known stays open in a small index of open
// claims (audit-effects.json, rewritten under the same lock, and derived
// from the trail), and while it is open the same effect is refused to
// every run except one a person starts by hand.
package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"
)

// Version is the record format's version (Record.V).
const Version = 1

// Event is what a record is about.
type Event string

// The events of the trail.
const (
	// EventRun opens a run: the note, its code, the trigger, the
	// signature status and the hosts the grant decision allowed.
	EventRun Event = "run"
	// EventRequest is one network request and its decision.
	EventRequest Event = "request"
	// EventBundle is one bundle capability decision (write, read refused).
	EventBundle Event = "bundle"
	// EventClaim claims an effect before it is performed.
	EventClaim Event = "claim"
	// EventSettle records what came of a claimed effect.
	EventSettle Event = "settle"
	// EventOutcome is one script's outcome.
	EventOutcome Event = "outcome"
	// EventEnd closes a run.
	EventEnd Event = "end"
)

// Decision is a capability decision.
type Decision string

// The decisions.
const (
	Allowed Decision = "allowed"
	Denied  Decision = "denied"
)

// Failure is why a request had no response.
type Failure string

// The failure kinds of a request.
const (
	FailOffline Failure = "offline"
	FailDenied  Failure = "denied"
	FailLimit   Failure = "limit"
	// FailUnknown: the request was sent and its answer lost; it may or
	// may not have taken effect.
	FailUnknown Failure = "outcome-unknown"
	// FailClaimed: an earlier claim of the same effect is still open.
	FailClaimed Failure = "claimed"
	FailError   Failure = "error"
)

// Record is one line of the trail. It never holds a request or response
// body, a header, a cookie or a credential: a query string is reduced to
// its hash.
type Record struct {
	V     int       `json:"v"`
	Time  time.Time `json:"time"`
	Run   string    `json:"run"`
	Event Event     `json:"event"`

	Note      string   `json:"note,omitempty"`
	Closure   string   `json:"closure,omitempty"`
	Trigger   string   `json:"trigger,omitempty"`
	Signature string   `json:"signature,omitempty"`
	Signer    string   `json:"signer,omitempty"`
	Granted   []string `json:"granted,omitempty"`

	Capability string   `json:"capability,omitempty"`
	Method     string   `json:"method,omitempty"`
	Host       string   `json:"host,omitempty"`
	Path       string   `json:"path,omitempty"`
	Query      string   `json:"query,omitempty"`
	Decision   Decision `json:"decision,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Status     int      `json:"status,omitempty"`
	Failure    Failure  `json:"failure,omitempty"`
	BytesIn    int64    `json:"bytesIn,omitempty"`
	BytesOut   int64    `json:"bytesOut,omitempty"`
	Limit      string   `json:"limit,omitempty"`

	Effect string `json:"effect,omitempty"`

	Script  string `json:"script,omitempty"`
	Outcome string `json:"outcome,omitempty"`

	Prev string `json:"prev"`
}

// Field caps: longer strings are cut (at a rune boundary) and marked.
const (
	maxField = 512
	maxPath  = 1024
)

// clipped returns r with every string field bounded.
func (r Record) clipped() Record {
	for _, f := range []*string{&r.Note, &r.Closure, &r.Trigger, &r.Signature, &r.Signer, &r.Capability,
		&r.Method, &r.Host, &r.Query, &r.Reason, &r.Limit, &r.Effect, &r.Script, &r.Outcome} {
		*f = clip(*f, maxField)
	}
	r.Path = clip(r.Path, maxPath)
	if len(r.Granted) > 64 {
		r.Granted = append(r.Granted[:64:64], "…")
	}
	for i := range r.Granted {
		r.Granted[i] = clip(r.Granted[i], maxField)
	}
	return r
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// SplitURL returns the path and the hash of the query string of a request
// URL, as a record keeps them; the query's own text (it may hold a token)
// is never kept. The record's host is the canonical one the network
// client decides the grant for (netclient.HostOf), not worked out here.
func SplitURL(raw string) (path, query string) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", hashHex(raw)[:16]
	}
	path = u.EscapedPath()
	if u.RawQuery != "" {
		query = "sha256:" + hashHex(u.RawQuery)[:16]
	}
	return path, query
}

// EffectID is the id the host gives an effectful request: the same note,
// code, method, address, body and position in the run give the same id,
// so a repeated effect is recognised across runs.
func EffectID(note, closure, method, url string, body []byte, nth int) string {
	h := sha256.New()
	for _, s := range []string{note, closure, method, url, hashHex(string(body)), strconv.Itoa(nth)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
