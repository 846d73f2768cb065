package main

import (
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// baseURLWarning says why the base URL is no address for others to use, or "" when it may
// be. The base URL goes into the Embed snippet and links: http://0.0.0.0:8080 (what
// listening on every interface gives without --base-url) reaches nobody, and a loopback
// URL only this machine while the server listens for others.
func baseURLWarning(listen, baseURL string) string {
	const fix = "; set --base-url (LOKAL_BASE_URL) to the address users reach the service at"
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return "the base URL " + baseURL + " names no host, so the Embed snippet and links lead nowhere" + fix
	}
	if unspecified(u.Hostname()) {
		return "the base URL " + baseURL + " is the unspecified address, which no browser can reach: the Embed snippet and links would lead nowhere" + fix
	}
	if host, _, err := net.SplitHostPort(listen); err == nil && unspecified(host) && loopback(u.Hostname()) {
		return "lokal listens on every interface but the base URL " + baseURL + " is a loopback address: the Embed snippet and links work only on this machine" + fix
	}
	return ""
}

// unspecified is true for "", 0.0.0.0, :: and their mapped forms: an address to listen on,
// not to connect to.
func unspecified(host string) bool {
	if host == "" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsUnspecified()
}

func loopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}
