package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest/reqbody"
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

// TestConnLimitReleasedWhenServerEnds: a connection the server ends itself (a body that did
// not arrive in time, cut off by reqbody.Guard) gives its place back, so a client held to
// one connection is served again once its slow one was answered.
func TestConnLimitReleasedWhenServerEnds(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := reqbody.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		}
	}), 300*time.Millisecond)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Minute}
	go srv.Serve(limitConnsPerIP(inner, 1, nil)) //nolint:errcheck // ends with the test
	t.Cleanup(func() { srv.Close() })
	addr := inner.Addr().String()

	slow := dial(t, addr)
	if _, err := io.WriteString(slow, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	slow.SetReadDeadline(time.Now().Add(time.Minute))
	res, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil {
		t.Fatalf("the slow request got no answer: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !res.Close {
		t.Fatalf("the slow request: %d, close %v; want 503 closing the connection", res.StatusCode, res.Close)
	}

	// The server closes its end shortly after the answer; until then the place is taken.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c := dial(t, addr)
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") //nolint:errcheck // a refused one fails the read
		c.SetReadDeadline(time.Now().Add(time.Minute))
		if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the place of a connection the server ended was not given back")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
