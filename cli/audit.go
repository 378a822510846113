package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/sanitize"
)

// auditOptions are markii audit's flags.
type auditOptions struct {
	since        textFlag
	host         textFlag
	json, verify bool
}

func (o *auditOptions) bind(fs *flagSet) {
	fs.text(&o.since, flagSpec{name: "since", value: "DURATION", help: "only records newer than this (e.g. 24h, 90m)"})
	fs.text(&o.host, flagSpec{name: "host", value: "HOST", help: "only requests to this host"})
	fs.bool(&o.json, flagSpec{name: "json", help: "print the records as JSON Lines"})
	fs.bool(&o.verify, flagSpec{name: "verify", help: "check that no line was torn, edited or removed"})
}

var auditCommand = commandOf(command{
	summary: "list what notes' scripts did: runs, requests, decisions, outcomes",
	args:    "[NOTE]",
	maxArgs: 1,
}, (*auditOptions).bind, auditRun)

// maxSince bounds --since.
const maxSince = 100 * 365 * 24 * time.Hour

// auditLog is the audit trail beside the device state.
func (c *invocation) auditLog() (*audit.Log, error) {
	st, err := c.deviceState()
	if err != nil {
		return nil, failf("%w", err)
	}
	return audit.ForStore(st, audit.Options{}), nil
}

func auditRun(c *invocation, o *auditOptions) error {
	keep, err := c.auditFilter(o)
	if err != nil {
		return err
	}
	l, err := c.auditLog()
	if err != nil {
		return err
	}
	if o.verify {
		return auditVerify(c, l)
	}
	recs, damaged, err := l.Read(keep)
	if err != nil {
		return failf("%w", err)
	}
	for _, d := range damaged {
		fmt.Fprintf(c.stdio.Err, "markii: %s; it is skipped\n", sanitize.Line(d.String()))
	}
	if o.json {
		return writeRecordsJSON(c.stdio.Out, recs)
	}
	if len(recs) == 0 {
		fmt.Fprintln(c.stdio.Out, "no audit records")
	}
	for _, line := range audit.Lines(recs) {
		fmt.Fprintln(c.stdio.Out, line)
	}
	return nil
}

// writeRecordsJSON writes recs to w, one JSON object a line.
func writeRecordsJSON(w io.Writer, recs []audit.Record) error {
	enc := json.NewEncoder(w)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return failf("cannot write the records: %w", err)
		}
	}
	return nil
}

// auditFilter reads NOTE, --since and --host into a record filter.
func (c *invocation) auditFilter(o *auditOptions) (func(audit.Record) bool, error) {
	since, err := auditSince(o.since)
	if err != nil {
		return nil, err
	}
	key := ""
	if len(c.args) > 0 {
		if key, err = noteKey(c.args[0]); err != nil {
			return nil, failf("%w", err)
		}
	}
	host, err := auditHost(o.host)
	if err != nil {
		return nil, err
	}
	f := &recordFilter{since: since, key: key, host: host, runs: map[string]bool{}}
	return f.keep, nil
}

// auditSince is the time --since goes back to, zero when it is not set.
func auditSince(since textFlag) (time.Time, error) {
	if !since.set {
		return time.Time{}, nil
	}
	d, err := time.ParseDuration(since.value)
	if err != nil || d <= 0 || d > maxSince {
		return time.Time{}, usagef("--since wants a positive duration such as 24h or 90m, up to 100 years, not %q", since.value)
	}
	return time.Now().Add(-d), nil
}

// auditHost is --host's canonical host, "" when it is not set.
func auditHost(host textFlag) (string, error) {
	if !host.set {
		return "", nil
	}
	h, err := netclient.CanonicalHost(strings.TrimSuffix(host.value, "."))
	if err != nil {
		return "", usagef("--host wants a host name or address such as api.example.org: %v", err)
	}
	return h, nil
}

// recordFilter keeps the audit records from since on, of the note key
// and the host ("" for any). A run's opening record is kept with the
// records of the note it ran; runs says which runs were the note's.
type recordFilter struct {
	since     time.Time
	key, host string
	runs      map[string]bool
}

// keep reports whether r passes the filter; records are read in order.
func (f *recordFilter) keep(r audit.Record) bool {
	if r.Time.Before(f.since) || !f.ofNote(r) {
		return false
	}
	return f.host == "" || r.Event == audit.EventRun || recordedHost(r.Host) == f.host
}

// ofNote reports whether r belongs to a run of the filter's note, or
// there is no note to filter by.
func (f *recordFilter) ofNote(r audit.Record) bool {
	if f.key == "" {
		return true
	}
	if r.Event == audit.EventRun {
		f.runs[r.Run] = r.Note == f.key
	}
	return f.runs[r.Run]
}

// recordedHost is a record's host in the form --host is compared in:
// records hold the canonical host the request was decided for, and one
// written by an older markii, as it was typed, is read the same way.
func recordedHost(h string) string {
	if c, err := netclient.CanonicalHost(strings.TrimSuffix(h, ".")); err == nil {
		return c
	}
	return strings.ToLower(h)
}

func auditVerify(c *invocation, l *audit.Log) error {
	problems, lines, err := l.Verify()
	if err != nil {
		return failf("%w", err)
	}
	for _, p := range problems {
		fmt.Fprintf(c.stdio.Out, "%s\n", sanitize.Line(p.String()))
	}
	if len(problems) > 0 {
		return failf("the audit trail is not whole: %d of its %d lines have a problem", len(problems), lines)
	}
	fmt.Fprintf(c.stdio.Out, "the audit trail is whole: %d records in %d files\n", lines, len(l.Files()))
	return nil
}
