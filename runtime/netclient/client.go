// Package netclient is the only network client a script can reach. It
// resolves each hop's host once, vets every address, refuses a mixed
// answer, dials the vetted address itself (TLS and the Host header keep the
// name), follows redirects by hand re-checking every hop against the grant,
// caps bodies while streaming, and never uses a proxy from the environment.
package netclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/markii/markii/sanitize"
)

// Resolver answers DNS questions. *net.Resolver satisfies it; production
// uses net.DefaultResolver, and tests may inject answers that cannot be
// produced here (a public name answering with a private address).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Defaults for Options fields left zero. DefaultMaxBody is also the
// ceiling of a script run's FetchBytes limit (script.Ceiling), which a run
// sets as its client's MaxBody.
const (
	DefaultMaxBody        = 2_000_000
	DefaultConnectTimeout = 5 * time.Second
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultRequestTimeout = 12 * time.Second
	// MaxRedirects is the most redirect hops a request follows.
	MaxRedirects   = 5
	maxHeaderBytes = 64 << 10
)

// Options configures a Client. Zero fields take the defaults above.
type Options struct {
	// Resolver answers DNS questions; nil means net.DefaultResolver.
	Resolver Resolver
	// AllowPrivate accepts private, loopback, link-local and carrier-grade
	// NAT answers for named hosts. It comes from the user's own settings
	// only.
	AllowPrivate bool
	// Version goes into the User-Agent header as markii/VERSION.
	Version string
	// MaxBody caps a response body, counted after decompression.
	MaxBody int64
	// ConnectTimeout bounds each TCP connect and the TLS handshake;
	// HeaderTimeout bounds the wait for response headers; RequestTimeout
	// bounds the whole request, redirects and body included.
	ConnectTimeout time.Duration
	HeaderTimeout  time.Duration
	RequestTimeout time.Duration
	// TLS is the TLS configuration (nil: the system roots). ServerName is
	// always set from the URL.
	TLS *tls.Config
}

// Client performs pinned requests. It is safe for concurrent use.
type Client struct {
	o Options
}

