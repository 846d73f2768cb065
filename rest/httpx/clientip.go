package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
)

// Proxies are the networks whose X-Forwarded-For is believed. The zero value trusts nobody:
// every client is the connection's address.
type Proxies struct {
	nets []netip.Prefix
}

// NewProxies trusts the proxies in nets.
func NewProxies(nets []netip.Prefix) Proxies {
	return Proxies{nets: slices.Clone(nets)}
}

// ParseProxies trusts the proxies in list: networks (CIDR) or single addresses.
func ParseProxies(list []string) (Proxies, error) {
	nets := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		if !strings.Contains(s, "/") {
			a, err := netip.ParseAddr(s)
			if err != nil {
				return Proxies{}, fmt.Errorf("trusted proxy %q is neither a network nor an address", s)
			}
			a = a.Unmap().WithZone("")
			nets = append(nets, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		n, err := netip.ParsePrefix(s)
		if err != nil {
			return Proxies{}, fmt.Errorf("trusted proxy %q: %w", s, err)
		}
		nets = append(nets, n)
	}
	return NewProxies(nets), nil
}

func (p Proxies) trust(a netip.Addr) bool {
	a = a.Unmap()
	for _, n := range p.nets {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP is the address a request comes from: the connection's, unless the connection
// comes from a trusted proxy. Then it is the nearest address in X-Forwarded-For (every
// such header, in order) that is not a trusted proxy, or the farthest when all are; a
// client cannot choose its address by sending the header itself, since the proxies append
// to it. A header that does not parse is not believed.
func (p Proxies) ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if !p.trust(peer) {
		if peer.Is4() {
			// Already in its one written form (ParseAddr takes no other): no copy.
			return host
		}
		return peer.Unmap().String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	if len(hops) == 1 && hops[0] == "" {
		return peer.Unmap().String()
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil || a.Zone() != "" {
			return peer.Unmap().String()
		}
		client = a
		if !p.trust(a) {
			break
		}
	}
	return client.Unmap().String()
}

// clientIPKey holds the resolved address in a Gin context; GinClientIP reads it.
type clientIPKey struct{}

// Gin is middleware that resolves the client address once per request, for GinClientIP.
func (p Proxies) Gin(c *gin.Context) {
	c.Set(clientIPKey{}, p.ClientIP(c.Request))
}

// GinClientIP is the client address Proxies.Gin resolved, or the connection's when the
// router does not run it.
func GinClientIP(c *gin.Context) string {
	if ip, ok := c.Get(clientIPKey{}); ok {
		return ip.(string)
	}
	return Proxies{}.ClientIP(c.Request)
}
