package netclient

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// CanonicalHost returns the one spelling of a URL host (without port) that
// grants, the resolver, the dial and TLS all use:
//
//   - an IP literal (with or without IPv6 brackets) in netip's canonical
//     form, without brackets; zoned addresses are refused;
//   - a numeric IPv4 spelling that a resolver would read as an address
//     (2130706433, 0x7f.1, 0177.0.0.1) rewritten to dotted decimal, or
//     refused when it is not a valid address;
//   - otherwise a lowercase ASCII name (IDNA "lookup" profile) whose labels
//     are letters, digits and inner hyphens; a name with a trailing dot is
//     refused, never read as the name without it.
func CanonicalHost(h string) (string, error) {
	if h == "" {
		return "", errors.New("the address has no host")
	}
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", errors.New("the address has an unterminated IPv6 literal")
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() {
			return "", fmt.Errorf("%q is not a valid IPv6 literal", h)
		}
		if a.Zone() != "" {
			return "", errors.New("an IPv6 literal with a zone cannot be used")
		}
		return a.String(), nil
	}
	if a, err := netip.ParseAddr(h); err == nil {
		if a.Zone() != "" {
			return "", errors.New("an IPv6 literal with a zone cannot be used")
		}
		return a.String(), nil
	}
	// A trailing dot makes a fully qualified name that resolves like the
	// plain one but is another string: it is refused rather than stripped,
	// so it can never ride on the plain name's grant.
	if strings.HasSuffix(h, ".") {
		return "", fmt.Errorf("%q ends in a dot; write the host name without it", h)
	}
	name := h
	labels := strings.Split(name, ".")
	if last := labels[len(labels)-1]; looksNumeric(strings.ToLower(last)) {
		a, ok := parseInetAton(strings.ToLower(name))
		if !ok {
			return "", fmt.Errorf("%q is a malformed numeric address", h)
		}
		return a.String(), nil
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid host name", h)
	}
	if err := checkLDH(ascii); err != nil {
		return "", fmt.Errorf("%q is not a valid host name: %w", h, err)
	}
	return ascii, nil
}

// checkLDH checks an ASCII name: 1–253 bytes, labels of 1–63 letters,
// digits and hyphens that neither start nor end with a hyphen.
func checkLDH(name string) error {
	if len(name) == 0 || len(name) > 253 {
		return errors.New("a name must be 1 to 253 characters")
	}
	for _, label := range strings.Split(name, ".") {
		if len(label) == 0 || len(label) > 63 {
			return errors.New("each label must be 1 to 63 characters")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return errors.New("a label cannot start or end with a hyphen")
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return errors.New("a label may hold only letters, digits and hyphens")
			}
		}
	}
	return nil
}

// looksNumeric reports whether a label is a number in the sense of the
// WHATWG URL host parser: decimal digits, or 0x followed by hex digits.
// A name whose last label is numeric must parse as an IPv4 address.
func looksNumeric(label string) bool {
	if label == "" {
		return false
	}
	if strings.HasPrefix(label, "0x") {
		for _, c := range label[2:] {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	for _, c := range label {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseInetAton parses the 1–4 part IPv4 forms inet_aton accepts, each
// part decimal, octal (leading 0) or hex (0x).
func parseInetAton(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return netip.Addr{}, false
		}
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	last := len(nums) - 1
	for i := 0; i < last; i++ {
		if nums[i] > 255 {
			return netip.Addr{}, false
		}
		v |= nums[i] << (8 * (3 - i))
	}
	if nums[last] >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	v |= nums[last]
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
