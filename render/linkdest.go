package render

import (
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// misleadingLink reports whether a link's text reads as an address on a
// different host than the link's target, and returns the target's host in
// ASCII (Punycode) form, which cannot pass for another name the way a
// Unicode look-alike can. The text reads as an address when, trimmed of
// spaces and one pair of angle brackets, it is an absolute URL with any
// host (`https://bank.com/login`) or a bare domain-shaped host with an optional port and path
// (`bank.com`, `www.bank.com/login`, `10.0.0.1:8080`). A target without a
// host (a relative link, mailto:, tel:) is never misleading, and neither
// is a text naming the target's host itself or its `www.` twin.
func misleadingLink(text, target string) (string, bool) {
	named, ok := textHost(text)
	if !ok {
		return "", false
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return "", false
	}
	real := asciiHost(u.Hostname())
	if real == "" || real == named || real == "www."+named || named == "www."+real {
		return "", false
	}
	return real, true
}

// textHost returns the host a link text names when the whole text is an
// address, in the form asciiHost gives.
func textHost(text string) (string, bool) {
	t, ok := wholeAddress(text)
	if !ok {
		return "", false
	}
	t, withScheme, ok := cutScheme(t)
	if !ok {
		return "", false
	}
	// Any host after a scheme makes the text a URL; without one, only an
	// IP address or a name of the shape of a domain does.
	host := authorityHost(authority(t))
	if host == "" || !(withScheme || isIPHost(host) || looksLikeDomain(host)) {
		return "", false
	}
	return asciiHost(host), true
}

// wholeAddress returns text trimmed and without its angle brackets, and
// whether that is one word that could be an address.
func wholeAddress(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") {
		t = t[1 : len(t)-1]
	}
	return t, t != "" && !strings.ContainsAny(t, " \t")
}

// isIPHost reports whether host is an IPv4 or IPv6 address.
func isIPHost(host string) bool {
	if !strings.ContainsAny(host, ".:") {
		return false
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}

// cutScheme returns t after its `scheme://` and any credentials, and
// whether it had a scheme; ok is false for a scheme of the wrong shape.
func cutScheme(t string) (rest string, withScheme, ok bool) {
	scheme, rest, found := strings.Cut(t, "://")
	if !found {
		return t, false, true
	}
	if !isScheme(scheme) {
		return "", false, false
	}
	if i := strings.LastIndexByte(authority(rest), '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return rest, true, true
}

// authorityHost returns the host of hostport: without a numeric port and
// an IPv6 literal's brackets.
func authorityHost(hostport string) string {
	host := hostport
	if h, port, ok := strings.Cut(hostport, ":"); ok && strings.Count(hostport, ":") == 1 && allDigits(port) {
		host = h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// authority is s up to its first '/', '?' or '#'.
func authority(s string) string {
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		return s[:i]
	}
	return s
}

// isScheme reports whether s has the shape of a URL scheme.
func isScheme(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && !isASCIIDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// looksLikeDomain reports whether h is two or more dot-separated labels of
// letters, digits and hyphens (any script), with an optional final dot,
// whose last label is two or more letters or a Punycode label.
func looksLikeDomain(h string) bool {
	labels := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !domainLabel(l) {
			return false
		}
	}
	return topLevelLabel(strings.ToLower(labels[len(labels)-1]))
}

// domainLabel reports whether l is 1 to 63 bytes of letters, digits and
// hyphens (any script), neither starting nor ending with a hyphen.
func domainLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, r := range l {
		if r < utf8.RuneSelf && !isLabelByte(byte(r)) {
			return false
		}
	}
	return true
}

// isLabelByte reports whether the ASCII byte c may be in a domain label:
// a letter, a digit or a hyphen.
func isLabelByte(c byte) bool { return c == '-' || isASCIIDigit(c) || isASCIILetter(c) }

// topLevelLabel reports whether the lowercased last label tld is a
// Punycode label or two or more letters.
func topLevelLabel(tld string) bool {
	if strings.HasPrefix(tld, "xn--") {
		return true
	}
	if utf8.RuneCountInString(tld) < 2 {
		return false
	}
	return !strings.ContainsAny(tld, "0123456789-")
}

// asciiHost lowercases h, drops a final dot and writes a Unicode name in
// Punycode; a name Punycode cannot express is returned lowercased as is.
func asciiHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if a, err := idna.Punycode.ToASCII(h); err == nil {
		return a
	}
	return h
}