// New returns a Client with o's zero fields defaulted.
func New(o Options) *Client {
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.HeaderTimeout <= 0 {
		o.HeaderTimeout = DefaultHeaderTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return &Client{o: o}
}

// Request is one script request.
type Request struct {
	// Method is GET, POST or PATCH.
	Method string
	URL    string
	Body   []byte
	// Granted reports whether a canonical host (see CanonicalHost) is in
	// the grant. It is asked for every hop. Nil grants nothing.
	Granted func(host string) bool
}

// Response is a completed request.
type Response struct {
	Status int
	Body   []byte
	// URL is the address of the hop that answered.
	URL string
	// Host is the canonical host of the request's own URL (CanonicalHost),
	// worked out once where the request was checked, for the caller to
	// name the request by.
	Host string
	// Retried reports that a GET failed once on the network and this is
	// the answer to the second attempt.
	Retried bool
}

// Do performs r. Every failure is an *Error. A GET that fails on the
// network (not a refusal, not a timeout) is tried once more and the result
// says so; a POST or PATCH is never retried, and when it was sent before
// the exchange failed the error's kind is OutcomeUnknown.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	method := r.Method
	if method != http.MethodGet && method != http.MethodPost && method != http.MethodPatch {
		return nil, errorf(Refused, "", "the method %q is not available to scripts", method)
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.RequestTimeout)
	defer cancel()
	resp, err := c.follow(ctx, r)
	if err != nil && method == http.MethodGet && err.Kind == Network && ctx.Err() == nil {
		resp, err = c.follow(ctx, r)
		if err != nil {
			err.Retried = true
			return nil, err
		}
		resp.Retried = true
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// follow runs one attempt: every hop from the first URL to a final answer.
func (c *Client) follow(ctx context.Context, r Request) (*Response, *Error) {
	a, herr := newWalk(r)
	if herr != nil {
		return nil, herr
	}
	for hop := 0; ; hop++ {
		resp, xerr := c.send(ctx, a)
		if xerr != nil {
			return nil, xerr
		}
		if loc := resp.Header.Get("Location"); isRedirect(resp.StatusCode) && loc != "" {
			drain(resp.Body)
			if rerr := a.redirect(hop, resp.StatusCode, loc); rerr != nil {
				return nil, rerr
			}
			continue
		}
		data, rerr := c.readAnswer(ctx, resp, a.host, a.effectful, a.anySent)
		if rerr != nil {
			return nil, rerr
		}
		return &Response{Status: resp.StatusCode, Body: data, URL: a.u.String(), Host: a.origin}, nil
	}
}

// walk is one attempt's way along its redirects: the current hop's URL,
// host and method, and what every hop shares.
type walk struct {
	granted   func(string) bool
	origin    string
	u         *url.URL
	host      string
	method    string
	body      []byte
	effectful bool
	visited   map[string]bool
	anySent   bool
}

// newWalk checks r's URL and starts its walk there.
func newWalk(r Request) (*walk, *Error) {
	granted := r.Granted
	if granted == nil {
		granted = func(string) bool { return false }
	}
	u, host, herr := checkURL(r.URL, granted)
	if herr != nil {
		return nil, herr
	}
	return &walk{
		granted: granted, origin: host, u: u, host: host,
		method: r.Method, body: r.Body, effectful: r.Method != http.MethodGet,
		visited: map[string]bool{},
	}, nil
}

// send makes the current hop's request: its host pinned, the exchange
// made, a failure classified.
func (c *Client) send(ctx context.Context, a *walk) (*http.Response, *Error) {
	a.visited[a.u.String()] = true
	p, perr := c.pin(ctx, a.host)
	if perr != nil {
		return nil, perr
	}
	resp, sent, xerr := c.exchange(ctx, p, a.method, a.u, a.body)
	a.anySent = a.anySent || sent
	if xerr != nil {
		return nil, c.failure(ctx, a.host, xerr, a.effectful, a.anySent)
	}
	return resp, nil
}

// redirect moves the walk to a redirect's Location after hop hops,
// checked as checkHop does, and refuses too many hops and loops.
func (a *walk) redirect(hop, status int, loc string) *Error {
	if hop >= MaxRedirects {
		return errorf(Redirect, a.host, "the request to %s was redirected more than %d times", a.origin, MaxRedirects)
	}
	next, nhost, rerr := checkHop(a.u, a.origin, loc, a.granted)
	if rerr != nil {
		return rerr
	}
	if a.visited[next.String()] {
		return errorf(Redirect, nhost, "the request to %s was redirected in a loop", a.origin)
	}
	if redirectsAsGet(status, a.method) {
		a.method, a.body = http.MethodGet, nil
	}
	a.u, a.host = next, nhost
	return nil
}

// redirectsAsGet reports whether a redirect with status turns a request
// of method into a GET without a body: a 303 always, a 301 or 302 for
// anything but a GET, as browsers do.
func redirectsAsGet(status int, method string) bool {
	return status == http.StatusSeeOther ||
		(status == http.StatusMovedPermanently || status == http.StatusFound) && method != http.MethodGet
}

// readAnswer reads and closes the final answer's body, capped at MaxBody.
func (c *Client) readAnswer(ctx context.Context, resp *http.Response, host string, effectful, sent bool) ([]byte, *Error) {
	defer resp.Body.Close()
	if resp.ContentLength > c.o.MaxBody {
		return nil, errorf(TooLarge, host, "the answer from %s declares %d bytes, over the %d byte cap", host, resp.ContentLength, c.o.MaxBody)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.o.MaxBody+1))
	if err != nil {
		return nil, c.failure(ctx, host, err, effectful, sent)
	}
	if int64(len(data)) > c.o.MaxBody {
		return nil, errorf(TooLarge, host, "the answer from %s is over the %d byte cap", host, c.o.MaxBody)
	}
	return data, nil
}

// failure classifies an exchange error, keeping it as the cause. sent
// says whether a whole request had been written; for an effectful one
// that makes the outcome unknown.
func (c *Client) failure(ctx context.Context, host string, err error, effectful, sent bool) *Error {
	e := c.exchangeFailure(ctx, host, err, effectful && sent)
	e.Sent = sent
	if !sent && (e.Kind == Network || e.Kind == Timeout) {
		// Nothing reached a server: say why, for an offline outcome.
		e.Cause = causeOf(ctx, err)
		e.Msg = e.Cause.Sentence(host)
	}
	return e.because(err)
}

func (c *Client) exchangeFailure(ctx context.Context, host string, err error, unknown bool) *Error {
	var refusal *dialRefusal
	if errors.As(err, &refusal) {
		return errorf(Address, host, "%s", refusal.msg)
	}
	timeout := errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		timeout = true
	}
	switch {
	case unknown && timeout:
		return errorf(OutcomeUnknown, host, "the request to %s was sent but timed out before the answer came back; it may or may not have taken effect", host)
	case unknown:
		return errorf(OutcomeUnknown, host, "the request to %s was sent but the connection was lost before the answer came back; it may or may not have taken effect", host)
	case timeout:
		return errorf(Timeout, host, "the request to %s timed out", host)
	}
	return errorf(Network, host, "the request to %s failed: %s", host, sanitize.Line(err.Error()))
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// drain reads a little of a body so the connection closes cleanly.
func drain(b io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(b, 4096))
	_ = b.Close()
}

