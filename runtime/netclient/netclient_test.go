package netclient

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// answers is an injected DNS: the only stand-in in these tests, for
// answers a real resolver here cannot give (a public name answering with a
// private address).
type answers struct {
	mu      sync.Mutex
	m       map[string][]netip.Addr
	lookups map[string]int
}

func newAnswers(kv ...string) *answers {
	a := &answers{m: map[string][]netip.Addr{}, lookups: map[string]int{}}
	for i := 0; i+1 < len(kv); i += 2 {
		for _, s := range strings.Split(kv[i+1], ",") {
			a.m[kv[i]] = append(a.m[kv[i]], netip.MustParseAddr(s))
		}
	}
	return a
}

func (a *answers) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lookups[host]++
	if v, ok := a.m[host]; ok {
		return v, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// counting is a real HTTP server on 127.0.0.1 that counts requests.
type counting struct {
	*httptest.Server
	n atomic.Int64
}

func serve(t *testing.T, h http.HandlerFunc) *counting {
	t.Helper()
	c := &counting{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.n.Add(1)
		h(w, r)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *counting) port() string {
	_, p, _ := net.SplitHostPort(c.Listener.Addr().String())
	return p
}

func grant(hosts ...string) func(string) bool {
	return func(h string) bool {
		for _, g := range hosts {
			if g == h {
				return true
			}
		}
		return false
	}
}

func kindOf(t *testing.T, err error) ErrorKind {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *netclient.Error", err, err)
	}
	return e.Kind
}

func TestCanonicalHost(t *testing.T) {
	ok := map[string]string{
		"bücher.example":    "xn--bcher-kva.example",
		"127.0.0.1":         "127.0.0.1",
		"2130706433":        "127.0.0.1",
		"0x7f.1":            "127.0.0.1",
		"0177.0.0.1":        "127.0.0.1",
		"127.1":             "127.0.0.1",
		"[::1]":             "::1",
		"::ffff:127.0.0.1":  "::ffff:127.0.0.1",
		"localhost":         "localhost",
		"a-b.c0.example":    "a-b.c0.example",
		"xn--bcher-kva.ex":  "xn--bcher-kva.ex",
		"api.github.com":    "api.github.com",
		"[2001:DB8::1]":     "2001:db8::1",
		"01.02.03.004":      "1.2.3.4",
		"0x7f000001":        "127.0.0.1",
		"sub.example.0x1g":  "sub.example.0x1g",
		"ex.1a":             "ex.1a",
		"123.example":       "123.example",
		"EXAMPLE.com":       "example.com",
		"xn--80ak6aa92e.co": "xn--80ak6aa92e.co",
	}
	for in, want := range ok {
		got, err := CanonicalHost(in)
		if err != nil || got != want {
			t.Errorf("CanonicalHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{"", ".", "Example.COM.", "localhost.", "127.0.0.1.", "256.0.0.1", "1.2.3.4.5", "0x100000000", "09.1.1.1", "[fe80::1%eth0]",
		"fe80::1%eth0", "a_b.example", "-a.example", "a-.example", "ex\x00ample.com", "ex ample.com",
		"a..b", "[::1", strings.Repeat("a", 64) + ".com", "exa\u202emple.com", "exa\x1bmple.com"}
	for _, in := range bad {
		if got, err := CanonicalHost(in); err == nil {
			t.Errorf("CanonicalHost(%q) = %q, want an error", in, got)
		}
	}
}

func TestVetTable(t *testing.T) {
	refused := []string{
		"10.0.0.5", "172.16.0.1", "192.168.1.1", // private
		"127.0.0.1", "127.0.0.2", "::1", // loopback
		"169.254.1.1", "169.254.169.254", "fe80::1", // link-local, metadata
		"100.64.1.1", "100.127.255.254", // CGNAT
		"224.0.0.1", "ff02::1", // multicast
		"0.0.0.0", "::", // unspecified
		"255.255.255.255", "240.0.0.1", // broadcast, reserved
		"192.0.2.1", "198.51.100.7", "203.0.113.9", "2001:db8::1", // documentation
		"198.18.0.1",                          // benchmarking
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", // IPv4-mapped
		"::127.0.0.1", "::10.0.0.1", "::8.8.8.8", // IPv4-compatible
		"64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::808:808", // NAT64
		"64:ff9b:1::7f00:1",                 // local-use NAT64
		"2002:7f00:1::1", "2002:808:808::1", // 6to4
		"2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo carrying 127.0.0.1
		"2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo carrying 8.8.8.8
		"fc00::1", "fd00::1", "fec0::1",        // ULA, site-local
		"fd00:ec2::254", // metadata v6
		"100::1",        // discard-only
	}
	for _, s := range refused {
		if err := Vet(netip.MustParseAddr(s), false); err == nil {
			t.Errorf("Vet(%s) allowed a restricted address", s)
		}
	}
	allowed := []string{"93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:8.8.8.8"}
	for _, s := range allowed {
		if err := Vet(netip.MustParseAddr(s), false); err != nil {
			t.Errorf("Vet(%s) = %v, want allowed", s, err)
		}
	}
	// allowPrivate opens private space but never metadata, multicast,
	// unspecified or a wrapper around one of those.
	for _, s := range []string{"10.0.0.5", "127.0.0.1", "::1", "100.64.1.1", "fd00::1", "192.168.1.1", "::ffff:10.0.0.1"} {
		if err := Vet(netip.MustParseAddr(s), true); err != nil {
			t.Errorf("Vet(%s, allowPrivate) = %v, want allowed", s, err)
		}
	}
	for _, s := range []string{"169.254.169.254", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "224.0.0.1", "0.0.0.0", "::", "fd00:ec2::254", "2002:a9fe:a9fe::1"} {
		if err := Vet(netip.MustParseAddr(s), true); err == nil {
			t.Errorf("Vet(%s, allowPrivate) allowed it", s)
		}
	}
}

// TestVettingThroughResolver drives every class through Do with the
// injected resolver: a granted name answering with a restricted address
// never reaches the server (its counter stays at zero).
func TestVettingThroughResolver(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{}`) })
	classes := map[string]string{
		"loopback":      "127.0.0.1",
		"private":       "10.0.0.5",
		"metadata":      "169.254.169.254",
		"cgnat":         "100.64.0.1",
		"multicast":     "224.0.0.1",
		"unspecified":   "0.0.0.0",
		"reserved":      "240.0.0.1",
		"documentation": "192.0.2.1",
		"benchmarking":  "198.18.0.1",
		"mapped":        "::ffff:127.0.0.1",
		"compatible":    "::127.0.0.1",
		"6to4":          "2002:7f00:1::1",
		"nat64":         "64:ff9b::7f00:1",
		"teredo":        "2001:0:4136:e378:8000:63bf:80ff:fffe",
		"ula":           "fd00::1",
		"mixed":         "93.184.216.34,127.0.0.1",
		"mixed6":        "2606:2800:220:1:248:1893:25c8:1946,::1",
	}
	for name, addrs := range classes {
		host := name + ".example"
		c := New(Options{Resolver: newAnswers(host, addrs)})
		_, err := c.Do(context.Background(), Request{Method: "GET", URL: "http://" + host + ":" + srv.port() + "/", Granted: grant(host)})
		if err == nil || kindOf(t, err) != Address {
			t.Errorf("%s (%s): got %v, want an address refusal", name, addrs, err)
		}
	}
	if n := srv.n.Load(); n != 0 {
		t.Fatalf("the server saw %d requests; a refused address must never be dialled", n)
	}
	// The same name answering loopback is reachable when the user's own
	// setting allows private addresses.
	c := New(Options{Resolver: newAnswers("dev.example", "127.0.0.1"), AllowPrivate: true})
	resp, err := c.Do(context.Background(), Request{Method: "GET", URL: "http://dev.example:" + srv.port() + "/", Granted: grant("dev.example")})
	if err != nil || resp.Status != 200 {
		t.Fatalf("allowPrivate request: %v", err)
	}
	// But a mixed answer with metadata inside is refused even then.
	c = New(Options{Resolver: newAnswers("dev.example", "127.0.0.1,169.254.169.254"), AllowPrivate: true})
	if _, err := c.Do(context.Background(), Request{Method: "GET", URL: "http://dev.example:" + srv.port() + "/", Granted: grant("dev.example")}); err == nil {
		t.Fatal("a mixed answer carrying the metadata address was accepted")
	}
	if n := srv.n.Load(); n != 1 {
		t.Fatalf("server count %d, want exactly the one allowed request", n)
	}
}

// TestTrailingDotIsAnotherHost: localhost. resolves like localhost, but it
// is another string, and it never rides on the plain name's grant.
func TestTrailingDotIsAnotherHost(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	c := New(Options{Resolver: newAnswers("localhost", "127.0.0.1", "localhost.", "127.0.0.1"), AllowPrivate: true})
	for _, u := range []string{"http://localhost.:" + srv.port() + "/", "http://LOCALHOST.:" + srv.port() + "/x"} {
		_, err := c.Do(context.Background(), Request{Method: "GET", URL: u, Granted: grant("localhost")})
		if err == nil || kindOf(t, err) != Refused {
			t.Errorf("%s: got %v, want refused", u, err)
		}
	}
	if n := srv.n.Load(); n != 0 {
		t.Fatalf("the server saw %d requests", n)
	}
	// The plain name still rides on its grant.
	if _, err := c.Do(context.Background(), Request{Method: "GET", URL: "http://localhost:" + srv.port() + "/", Granted: grant("localhost")}); err != nil {
		t.Fatal(err)
	}
}

func TestNotGrantedNeverDials(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	res := newAnswers()
	c := New(Options{Resolver: res})
	for _, u := range []string{"http://127.0.0.1:" + srv.port() + "/", "http://localhost:" + srv.port() + "/x"} {
		_, err := c.Do(context.Background(), Request{Method: "GET", URL: u, Granted: grant("example.com")})
		if err == nil || kindOf(t, err) != NotGranted {
			t.Fatalf("%s: got %v, want not-granted", u, err)
		}
	}
	for _, u := range []string{"file:///etc/passwd", "ftp://127.0.0.1/", "http://user:pw@127.0.0.1:" + srv.port() + "/", "/relative", "gopher://x"} {
		_, err := c.Do(context.Background(), Request{Method: "GET", URL: u, Granted: grant("127.0.0.1")})
		if err == nil || kindOf(t, err) != Refused {
			t.Fatalf("%s: got %v, want refused", u, err)
		}
	}
	if _, err := c.Do(context.Background(), Request{Method: "DELETE", URL: "http://127.0.0.1:" + srv.port() + "/", Granted: grant("127.0.0.1")}); err == nil {
		t.Fatal("DELETE was allowed")
	}
	if srv.n.Load() != 0 || len(res.lookups) != 0 {
		t.Fatalf("server count %d, lookups %v; want none", srv.n.Load(), res.lookups)
	}
}

func TestHeadersAndNoProxy(t *testing.T) {
	proxy := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	var got http.Header
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		fmt.Fprint(w, `{"ok":true}`)
	})
	c := New(Options{Version: "9.9.9"})
	resp, err := c.Do(context.Background(), Request{Method: "GET", URL: "http://127.0.0.1:" + srv.port() + "/a#frag", Granted: grant("127.0.0.1")})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != `{"ok":true}` {
		t.Fatalf("body %q", resp.Body)
	}
	if got.Get("User-Agent") != "markii/9.9.9" || got.Get("Accept") != "application/json" {
		t.Fatalf("headers %v", got)
	}
	for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
		if got.Get(h) != "" {
			t.Fatalf("%s was sent", h)
		}
	}
	if proxy.n.Load() != 0 {
		t.Fatal("the request went through the proxy from the environment")
	}
}

func TestPinnedTLSKeepsName(t *testing.T) {
	var host, sni string
	var n atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		host, sni = r.Host, r.TLS.ServerName
		fmt.Fprint(w, `[1,2]`)
	}))
	srv.StartTLS()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	res := newAnswers("example.com", "127.0.0.1")
	c := New(Options{Resolver: res, AllowPrivate: true, TLS: tlsWithRoots(pool)})
	resp, err := c.Do(context.Background(), Request{Method: "GET", URL: "https://EXAMPLE.com:" + port + "/", Granted: grant("example.com")})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "[1,2]" || host != "example.com:"+port || sni != "example.com" {
		t.Fatalf("body %q host %q sni %q", resp.Body, host, sni)
	}
	if res.lookups["example.com"] != 1 {
		t.Fatalf("lookups %v, want one for the canonical name", res.lookups)
	}
	// Without allowPrivate the same name is refused before any connection.
	c = New(Options{Resolver: res, TLS: tlsWithRoots(pool)})
	if _, err := c.Do(context.Background(), Request{Method: "GET", URL: "https://example.com:" + port + "/", Granted: grant("example.com")}); err == nil || kindOf(t, err) != Address {
		t.Fatalf("got %v, want an address refusal", err)
	}
	if n.Load() != 1 {
		t.Fatalf("server count %d, want 1", n.Load())
	}
}

func TestRedirects(t *testing.T) {
	other := serve(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `"other"`) })
	var srv *counting
	srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/chain":
			http.Redirect(w, r, "/same", http.StatusMovedPermanently)
		case "/final":
			fmt.Fprint(w, `"final"`)
		case "/other":
			http.Redirect(w, r, "http://localhost:"+other.port()+"/", http.StatusFound)
		case "/protocol-relative":
			w.Header().Set("Location", "//localhost:"+other.port()+"/")
			w.WriteHeader(http.StatusFound)
		case "/file":
			w.Header().Set("Location", "file:///etc/passwd")
			w.WriteHeader(http.StatusFound)
		case "/creds":
			w.Header().Set("Location", "http://user:pw@127.0.0.1:"+srv.port()+"/final")
			w.WriteHeader(http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop2", http.StatusFound)
		case "/loop2":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/post":
			http.Redirect(w, r, "/seen", http.StatusSeeOther)
		case "/seen":
			fmt.Fprintf(w, `%q`, r.Method)
		default:
			var n int
			fmt.Sscanf(r.URL.Path, "/hop%d", &n)
			http.Redirect(w, r, fmt.Sprintf("/hop%d", n+1), http.StatusTemporaryRedirect)
		}
	})
	c := New(Options{})
	both := grant("127.0.0.1", "localhost")
	base := "http://127.0.0.1:" + srv.port()
	resp, err := c.Do(context.Background(), Request{Method: "GET", URL: base + "/chain", Granted: both})
	if err != nil || string(resp.Body) != `"final"` {
		t.Fatalf("same-host chain: %v", err)
	}
	if srv.n.Load() != 3 {
		t.Fatalf("same-host chain took %d requests, want 3", srv.n.Load())
	}
	resp, err = c.Do(context.Background(), Request{Method: "POST", URL: base + "/post", Body: []byte(`{}`), Granted: both})
	if err != nil || string(resp.Body) != `"GET"` {
		t.Fatalf("303 after POST: %v %q", err, resp.Body)
	}
	for _, path := range []string{"/other", "/protocol-relative", "/file", "/creds", "/loop", "/hop0"} {
		_, err := c.Do(context.Background(), Request{Method: "GET", URL: base + path, Granted: both})
		if err == nil || kindOf(t, err) != Redirect {
			t.Errorf("%s: got %v, want a redirect refusal", path, err)
		}
	}
	if other.n.Load() != 0 {
		t.Fatalf("the other host saw %d requests", other.n.Load())
	}
}

func TestBodyCaps(t *testing.T) {
	const limit = 1000
	var wrote atomic.Int64
	// 20 MB of zeros compress to about 20 KB.
	var zbuf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zbuf, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte{'0'}, 20<<20))
	zw.Close()
	bomb := zbuf.Bytes()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/declared":
			// Declares far over the cap and would stream it for a long time.
			w.Header().Set("Content-Length", fmt.Sprint(1<<30))
			chunk := bytes.Repeat([]byte("x"), 32<<10)
			for i := 0; i < (1<<30)/len(chunk) && r.Context().Err() == nil; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
				wrote.Add(int64(len(chunk)))
			}
		case "/chunked":
			w.(http.Flusher).Flush()
			for i := 0; i < 100; i++ {
				w.Write(bytes.Repeat([]byte("y"), 100))
			}
		case "/short":
			// Lies: declares more than it sends, then hangs up.
			w.Header().Set("Content-Length", "500")
			w.Write([]byte(`{"partial":`))
			hj, _, _ := w.(http.Hijacker).Hijack()
			hj.Close()
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Length", fmt.Sprint(len(bomb)))
			w.Write(bomb)
		case "/gzip-ok":
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write([]byte(`{"small":true}`))
			zw.Close()
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(buf.Bytes())
		}
	})
	c := New(Options{MaxBody: limit})
	g := grant("127.0.0.1")
	base := "http://127.0.0.1:" + srv.port()
	start := time.Now()
	_, err := c.Do(context.Background(), Request{Method: "GET", URL: base + "/declared", Granted: g})
	if err == nil || kindOf(t, err) != TooLarge {
		t.Fatalf("declared: got %v", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatalf("refusing a declared oversize body took %v; it must not be read", time.Since(start))
	}
	if _, err := c.Do(context.Background(), Request{Method: "GET", URL: base + "/chunked", Granted: g}); err == nil || kindOf(t, err) != TooLarge {
		t.Fatalf("chunked: got %v", err)
	}
	before := srv.n.Load()
	_, err = c.Do(context.Background(), Request{Method: "GET", URL: base + "/short", Granted: g})
	var e *Error
	if !errors.As(err, &e) || e.Kind != Network || !e.Retried {
		t.Fatalf("short body: got %#v, want a network failure after one retry", err)
	}
	if n := srv.n.Load() - before; n != 2 {
		t.Fatalf("a lost GET was sent %d times, want 2 (one retry)", n)
	}
	// The bomb's compressed size is under this cap; only counting after
	// decompression stops it.
	if len(bomb) >= 100_000 {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	bc := New(Options{MaxBody: 100_000})
	if _, err := bc.Do(context.Background(), Request{Method: "GET", URL: base + "/bomb", Granted: g}); err == nil || kindOf(t, err) != TooLarge {
		t.Fatalf("gzip bomb: got %v", err)
	}
	resp, err := c.Do(context.Background(), Request{Method: "GET", URL: base + "/gzip-ok", Granted: g})
	if err != nil || string(resp.Body) != `{"small":true}` {
		t.Fatalf("gzip body: %v %q", err, resp.Body)
	}
}

func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/drip":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			for i := 0; i < 100; i++ {
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-time.After(100 * time.Millisecond):
				case <-release:
					return
				}
			}
		case "/silent":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	})
	// A listener that accepts and never answers at all.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mute atomic.Int64
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mute.Add(1)
			defer conn.Close()
		}
	}()
	c := New(Options{HeaderTimeout: 300 * time.Millisecond, RequestTimeout: 800 * time.Millisecond})
	g := grant("127.0.0.1")
	base := "http://127.0.0.1:" + srv.port()
	for _, u := range []string{base + "/drip", base + "/silent", "http://" + ln.Addr().String() + "/"} {
		start := time.Now()
		_, err := c.Do(context.Background(), Request{Method: "GET", URL: u, Granted: g})
		if err == nil || kindOf(t, err) != Timeout {
			t.Errorf("%s: got %v, want a timeout", u, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", u, d)
		}
	}
	if mute.Load() != 1 {
		t.Errorf("the mute server saw %d connections; a timed-out GET is not retried", mute.Load())
	}
	// A POST that was sent and then timed out has an unknown outcome and is
	// never retried.
	before := srv.n.Load()
	_, err = c.Do(context.Background(), Request{Method: "POST", URL: base + "/silent", Body: []byte(`{"a":1}`), Granted: g})
	if err == nil || kindOf(t, err) != OutcomeUnknown {
		t.Fatalf("POST timeout: got %v, want outcome-unknown", err)
	}
	if n := srv.n.Load() - before; n != 1 {
		t.Fatalf("the POST reached the server %d times, want 1", n)
	}
}

func TestPostLostConnectionIsUnknownAndNotRetried(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hj, _, _ := w.(http.Hijacker).Hijack()
		hj.Close()
	})
	c := New(Options{})
	_, err := c.Do(context.Background(), Request{Method: "PATCH", URL: "http://127.0.0.1:" + srv.port() + "/", Body: []byte("x"), Granted: grant("127.0.0.1")})
	if err == nil || kindOf(t, err) != OutcomeUnknown {
		t.Fatalf("got %v, want outcome-unknown", err)
	}
	if srv.n.Load() != 1 {
		t.Fatalf("the PATCH reached the server %d times, want 1", srv.n.Load())
	}
}

// TestDialControlRechecks calls the Dialer.Control guard directly: it
// refuses any address the hop did not pin, and re-vets a resolved one.
func TestDialControlRechecks(t *testing.T) {
	c := New(Options{})
	resolved := &pin{host: "api.example", addrs: []netip.Addr{netip.MustParseAddr("93.184.216.34")}}
	ctl := c.control(resolved)
	if err := ctl("tcp4", "93.184.216.34:443", nil); err != nil {
		t.Fatalf("the pinned address was refused: %v", err)
	}
	for _, a := range []string{"127.0.0.1:443", "[::ffff:127.0.0.1]:443", "10.0.0.1:80", "8.8.8.8:443", "garbage"} {
		if err := ctl("tcp", a, nil); err == nil {
			t.Errorf("control allowed %s", a)
		}
	}
	// A pinned but restricted address (only possible by a bug upstream) is
	// still refused for a resolved name, and accepted for a typed literal.
	bad := &pin{host: "api.example", addrs: []netip.Addr{netip.MustParseAddr("127.0.0.1")}}
	if err := c.control(bad)("tcp4", "127.0.0.1:80", nil); err == nil {
		t.Error("control did not re-vet a resolved address")
	}
	typed := &pin{host: "127.0.0.1", addrs: []netip.Addr{netip.MustParseAddr("127.0.0.1")}, typed: true}
	if err := c.control(typed)("tcp4", "127.0.0.1:80", nil); err != nil {
		t.Errorf("a typed literal was refused: %v", err)
	}
}

func TestHTTPSDowngradeRefused(t *testing.T) {
	plain := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	var n atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Redirect(w, r, "http://127.0.0.1:"+plain.port()+"/", http.StatusFound)
	}))
	defer srv.Close()
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := New(Options{TLS: tlsWithRoots(pool)})
	_, err := c.Do(context.Background(), Request{Method: "GET", URL: srv.URL + "/", Granted: grant("127.0.0.1")})
	if err == nil || kindOf(t, err) != Redirect || n.Load() != 1 || plain.n.Load() != 0 {
		t.Fatalf("got %v; tls %d plain %d", err, n.Load(), plain.n.Load())
	}
}

// closedPort is a port on 127.0.0.1 that nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return p
}

// TestErrorsKeepTheirCause: a failed request's *Error carries the cause
// (the resolver's or the dialer's error) and says whether a request had
// reached a server, so a caller can tell "offline" from a lost answer.
func TestErrorsKeepTheirCause(t *testing.T) {
	c := New(Options{Resolver: newAnswers()})
	_, err := c.Do(context.Background(), Request{Method: "GET", URL: "https://nowhere.example/", Granted: grant("nowhere.example")})
	var dns *net.DNSError
	var e *Error
	if !errors.As(err, &e) || e.Kind != Network || e.Sent || !errors.As(err, &dns) || !dns.IsNotFound {
		t.Fatalf("an unresolvable host: %#v, want a network error caused by the resolver's *net.DNSError, not sent", err)
	}

	_, err = c.Do(context.Background(), Request{Method: "POST", URL: "http://127.0.0.1:" + closedPort(t) + "/", Body: []byte("{}"), Granted: grant("127.0.0.1")})
	var op *net.OpError
	if !errors.As(err, &e) || e.Kind != Network || e.Sent || !errors.As(err, &op) || op.Op != "dial" {
		t.Fatalf("a refused connection: %#v, want a network error caused by the dial's *net.OpError, not sent", err)
	}

	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hj, _, _ := w.(http.Hijacker).Hijack()
		hj.Close()
	})
	_, err = c.Do(context.Background(), Request{Method: "PATCH", URL: "http://127.0.0.1:" + srv.port() + "/", Body: []byte("x"), Granted: grant("127.0.0.1")})
	if !errors.As(err, &e) || e.Kind != OutcomeUnknown || !e.Sent || errors.Unwrap(err) == nil {
		t.Fatalf("a lost answer: %#v, want outcome-unknown, sent, with its cause", err)
	}
}
