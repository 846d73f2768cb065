package outbound

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ClientOptions tune [Guard.Client].
type ClientOptions struct {
	// Timeout bounds a whole call, redirects and body included. Zero means 30 seconds: a
	// call to a user's URL is never unbounded.
	Timeout time.Duration
	// FollowRedirects follows 3xx answers (each through the guard); otherwise the 3xx
	// response itself is returned, which is what webhooks need.
	FollowRedirects bool
	// MaxRedirects caps the redirects followed; zero means 10.
	MaxRedirects int
	// RootCAs, when set, replaces the system's roots for https (tests' own servers).
	RootCAs *x509.CertPool
}

// Client returns an HTTP client whose every connection passes g. Build it once and reuse
// it: it holds the connection pool.
func (g *Guard) Client(opts ClientOptions) *http.Client {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.MaxRedirects <= 0 {
		opts.MaxRedirects = 10
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.control}
	base := &http.Transport{
		Proxy:                 nil, // the guard must see the destination, not a proxy
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	if opts.RootCAs != nil {
		base.TLSClientConfig = &tls.Config{RootCAs: opts.RootCAs, MinVersion: tls.VersionTLS12}
	}
	c := &http.Client{Transport: &transport{guard: g, base: base}, Timeout: opts.Timeout}
	if opts.FollowRedirects {
		max := opts.MaxRedirects
		c.CheckRedirect = func(_ *http.Request, via []*http.Request) error {
			if len(via) > max {
				return fmt.Errorf("following redirects: stopped after %d", max)
			}
			return nil
		}
	} else {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}

// control runs on every connection attempt with the address being dialled, after DNS.
func (g *Guard) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return &BlockedError{Reason: fmt.Sprintf("network %s is not allowed", network)}
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedError{Reason: fmt.Sprintf("cannot read dialled address %q", address)}
	}
	return g.CheckAddr(ap.Addr())
}

// transport refuses literal hosts in forms Go would hand to DNS as names (2130706433,
// 0x7f000001, 127.1) before any lookup; everything else is left to the dialer's check.
// It sees every request, redirects included.
type transport struct {
	guard *Guard
	base  *http.Transport
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	fail := func(err error) (*http.Response, error) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fail(&BlockedError{Reason: fmt.Sprintf("scheme %q is not allowed: use http or https", req.URL.Scheme)})
	}
	host := req.URL.Hostname()
	if host == "" {
		return fail(&BlockedError{Reason: "the URL has no host"})
	}
	// Plain IP literals go straight to the dialer, whose check is the one that counts.
	if _, err := netip.ParseAddr(host); err != nil {
		if literal, err := t.guard.checkLiteral(host); literal && err != nil {
			return fail(err)
		}
	}
	return t.base.RoundTrip(req)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the pool.
func (t *transport) CloseIdleConnections() { t.base.CloseIdleConnections() }