// checkURL checks a script's URL and returns it rebuilt on the canonical
// host, with the canonical host.
func checkURL(raw string, granted func(string) bool) (*url.URL, string, *Error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", errorf(Refused, "", "the address is not a valid URL")
	}
	return checkParsed(u, granted)
}

func checkParsed(u *url.URL, granted func(string) bool) (*url.URL, string, *Error) {
	scheme, serr := checkScheme(u)
	if serr != nil {
		return nil, "", serr
	}
	host, err := urlHost(u)
	if err != nil {
		return nil, "", errorf(Refused, "", "%s", sanitize.Line(err.Error()))
	}
	if u.User != nil {
		return nil, host, errorf(Refused, host, "an address carrying credentials cannot be fetched")
	}
	port := u.Port()
	if !validPort(port) {
		return nil, host, errorf(Refused, host, "the port %q is not valid", port)
	}
	if !granted(host) {
		return nil, host, errorf(NotGranted, host, "network access to %s was not granted", host)
	}
	out := *u
	out.Scheme = scheme
	out.Fragment, out.RawFragment = "", ""
	out.Host = joinHost(host, port)
	return &out, host, nil
}

// checkScheme is u's scheme, lowercased, when it is http or https and u
// is not opaque.
func checkScheme(u *url.URL) (string, *Error) {
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "http", "https":
	case "file":
		return "", errorf(Refused, "", "file: addresses cannot be fetched")
	case "":
		return "", errorf(Refused, "", "the address is not absolute (it needs http:// or https://)")
	default:
		return "", errorf(Refused, "", "the %s: scheme cannot be fetched; only http and https can", scheme)
	}
	if u.Opaque != "" {
		return "", errorf(Refused, "", "the address is not a valid URL")
	}
	return scheme, nil
}

// validPort reports whether a URL's port is absent or 1–65535.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535
}

// joinHost is a URL's host part for the canonical host and port: an IPv6
// address in brackets.
func joinHost(host, port string) string {
	switch {
	case port != "":
		return net.JoinHostPort(host, port)
	case strings.Contains(host, ":"):
		return "[" + host + "]"
	}
	return host
}

// checkHop checks a redirect's Location against the current hop.
func checkHop(cur *url.URL, origin, loc string, granted func(string) bool) (*url.URL, string, *Error) {
	if protocolRelative(loc) {
		return nil, "", errorf(Redirect, origin, "a redirect from %s used a protocol-relative address, which is refused", origin)
	}
	ref, err := url.Parse(loc)
	if err != nil {
		return nil, "", errorf(Redirect, origin, "a redirect from %s named an invalid address", origin)
	}
	next := cur.ResolveReference(ref)
	if rerr := refuseTarget(cur, next, origin); rerr != nil {
		return nil, "", rerr
	}
	u, host, herr := checkParsed(next, granted)
	if herr != nil {
		herr.Kind = Redirect
		if herr.Host == "" {
			herr.Host = origin
		}
		herr.Msg = "a redirect from " + origin + " was refused: " + herr.Msg
		return nil, "", herr
	}
	if host != origin {
		return nil, host, errorf(Redirect, host, "a redirect from %s to another host (%s) was refused", origin, host)
	}
	return u, host, nil
}

