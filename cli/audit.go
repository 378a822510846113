package cli

import (
	"encoding/json"
	"fmt"
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
		enc := json.NewEncoder(c.stdio.Out)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return failf("cannot write the records: %w", err)
			}
		}
		return nil
	}
	if len(recs) == 0 {
		fmt.Fprintln(c.stdio.Out, "no audit records")
	}
	for _, line := range audit.Lines(recs) {
		fmt.Fprintln(c.stdio.Out, line)
	}
	return nil
}

// auditFilter reads NOTE, --since and --host into a record filter. A
// run's opening record is kept with the records of the note it ran.
func (c *invocation) auditFilter(o *auditOptions) (func(audit.Record) bool, error) {
	var since time.Time
	if o.since.set {
		d, err := time.ParseDuration(o.since.value)
		if err != nil || d <= 0 || d > maxSince {
			return nil, usagef("--since wants a positive duration such as 24h or 90m, up to 100 years, not %q", o.since.value)
		}
		since = time.Now().Add(-d)
	}
	key := ""
	if len(c.args) > 0 {
		k, err := noteKey(c.args[0])
		if err != nil {
			return nil, failf("%w", err)
		}
		key = k
	}
	host := ""
	if o.host.set {
		h, err := netclient.CanonicalHost(strings.TrimSuffix(o.host.value, "."))
		if err != nil {
			return nil, usagef("--host wants a host name or address such as api.example.org: %v", err)
		}
		host = h
	}
	runs := map[string]bool{}
	return func(r audit.Record) bool {
		if r.Time.Before(since) {
			return false
		}
		if key != "" {
			if r.Event == audit.EventRun {
				runs[r.Run] = r.Note == key
			}
			if !runs[r.Run] {
				return false
			}
		}
		return host == "" || r.Event == audit.EventRun || recordedHost(r.Host) == host
	}, nil
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
