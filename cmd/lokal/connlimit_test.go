package main

import (
	"io"
	"net"
	"net/netip"
	"testing"
	"time"
)

// acceptor runs Accept on ln and hands over what it returns.
func acceptor(t *testing.T, ln net.Listener) <-chan net.Conn {
	t.Helper()
	conns := make(chan net.Conn, 16)
	go func() {
		defer close(conns)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return conns
}

// accepted waits for the next accepted connection; the minute is a guard, not a measure.
func accepted(t *testing.T, conns <-chan net.Conn) net.Conn {
	t.Helper()
	select {
	case c := <-conns:
		t.Cleanup(func() { c.Close() })
		return c
	case <-time.After(time.Minute):
		t.Fatal("no connection was accepted")
		return nil
	}
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// refused reports whether the server closed c without a byte.
func refused(t *testing.T, c net.Conn) bool {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the connection was neither served nor closed")
	}
	return err != nil
}

// TestConnLimitPerIP opens real loopback connections against a cap of two: the third is
// closed at once, and closing one of the first two makes room for another.
func TestConnLimitPerIP(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := limitConnsPerIP(inner, 2, nil)
	conns := acceptor(t, ln)
	addr := inner.Addr().String()

	dial(t, addr)
	first := accepted(t, conns)
	c2 := dial(t, addr)
	second := accepted(t, conns)

	third := dial(t, addr)
	if !refused(t, third) {
		t.Fatal("the third connection from one IP was not closed")
	}

	// Served connections stay open: the server's end writes and the client reads it.
	if _, err := second.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(c2, make([]byte, 1)); err != nil {
		t.Fatalf("the second connection was not served: %v", err)
	}

	// Closing twice releases once.
	first.Close()
	first.Close()
	fourth := dial(t, addr)
	served := accepted(t, conns)
	if _, err := served.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(fourth, make([]byte, 1)); err != nil {
		t.Fatalf("the connection after a release was not served: %v", err)
	}
	if !refused(t, dial(t, addr)) {
		t.Fatal("a double Close released two places")
	}
}

// TestConnLimitExempt checks that connections from exempt networks (trusted proxies) are
// not counted.
func TestConnLimitExempt(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := acceptor(t, limitConnsPerIP(inner, 1, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}))
	for range 3 {
		c := dial(t, inner.Addr().String())
		s := accepted(t, conns)
		if _, err := s.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, make([]byte, 1)); err != nil {
			t.Fatalf("an exempt connection was not served: %v", err)
		}
	}
}

// TestClientKey checks what one client is: an IPv4 address (mapped or not), or an IPv6 /64.
func TestClientKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		addr string
		want string
	}{
		{"192.0.2.7:443", "192.0.2.7/32"},
		{"[::ffff:192.0.2.7]:443", "192.0.2.7/32"},
		{"[2001:db8:1:2:aaaa::1]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:80", "2001:db8:1:2::/64"},
		{"[fe80::1%eth0]:80", "fe80::/64"},
	} {
		got, ok := clientKey(net.TCPAddrFromAddrPort(netip.MustParseAddrPort(tt.addr)))
		if !ok || got.String() != tt.want {
			t.Errorf("clientKey(%s) = %s, %v; want %s", tt.addr, got, ok, tt.want)
		}
	}
	if limitConnsPerIP(nil, 0, nil) != nil {
		t.Error("a cap of 0 wraps the listener")
	}
}
