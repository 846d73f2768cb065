package main

import (
	"io"
	"net"
	"net/netip"
	"sync"

	"github.com/lokal-dev/lokal/tools"
)

// limitConnsPerIP caps the open connections of each client on ln: one client trickling
// bodies over many connections must not hold all of the server's. A connection past the cap
// is closed at once. Connections from exempt networks (trusted proxies, which carry many
// clients) are not counted. max 0 means no cap.
func limitConnsPerIP(ln net.Listener, max int, exempt []netip.Prefix) net.Listener {
	if max <= 0 {
		return ln
	}
	return &perIPListener{Listener: ln, max: max, exempt: exempt, open: map[netip.Prefix]int{}}
}

type perIPListener struct {
	net.Listener
	max    int
	exempt []netip.Prefix

	mu   sync.Mutex
	open map[netip.Prefix]int
}

// clientKey is what one client is counted by: its IPv4 address, or its IPv6 /64, which
// is what one site gets and can fill with addresses at will.
func clientKey(addr net.Addr) (netip.Prefix, bool) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return netip.Prefix{}, false
	}
	return tools.AddressPrefix(tcp.AddrPort().Addr()), true
}

func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, ok := clientKey(c.RemoteAddr())
		if !ok || l.isExempt(key.Addr()) {
			return c, nil
		}
		l.mu.Lock()
		if l.open[key] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[key]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(key) }}, nil
	}
}

func (l *perIPListener) isExempt(ip netip.Addr) bool {
	for _, p := range l.exempt {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

func (l *perIPListener) release(key netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// countedConn gives its place back once, on the first Close.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite and ReadFrom keep what net/http finds on a *net.TCPConn: a half-close before
// closing on errors, and sendfile.
func (c *countedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *countedConn) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.Conn, r) }
