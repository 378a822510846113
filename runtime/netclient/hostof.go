package netclient

import (
	"net/url"
	"strings"

	"github.com/markii/markii/sanitize"
)

// maxHostRecord caps a host name kept in a record (the longest DNS name).
const maxHostRecord = 253

// HostOf is the host a URL names, for records and messages: the canonical
// host the client decides a grant for (urlHost), when the URL has one;
// else the raw host lowercased and made one printable line. It is "" when
// raw has no scheme. It decides nothing: whether the host may be reached
// is the client's business.
func HostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" {
		if h, err := urlHost(u); err == nil {
			return h
		}
	}
	hostPort, ok := rawHost(raw)
	if !ok {
		return ""
	}
	if h, err := CanonicalHost(hostPort); err == nil {
		return h
	}
	h := sanitize.Line(strings.ToLower(hostPort))
	if len(h) > maxHostRecord {
		h = h[:maxHostRecord]
	}
	return h
}

// rawHost is the host part of raw as written, read by hand for a URL
// url.Parse refuses: after "://", before any path, query or fragment,
// after any user information, without the port. ok is false when raw has
// no "://".
func rawHost(raw string) (string, bool) {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return "", false
	}
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	rest = rest[strings.LastIndex(rest, "@")+1:]
	if strings.HasPrefix(rest, "[") {
		if e := strings.Index(rest, "]"); e >= 0 {
			return rest[:e+1], true
		}
		return rest, true
	}
	if c := strings.LastIndex(rest, ":"); c >= 0 {
		return rest[:c], true
	}
	return rest, true
}

// urlHost is the canonical host of a parsed URL: the one the client
// checks against the grant and dials, and the one records name.
func urlHost(u *url.URL) (string, error) {
	return CanonicalHost(u.Hostname())
}
