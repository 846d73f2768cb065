package outbound

import (
	"fmt"
	"net/netip"
	"strings"

	"code.dny.dev/ssrf"
)

// special is the library's deny list of special-purpose prefixes. Ports are not its
// business here: receivers listen where they like.
var special = ssrf.New(ssrf.WithAnyPort())

// Guard decides which addresses outbound calls may reach. It is immutable and safe for
// concurrent use; the zero value (and a nil *Guard) allows no private network.
type Guard struct {
	allow []netip.Prefix
}

// NewGuard returns a guard that lets addresses inside allow through, whatever they are.
func NewGuard(allow []netip.Prefix) *Guard {
	g := &Guard{}
	for _, p := range allow {
		if p.IsValid() {
			g.allow = append(g.allow, normalizePrefix(p))
		}
	}
	return g
}

// ParseAllowList reads a comma-separated list of CIDRs or bare addresses (a bare address is
// a /32 or /128). An empty list is nil.
func ParseAllowList(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		var p netip.Prefix
		if strings.Contains(item, "/") {
			var err error
			if p, err = netip.ParsePrefix(item); err != nil {
				return nil, fmt.Errorf("parsing allowed network %q: %w", item, err)
			}
		} else {
			a, err := netip.ParseAddr(item)
			if err != nil {
				return nil, fmt.Errorf("parsing allowed network %q: %w", item, err)
			}
			if a.Zone() != "" {
				return nil, fmt.Errorf("parsing allowed network %q: zones are not allowed", item)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, normalizePrefix(p))
	}
	return out, nil
}

// normalizePrefix masks p and writes an IPv4-mapped prefix (::ffff:10.0.0.0/104) as the
// IPv4 prefix it is, since addresses are unmapped before they are compared.
func normalizePrefix(p netip.Prefix) netip.Prefix {
	p = p.Masked()
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p
}

// BlockedError is a refused destination. Callers show Error() to whoever configured it.
type BlockedError struct {
	// Host is the URL host as given, when the refusal is about a URL ("" at dial time).
	Host string
	// Addr is the refused address, when there is one.
	Addr netip.Addr
	// Reason says why: "a loopback address", or a whole sentence when there is no Addr.
	Reason string

	resolved bool // Host is a name that resolved to Addr, not a way of writing it
}

func (e *BlockedError) Error() string {
	switch {
	case !e.Addr.IsValid():
		return e.Reason
	case e.Host == "" || e.Host == e.Addr.String():
		return fmt.Sprintf("%s is %s", e.Addr, e.Reason)
	case e.resolved:
		return fmt.Sprintf("%s resolves to %s, %s", e.Host, e.Addr, e.Reason)
	default:
		return fmt.Sprintf("%s means %s, %s", e.Host, e.Addr, e.Reason)
	}
}

// CheckAddr is the decision: nil when ip may be reached, a *BlockedError saying why not.
func (g *Guard) CheckAddr(ip netip.Addr) error {
	if !ip.IsValid() {
		return &BlockedError{Reason: "no valid destination address"}
	}
	// ::ffff:127.0.0.1 is 127.0.0.1 on the wire; a zone only picks the interface.
	ip = ip.WithZone("").Unmap()
	if g == nil {
		g = &Guard{}
	}
	for _, p := range g.allow {
		if p.Contains(ip) {
			return nil
		}
	}
	if why := classify(ip); why != "" {
		return &BlockedError{Addr: ip, Reason: why}
	}
	// Whatever the names above miss, the library's registry-derived list still denies.
	if err := special.SafeAddr(ip); err != nil {
		if ip.Is6() && !ssrf.IPv6GlobalUnicast.Contains(ip) {
			return &BlockedError{Addr: ip, Reason: "outside the IPv6 global unicast range"}
		}
		return &BlockedError{Addr: ip, Reason: "a special-purpose address"}
	}
	return nil
}

var (
	metadata4 = netip.MustParseAddr("169.254.169.254")
	metadata6 = netip.MustParseAddr("fd00:ec2::254")
	cgnat     = netip.MustParsePrefix("100.64.0.0/10")
	thisNet   = netip.MustParsePrefix("0.0.0.0/8")
	// IPv6 forms that carry an IPv4 address: NAT64 (well-known and local-use), SIIT's
	// IPv4-translated form, and the deprecated IPv4-compatible form.
	translated = []netip.Prefix{
		netip.MustParsePrefix("64:ff9b::/96"),
		netip.MustParsePrefix("64:ff9b:1::/48"),
		netip.MustParsePrefix("::ffff:0:0:0/96"),
		netip.MustParsePrefix("::/96"),
	}
)

// classify names the kinds of address that people ask about; "" for anything else. The
// names make refusals readable; the library's list remains the backstop in CheckAddr.
func classify(ip netip.Addr) string {
	switch {
	case ip == metadata4 || ip == metadata6:
		return "a cloud metadata address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsLoopback():
		return "a loopback address"
	case cgnat.Contains(ip):
		return "a carrier-grade NAT address"
	case ip.IsPrivate():
		return "a private address"
	case ip.IsLinkLocalUnicast():
		return "a link-local address"
	case ip.IsLinkLocalMulticast():
		return "a link-local multicast address"
	case ip.IsMulticast():
		return "a multicast address"
	case thisNet.Contains(ip):
		return "a this-network address"
	}
	for _, p := range translated {
		if p.Contains(ip) {
			return "an IPv6 address carrying an IPv4 address"
		}
	}
	return ""
}
