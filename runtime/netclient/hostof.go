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
	i := strings.Index(raw, "://")
	if i < 0 {
		return ""
	}
	rest := raw[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if k := strings.LastIndex(rest, "@"); k >= 0 {
		rest = rest[k+1:]
	}
	hostPort := rest
	if strings.HasPrefix(hostPort, "[") {
		if e := strings.Index(hostPort, "]"); e >= 0 {
			hostPort = hostPort[:e+1]
		}
	} else if c := strings.LastIndex(hostPort, ":"); c >= 0 {
		hostPort = hostPort[:c]
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

// urlHost is the canonical host of a parsed URL: the one the client
// checks against the grant and dials, and the one records name.
func urlHost(u *url.URL) (string, error) {
	return CanonicalHost(u.Hostname())
}