// protocolRelative reports whether a Location starts, after blanks, with
// two slashes or backslashes in any mix: an address on another host.
func protocolRelative(loc string) bool {
	trimmed := strings.TrimLeft(loc, " \t")
	return len(trimmed) >= 2 && strings.ContainsRune(`/\`, rune(trimmed[0])) && strings.ContainsRune(`/\`, rune(trimmed[1]))
}

// refuseTarget refuses a redirect from cur to next that goes to a file:
// address, carries credentials or downgrades https to http.
func refuseTarget(cur, next *url.URL, origin string) *Error {
	switch {
	case strings.EqualFold(next.Scheme, "file"):
		return errorf(Redirect, origin, "a redirect from %s to a file: address was refused", origin)
	case next.User != nil:
		return errorf(Redirect, origin, "a redirect from %s to an address carrying credentials was refused", origin)
	case cur.Scheme == "https" && strings.EqualFold(next.Scheme, "http"):
		return errorf(Redirect, origin, "a redirect from %s downgraded https to http and was refused", origin)
	}
	return nil
}

// pin is one hop's resolved, vetted addresses.
type pin struct {
	host  string
	addrs []netip.Addr
	// typed: the grant named an IP literal or localhost, honoured as typed.
	typed bool
}

var loopbacks = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}

// pin resolves host once and vets every answer; one refused answer refuses
// the host.
func (c *Client) pin(ctx context.Context, host string) (*pin, *Error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return &pin{host: host, addrs: []netip.Addr{a.Unmap()}, typed: true}, nil
	}
	if host == "localhost" {
		return &pin{host: host, addrs: loopbacks, typed: true}, nil
	}
	addrs, err := c.o.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		if ctx.Err() != nil {
			e := errorf(Timeout, host, "resolving %s timed out", host).because(err)
			e.Cause = ConnectTimeout
			return nil, e
		}
		e := errorf(Network, host, "%s could not be resolved", host).because(err)
		e.Cause = NotResolved
		return nil, e
	}
	if len(addrs) == 0 {
		e := errorf(Network, host, "%s has no addresses", host)
		e.Cause = NotResolved
		return nil, e
	}
	p := &pin{host: host}
	for _, a := range addrs {
		if err := Vet(a, c.o.AllowPrivate); err != nil {
			if len(addrs) > 1 {
				return nil, errorf(Address, host, "%s answered with %d addresses and one is refused (%v), so the host is refused", host, len(addrs), err).because(err)
			}
			return nil, errorf(Address, host, "%s resolved to a refused address: %v", host, err).because(err)
		}
		p.addrs = append(p.addrs, a.Unmap())
	}
	return p, nil
}

// dialRefusal is an address refused at dial time.
type dialRefusal struct{ msg string }

func (d *dialRefusal) Error() string { return d.msg }

// exchange performs one hop on a fresh transport bound to p. sent reports
// that the whole request was written.
func (c *Client) exchange(ctx context.Context, p *pin, method string, u *url.URL, body []byte) (*http.Response, bool, error) {
	var sent atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		if i.Err == nil {
			sent.Store(true)
		}
	}}
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), method, u.String(), rd)
	if err != nil {
		return nil, false, &dialRefusal{msg: "the address is not a valid URL"}
	}
	req.Header = http.Header{}
	req.Header.Set("User-Agent", "markii/"+c.o.Version)
	if method == http.MethodGet {
		req.Header.Set("Accept", "application/json")
	} else {
		req.Header.Set("Accept", "application/json, text/plain;q=0.9, */*;q=0.5")
		req.Header.Set("Content-Type", contentType(body))
	}
	t := c.transport(p)
	defer t.CloseIdleConnections()
	resp, err := t.RoundTrip(req)
	if err != nil {
		return nil, sent.Load(), err
	}
	return resp, sent.Load(), nil
}

func contentType(body []byte) string {
	s := strings.TrimSpace(string(body))
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		return "application/json"
	}
	return "text/plain; charset=utf-8"
}

// transport builds a transport that can only reach p's addresses.
func (c *Client) transport(p *pin) *http.Transport {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.o.TLS != nil {
		tlsConf = c.o.TLS.Clone()
	}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            c.dialer(p),
		TLSClientConfig:        tlsConf,
		TLSHandshakeTimeout:    c.o.ConnectTimeout,
		ResponseHeaderTimeout:  c.o.HeaderTimeout,
		MaxResponseHeaderBytes: maxHeaderBytes,
		DisableKeepAlives:      true,
		ForceAttemptHTTP2:      false,
	}
}

// dialer connects only to p's vetted addresses, trying them in order, and
// re-checks the literal address in Dialer.Control just before connect.
func (c *Client) dialer(p *pin) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		h, portStr, err := net.SplitHostPort(addr)
		if err != nil || h != p.host {
			return nil, &dialRefusal{msg: fmt.Sprintf("the connection to %s was not to the pinned host", p.host)}
		}
		port, err := strconv.ParseUint(portStr, 10, 16)
		if err != nil {
			return nil, &dialRefusal{msg: fmt.Sprintf("the port for %s is not valid", p.host)}
		}
		var last error
		for _, a := range p.addrs {
			d := net.Dialer{Timeout: c.o.ConnectTimeout, Control: c.control(p)}
			conn, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
			if err == nil {
				return conn, nil
			}
			last = err
		}
		return nil, last
	}
}

func (c *Client) control(p *pin) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return &dialRefusal{msg: fmt.Sprintf("the connection to %s had an unreadable address", p.host)}
		}
		a := ap.Addr().Unmap()
		if !slices.Contains(p.addrs, a) {
			return &dialRefusal{msg: fmt.Sprintf("the connection to %s went to %s, which was not the vetted address", p.host, a)}
		}
		if !p.typed {
			if err := Vet(a, c.o.AllowPrivate); err != nil {
				return &dialRefusal{msg: fmt.Sprintf("%s resolved to a refused address: %v", p.host, err)}
			}
		}
		return nil
	}
}
