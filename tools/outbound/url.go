package outbound

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Resolver looks up a host's addresses; *net.Resolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

var _ Resolver = (*net.Resolver)(nil)

// CheckURL validates a URL when it is configured: http or https, no user name or password,
// a host, and every address the host stands for allowed. Literal hosts are read in every
// form browsers accept; names are resolved with resolver (nil: net.DefaultResolver). The
// dial-time check still runs on every call, since DNS answers change.
func (g *Guard) CheckURL(ctx context.Context, raw string, resolver Resolver) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return fmt.Errorf("parsing URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return &BlockedError{Reason: fmt.Sprintf("scheme %q is not allowed: use http or https", u.Scheme)}
	}
	if u.User != nil {
		return &BlockedError{Reason: "URLs with a user name or password are not allowed"}
	}
	host := u.Hostname()
	if host == "" {
		return &BlockedError{Reason: "the URL has no host"}
	}
	if literal, err := g.checkLiteral(host); literal || err != nil {
		return err
	}
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	name := asciiHost(host)
	addrs, err := resolver.LookupNetIP(ctx, "ip", name)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return fmt.Errorf("resolving %s: no addresses", host)
	}
	// One private answer is enough: the dialer may pick any of them.
	for _, a := range addrs {
		if err := g.CheckAddr(a); err != nil {
			var b *BlockedError
			if errors.As(err, &b) {
				b.Host, b.resolved = host, true
			}
			return err
		}
	}
	return nil
}

// checkLiteral reports whether host is an IP literal and, if so, whether it is refused. A
// literal not written as Go dials it (a dotted quad or an IPv6 address) is refused even
// when its address is public: Go would send it to DNS as a name, so what it reaches is
// whatever a resolver makes of it.
func (g *Guard) checkLiteral(host string) (bool, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if err := g.CheckAddr(a); err != nil {
			var b *BlockedError
			if errors.As(err, &b) {
				b.Host = host
			}
			return true, err
		}
		return true, nil
	}
	if strings.Contains(host, ":") {
		return true, &BlockedError{Host: host, Reason: fmt.Sprintf("%q is not a valid IPv6 address", host)}
	}
	ascii := asciiHost(host)
	if !endsInNumber(ascii) {
		return false, nil
	}
	a, ok := parseIPv4Legacy(ascii)
	if !ok {
		return true, &BlockedError{Host: host, Reason: fmt.Sprintf("%q is neither a host name nor an IPv4 address", host)}
	}
	if err := g.CheckAddr(a); err != nil {
		var b *BlockedError
		if errors.As(err, &b) {
			b.Host = host
		}
		return true, err
	}
	return true, &BlockedError{Host: host, Reason: fmt.Sprintf("%q is an unusual way to write %s: write the address as %s", host, a, a)}
}

// asciiHost maps a host the way browsers do before they look at it (full-width digits and
// dots become ASCII, letters are folded); a host the mapping refuses is used as given.
func asciiHost(host string) string {
	if s, err := idna.Lookup.ToASCII(host); err == nil {
		return s
	}
	if utf8.ValidString(host) {
		return strings.ToLower(host)
	}
	return host
}

// endsInNumber is the WHATWG URL rule that makes a host an IPv4 address: its last label
// (ignoring one trailing dot) is all digits or a 0x number.
func endsInNumber(host string) bool {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4Legacy is the WHATWG IPv4 parser (also what inet_aton accepts): one to four
// parts, each decimal, octal (leading 0) or hex (0x), the last filling the remaining bytes.
func parseIPv4Legacy(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, false
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, false
		}
		v |= n
	}
	if v > math.MaxUint32 {
		return netip.Addr{}, false
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if strings.ContainsAny(s, "+-_") {
		return 0, false
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}
