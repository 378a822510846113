package netclient

import (
	"fmt"
	"net/netip"
	"sync"

	"code.dny.dev/ssrf"
)

// guardian is the IP policy for addresses a resolver returned: the IANA
// special-purpose registries for IPv4 and everything outside IPv6 global
// unicast plus the special-purpose blocks inside it. Ports are not its
// business: a grant covers every port on a host.
// It is built on first use.
func guardian() *ssrf.Guardian {
	guardianOnce.Do(func() { guardianPolicy = ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork()) })
	return guardianPolicy
}

var (
	guardianOnce   sync.Once
	guardianPolicy *ssrf.Guardian
)

var (
	metadataV4 = netip.MustParseAddr("169.254.169.254")
	metadataV6 = netip.MustParseAddr("fd00:ec2::254")
	broadcast  = netip.MustParseAddr("255.255.255.255")
)

// wrapper is an IPv6 block that carries an IPv4 address inside it.
type wrapper struct {
	name   string
	prefix netip.Prefix
	// embedded extracts the carried IPv4 address.
	embedded func(a [16]byte) netip.Addr
}

func v4at(a [16]byte, i int) netip.Addr {
	return netip.AddrFrom4([4]byte{a[i], a[i+1], a[i+2], a[i+3]})
}

var wrappers = []wrapper{
	{"IPv4-compatible", netip.MustParsePrefix("::/96"), func(a [16]byte) netip.Addr { return v4at(a, 12) }},
	{"NAT64", netip.MustParsePrefix("64:ff9b::/96"), func(a [16]byte) netip.Addr { return v4at(a, 12) }},
	{"local NAT64", netip.MustParsePrefix("64:ff9b:1::/48"), func(a [16]byte) netip.Addr { return v4at(a, 12) }},
	{"6to4", netip.MustParsePrefix("2002::/16"), func(a [16]byte) netip.Addr { return v4at(a, 2) }},
	{"Teredo", netip.MustParsePrefix("2001::/32"), func(a [16]byte) netip.Addr {
		// The client address is stored inverted in the last 32 bits.
		return netip.AddrFrom4([4]byte{^a[12], ^a[13], ^a[14], ^a[15]})
	}},
}

// Vet decides whether a resolved address may be connected to. It returns
// nil for a public address; with allowPrivate it also accepts private,
// loopback, link-local and carrier-grade NAT space. Whatever allowPrivate
// says, it refuses zoned, unspecified, multicast and broadcast addresses,
// the cloud metadata addresses, and IPv6 wrappers (IPv4-compatible, NAT64,
// 6to4, Teredo) unless the IPv4 address they carry would itself pass.
// An IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
func Vet(a netip.Addr, allowPrivate bool) error {
	if err := checkForm(a); err != nil {
		return err
	}
	a = a.Unmap()
	if err := neverDialled(a); err != nil {
		return err
	}
	if a.IsLoopback() {
		if allowPrivate {
			return nil
		}
		return fmt.Errorf("%s is a loopback address", a)
	}
	if w, ok := wrapperOf(a); ok {
		return vetWrapped(a, w, allowPrivate)
	}
	if allowPrivate {
		if a.Is4() && a.As4()[0] >= 240 {
			return fmt.Errorf("%s is in reserved space", a)
		}
		return nil
	}
	if err := guardian().SafeAddr(a); err != nil {
		return fmt.Errorf("%s is not a public address", a)
	}
	return nil
}

// checkForm refuses an invalid or zoned address.
func checkForm(a netip.Addr) error {
	if !a.IsValid() {
		return fmt.Errorf("an invalid address")
	}
	if a.Zone() != "" {
		return fmt.Errorf("%s is a zoned address", a)
	}
	return nil
}

// neverDialled refuses the addresses no setting allows: unspecified,
// multicast, broadcast and the cloud metadata addresses.
func neverDialled(a netip.Addr) error {
	switch {
	case a.IsUnspecified():
		return fmt.Errorf("%s is the unspecified address", a)
	case a.IsMulticast():
		return fmt.Errorf("%s is a multicast address", a)
	case a == broadcast:
		return fmt.Errorf("%s is the broadcast address", a)
	case a == metadataV4 || a == metadataV6:
		return fmt.Errorf("%s is the cloud metadata address", a)
	}
	return nil
}

// wrapperOf returns the IPv6 wrapper whose prefix holds a, if any.
func wrapperOf(a netip.Addr) (wrapper, bool) {
	if !a.Is6() {
		return wrapper{}, false
	}
	for _, w := range wrappers {
		if w.prefix.Contains(a) {
			return w, true
		}
	}
	return wrapper{}, false
}

// vetWrapped judges an address of wrapper w by the IPv4 address it
// carries; without allowPrivate a wrapper is never dialled at all.
func vetWrapped(a netip.Addr, w wrapper, allowPrivate bool) error {
	inner := w.embedded(a.As16())
	if err := Vet(inner, allowPrivate); err != nil {
		return fmt.Errorf("%s is a %s address carrying %s, and %w", a, w.name, inner, err)
	}
	if !allowPrivate {
		return fmt.Errorf("%s is a %s address, which is never dialled", a, w.name)
	}
	return nil
}
