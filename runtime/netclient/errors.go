package netclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
)

// ErrorKind says why a request failed.
type ErrorKind string

// The ways a request can fail. NotGranted, Refused, Redirect, Address and
// TooLarge are policy refusals made before or instead of reading data;
// Timeout and Network are failures of the exchange itself; OutcomeUnknown
// is an effectful request whose fate the client cannot know.
const (
	// NotGranted: the host is not in the request's grant.
	NotGranted ErrorKind = "not-granted"
	// Refused: the address itself is refused (scheme, credentials, file:).
	Refused ErrorKind = "refused"
	// Redirect: a redirect hop was refused (cross-host, protocol-relative,
	// downgrade, loop or too many hops).
	Redirect ErrorKind = "redirect"
	// Address: the host resolved to an address that may not be dialled,
	// or to a mix of allowed and refused addresses.
	Address ErrorKind = "address"
	// TooLarge: the body was over the cap (declared or counted).
	TooLarge ErrorKind = "too-large"
	// Timeout: a connect, header or whole-request deadline passed.
	Timeout ErrorKind = "timeout"
	// Network: the connection failed or was lost.
	Network ErrorKind = "network"
	// OutcomeUnknown: a POST or PATCH was sent, then the connection was
	// lost or timed out before a whole answer came back. It is never
	// retried.
	OutcomeUnknown ErrorKind = "outcome-unknown"
)

// Error is the only error type Do returns.
type Error struct {
	Kind ErrorKind
	// Host is the host the failing hop attempted (canonical form when it
	// could be computed).
	Host string
	// Msg is one sentence for diagnostics.
	Msg string
	// Retried reports that a GET was tried a second time before failing.
	Retried bool
	// Sent reports that a whole request had been written to a server
	// before the failure (on any hop). A failure with Sent false happened
	// before anything reached a server: resolving, connecting, the TLS
	// handshake, or writing the request.
	Sent bool
	// Cause is set when the request never reached a server (a Network or
	// Timeout failure with Sent false): why it did not get through.
	Cause Cause
	// Err is the underlying cause when there is one (a resolver, dial,
	// TLS or read error, or the address vetting's reason); nil for a
	// refusal by markii's own rules that has no other cause.
	Err error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause (nil when there is none).
func (e *Error) Unwrap() error { return e.Err }

// Cause is why a request never reached a server.
type Cause string

// The causes of a request that never reached a server.
const (
	// NotResolved: the name did not resolve (or had no addresses).
	NotResolved Cause = "dns"
	// ConnectRefused: nothing listens at the address.
	ConnectRefused Cause = "refused"
	// ConnectTimeout: resolving or connecting took longer than allowed.
	ConnectTimeout Cause = "timeout"
	// TLSFailed: the secure connection could not be set up.
	TLSFailed Cause = "tls"
	// ConnectReset: the connection was reset or closed before the request
	// was written.
	ConnectReset Cause = "reset"
	// NoConnection: any other failure to connect (no route, network down).
	NoConnection Cause = "connect"
)

// Sentence says why a request to host never reached it, in words shown
// after "offline: ".
func (c Cause) Sentence(host string) string {
	for _, cs := range causeSentences {
		if cs.cause == c {
			return fmt.Sprintf(cs.form, host)
		}
	}
	return host + " could not be reached"
}

// causeSentences are the sentences of the causes that say more than
// "could not be reached", with %s for the host (an array, which the
// linker lays out: no package init builds a table).
var causeSentences = [...]struct {
	cause Cause
	form  string
}{
	{NotResolved, "%s could not be resolved"},
	{ConnectRefused, "%s refused the connection"},
	{ConnectTimeout, "%s could not be reached in time"},
	{TLSFailed, "the secure connection to %s failed"},
	{ConnectReset, "the connection to %s was reset"},
}

// causeOf names why an exchange that wrote no request failed.
func causeOf(ctx context.Context, err error) Cause {
	var (
		ne       net.Error
		certErr  *tls.CertificateVerificationError
		alertErr tls.AlertError
		recErr   tls.RecordHeaderError
		unknown  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invalid  x509.CertificateInvalidError
		dnsErr   *net.DNSError
	)
	switch {
	case errors.As(err, &dnsErr):
		return NotResolved
	case errors.Is(err, syscall.ECONNREFUSED):
		return ConnectRefused
	case errors.As(err, &certErr), errors.As(err, &alertErr), errors.As(err, &recErr),
		errors.As(err, &unknown), errors.As(err, &hostErr), errors.As(err, &invalid):
		return TLSFailed
	case errors.Is(err, context.DeadlineExceeded), ctx.Err() != nil, errors.As(err, &ne) && ne.Timeout():
		return ConnectTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.EPIPE):
		return ConnectReset
	}
	return NoConnection
}

// Policy reports whether the failure is a refusal by markii's own rules
// (as opposed to the network or the server failing).
func (e *Error) Policy() bool {
	switch e.Kind {
	case NotGranted, Refused, Redirect, Address, TooLarge:
		return true
	}
	return false
}

func errorf(kind ErrorKind, host, format string, a ...any) *Error {
	return &Error{Kind: kind, Host: host, Msg: fmt.Sprintf(format, a...)}
}

// because sets e's cause and returns e.
func (e *Error) because(cause error) *Error {
	e.Err = cause
	return e
}
