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
		return bracketedIPv6(h)
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return unzoned(a)
	}
	// A trailing dot makes a fully qualified name that resolves like the
	// plain one but is another string: it is refused rather than stripped,
	// so it can never ride on the plain name's grant.
	if strings.HasSuffix(h, ".") {
		return "", fmt.Errorf("%q ends in a dot; write the host name without it", h)
	}
	if last := h[strings.LastIndexByte(h, '.')+1:]; looksNumeric(strings.ToLower(last)) {
		a, ok := parseInetAton(strings.ToLower(h))
		if !ok {
			return "", fmt.Errorf("%q is a malformed numeric address", h)
		}
		return a.String(), nil
	}
	return asciiName(h)
}

// bracketedIPv6 is the canonical form of an IPv6 literal in brackets.
func bracketedIPv6(h string) (string, error) {
	if !strings.HasSuffix(h, "]") {
		return "", errors.New("the address has an unterminated IPv6 literal")
	}
	a, err := netip.ParseAddr(h[1 : len(h)-1])
	if err != nil || !a.Is6() {
		return "", fmt.Errorf("%q is not a valid IPv6 literal", h)
	}
	return unzoned(a)
}

// unzoned is a's canonical form; an address with a zone is refused.
func unzoned(a netip.Addr) (string, error) {
	if a.Zone() != "" {
		return "", errors.New("an IPv6 literal with a zone cannot be used")
	}
	return a.String(), nil
}

// asciiName is the lowercase ASCII form (IDNA "lookup" profile) of the
// host name h, whose labels must be letters, digits and inner hyphens.
func asciiName(h string) (string, error) {
	ascii, err := idna.Lookup.ToASCII(h)
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
		if err := checkLabel(label); err != nil {
			return err
		}
	}
	return nil
}

// checkLabel checks one label of an ASCII name.
func checkLabel(label string) error {
	if len(label) == 0 || len(label) > 63 {
		return errors.New("each label must be 1 to 63 characters")
	}
	if label[0] == '-' || label[len(label)-1] == '-' {
		return errors.New("a label cannot start or end with a hyphen")
	}
	if strings.TrimLeft(label, ldhBytes) != "" {
		return errors.New("a label may hold only letters, digits and hyphens")
	}
	return nil
}

// ldhBytes are the bytes a label of an ASCII name may hold.
const ldhBytes = "abcdefghijklmnopqrstuvwxyz0123456789-"

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
		n, ok := parseAtonPart(p)
		if !ok {
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

// parseAtonPart parses one part of an inet_aton address: decimal, octal
// (leading 0) or hex (0x, alone meaning 0), at most 32 bits.
func parseAtonPart(p string) (uint64, bool) {
	base := 10
	switch {
	case p == "":
		return 0, false
	case p == "0x":
		return 0, true
	case strings.HasPrefix(p, "0x"):
		base, p = 16, p[2:]
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 32)
	return n, err == nil
}
