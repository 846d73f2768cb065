package outbound_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/tools/outbound"
)

// These tests dial for real, and only loopback: a guard bug can reach nothing but the
// listeners below, which count what arrives.

// listener is an httptest server on a chosen loopback address that counts connections and
// requests.
type listener struct {
	srv      *httptest.Server
	port     string
	conns    atomic.Int64
	requests atomic.Int64
}

func listen(t *testing.T, network, addr string, h http.HandlerFunc) *listener {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	l := &listener{}
	l.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.requests.Add(1)
		if h != nil {
			h(w, r)
		}
	}))
	l.srv.Listener.Close()
	l.srv.Listener = ln
	l.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			l.conns.Add(1)
		}
	}
	l.srv.Start()
	t.Cleanup(l.srv.Close)
	_, l.port, _ = net.SplitHostPort(ln.Addr().String())
	return l
}

// assertUntouched fails unless nothing at all reached l, not even a TCP connection.
func (l *listener) assertUntouched(t *testing.T) {
	t.Helper()
	if c, r := l.conns.Load(), l.requests.Load(); c != 0 || r != 0 {
		t.Errorf("forbidden listener %s received %d connections and %d requests, want none", l.srv.URL, c, r)
	}
}

func loopbackOnly(t *testing.T, name string) bool {
	addrs, err := net.DefaultResolver.LookupNetIP(t.Context(), "ip", name)
	if err != nil || len(addrs) == 0 {
		t.Logf("%s does not resolve here (%v); not dialling it", name, err)
		return false
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			t.Logf("%s resolves to %s here; not dialling it", name, a)
			return false
		}
	}
	return true
}

func wantBlocked(t *testing.T, err error, what string) {
	t.Helper()
	var b *outbound.BlockedError
	if !errors.As(err, &b) {
		t.Errorf("%s: err = %v, want a BlockedError", what, err)
	}
}

// Without an allow list, every way of writing loopback is refused where the connection is
// made, and the listener there sees nothing.
func TestClientRefusesLoopback(t *testing.T) {
	t.Parallel()
	trap := listen(t, "tcp4", "127.0.0.1:0", nil)
	urls := []string{
		"http://127.0.0.1:" + trap.port + "/",
		"http://127.1:" + trap.port + "/",
		"http://2130706433:" + trap.port + "/",
		"http://0177.0.0.1:" + trap.port + "/",
		"http://0x7f000001:" + trap.port + "/",
		"http://[::ffff:127.0.0.1]:" + trap.port + "/",
		"http://0.0.0.0:" + trap.port + "/",
	}
	// localhost is a name: the guard sees its addresses only at dial time, after DNS. It is
	// dialled only where it resolves to loopback alone.
	if loopbackOnly(t, "localhost") {
		urls = append(urls, "http://localhost:"+trap.port+"/")
	}
	var trap6 *listener
	if ln, err := net.Listen("tcp6", "[::1]:0"); err == nil {
		ln.Close()
		trap6 = listen(t, "tcp6", "[::1]:0", nil)
		urls = append(urls, "http://[::1]:"+trap6.port+"/", "http://[::]:"+trap6.port+"/")
	}
	c := outbound.NewGuard(nil).Client(outbound.ClientOptions{FollowRedirects: true})
	for _, u := range urls {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
		}
		wantBlocked(t, err, u)
	}
	trap.assertUntouched(t)
	if trap6 != nil {
		trap6.assertUntouched(t)
	}
}

// With 127.0.0.1/32 allowed, 127.0.0.1 is reachable and 127.0.0.2 (also loopback on Linux,
// outside the list) is not, however it is written and whether reached directly or by a
// redirect.
func TestClientAllowListAndRedirects(t *testing.T) {
	t.Parallel()
	trap := listen(t, "tcp4", "127.0.0.2:0", nil)
	forbidden := "http://127.0.0.2:" + trap.port + "/x"
	var okURL string
	var loops atomic.Int64
	ok := listen(t, "tcp4", "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hello":
			io.WriteString(w, "hello")
		case "/to-forbidden":
			http.Redirect(w, r, forbidden, http.StatusFound)
		case "/to-forbidden-hex":
			http.Redirect(w, r, "http://0x7f000002:"+trap.port+"/", http.StatusTemporaryRedirect)
		case "/to-hello":
			http.Redirect(w, r, okURL+"/hello", http.StatusMovedPermanently)
		case "/loop":
			loops.Add(1)
			http.Redirect(w, r, okURL+"/loop", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	okURL = "http://127.0.0.1:" + ok.port
	allow, err := outbound.ParseAllowList("127.0.0.1/32")
	if err != nil {
		t.Fatal(err)
	}
	g := outbound.NewGuard(allow)
	follow := g.Client(outbound.ClientOptions{FollowRedirects: true, MaxRedirects: 3})
	noFollow := g.Client(outbound.ClientOptions{})

	get := func(c *http.Client, u string) (*http.Response, string, error) {
		resp, err := c.Get(u)
		if err != nil {
			return nil, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b), nil
	}

	// The allowed server answers, directly and through a redirect to itself.
	for _, u := range []string{okURL + "/hello", okURL + "/to-hello"} {
		resp, body, err := get(follow, u)
		if err != nil || resp.StatusCode != http.StatusOK || body != "hello" {
			t.Fatalf("GET %s = %v %q %v, want 200 hello", u, resp, body, err)
		}
	}

	// 127.0.0.2 in every form, dialled directly.
	for _, host := range []string{"127.0.0.2", "[::ffff:127.0.0.2]", "2130706434", "0177.0.0.2", "0x7f000002", "127.0.2"} {
		u := "http://" + host + ":" + trap.port + "/"
		_, _, err := get(follow, u)
		wantBlocked(t, err, u)
		if host == "127.0.0.2" && (err == nil || !strings.Contains(err.Error(), "127.0.0.2 is a loopback address")) {
			t.Errorf("GET %s: err = %v, want it to say why", u, err)
		}
	}

	// A redirect to it is dialled through the same guard.
	for _, path := range []string{"/to-forbidden", "/to-forbidden-hex"} {
		_, _, err := get(follow, okURL+path)
		wantBlocked(t, err, path)
	}

	// Not following: the 3xx itself comes back, and nothing is dialled.
	resp, _, err := get(noFollow, okURL+"/to-forbidden")
	if err != nil || resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != forbidden {
		t.Fatalf("no-follow GET = %v %v, want the 302 to %s", resp, err, forbidden)
	}

	// MaxRedirects 3: the first request and three redirects, then an error.
	if _, _, err := get(follow, okURL+"/loop"); err == nil || !strings.Contains(err.Error(), "stopped after 3") {
		t.Errorf("redirect loop: err = %v, want stopped after 3", err)
	}
	if n := loops.Load(); n != 4 {
		t.Errorf("redirect loop reached the server %d times, want 4", n)
	}

	trap.assertUntouched(t)
}
