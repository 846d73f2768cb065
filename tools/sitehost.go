package tools

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// Site hosts: how the host of a page running the Embed script is named when it is bound to
// a project, authorized for a workspace, and matched. A site host is a host name; for local
// testing it may also be a loopback host (localhost, a name under .localhost, 127.0.0.0/8
// or [::1]) with an optional port, so that two sites on two ports of one machine are two
// sites. A port on a public name says nothing about the site and is not kept.

// NormalizeSiteHost returns the canonical form of a host bound to a project or authorized
// for a workspace: a host name as NormalizeHost gives it, or a loopback host with an
// optional port ("localhost:8000", "127.0.0.1", "[::1]:8000"). CodeInvalid for anything
// else, a port on a public name included.
func NormalizeSiteHost(s string) (string, error) {
	return siteHost(s, false)
}

// PageHost is NormalizeSiteHost for the host a page reports (location.host): a port on a
// public name is dropped rather than refused, since the site is the same on every port.
func PageHost(s string) (string, error) {
	return siteHost(s, true)
}

func siteHost(s string, dropPublicPort bool) (string, error) {
	in := strings.TrimSpace(s)
	name, port, err := splitHostPort(strings.ToLower(in))
	if err != nil {
		return "", model.Errorf(model.CodeInvalid, "%q is not a host name (%s)", s, err)
	}
	var host string
	loopback := false
	if a, err := netip.ParseAddr(name); err == nil {
		if !a.IsLoopback() || a.Is4In6() || a.Zone() != "" {
			return "", model.Errorf(model.CodeInvalid, "%q is an IP address, not a host name (only loopback addresses are accepted, for local testing)", s)
		}
		loopback, host = true, a.String()
		if a.Is6() {
			host = "[" + host + "]"
		}
	} else {
		if host, err = NormalizeHost(name); err != nil {
			return "", err
		}
		loopback = host == "localhost" || strings.HasSuffix(host, ".localhost")
	}
	switch {
	case port == "":
		return host, nil
	case loopback:
		return host + ":" + port, nil
	case dropPublicPort:
		return host, nil
	}
	return "", model.Errorf(model.CodeInvalid, "%q: a port is accepted only on localhost and loopback addresses, for local testing (give the name only, such as www.example.com)", s)
}

// splitHostPort splits "name", "name:port", "v4:port", "[v6]", "[v6]:port" or a bare IPv6
// address; the port comes back as a canonical number, "" when none.
func splitHostPort(s string) (host, port string, err error) {
	s = strings.TrimSuffix(s, ".")
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.Index(s, "]")
		if end < 0 {
			return "", "", errText("unclosed [")
		}
		host, rest := s[1:end], s[end+1:]
		if _, err := netip.ParseAddr(host); err != nil || !strings.Contains(host, ":") {
			return "", "", errText("not an IPv6 address in brackets")
		}
		if rest == "" {
			return host, "", nil
		}
		p, ok := strings.CutPrefix(rest, ":")
		if !ok {
			return "", "", errText("text after the brackets")
		}
		port, err := canonicalPort(p)
		return host, port, err
	case strings.Count(s, ":") > 1:
		return s, "", nil // a bare IPv6 address; ParseAddr decides
	}
	host, p, found := strings.Cut(s, ":")
	if !found {
		return strings.TrimSuffix(host, "."), "", nil
	}
	port, err = canonicalPort(p)
	return strings.TrimSuffix(host, "."), port, err
}

func canonicalPort(p string) (string, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || strings.HasPrefix(p, "+") {
		return "", errText("the port must be 1 to 65535")
	}
	return strconv.Itoa(n), nil
}

type errText string

func (e errText) Error() string { return string(e) }

// normalizeHostPattern accepts an authorized host: a site host, or "*." and a host name
// (which matches one or more labels under it).
func normalizeHostPattern(s string) (string, error) {
	s = strings.TrimSpace(s)
	rest, wild := strings.CutPrefix(s, "*.")
	h, err := NormalizeSiteHost(rest)
	if err == nil && wild && (strings.Contains(h, ":") || isIPHost(h)) {
		err = model.Errorf(model.CodeInvalid, "a wildcard goes before a name without a port")
	}
	if err != nil {
		return "", model.Errorf(model.CodeInvalid, "authorized host %q: give a host name such as example.com or *.example.com, "+
			"or for local testing localhost, localhost:8000, 127.0.0.1 or [::1]:8000", s)
	}
	if wild {
		return "*." + h, nil
	}
	return h, nil
}

func isIPHost(h string) bool {
	_, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil
}

// HostAuthorized reports whether a site host (as PageHost gives it) matches a workspace's
// authorized hosts: a host exactly, a pattern without a port any port of its host, and
// "*.name" one or more labels under name.
func HostAuthorized(patterns []string, host string) bool {
	name, port := cutSitePort(host)
	for _, p := range patterns {
		pname, pport := cutSitePort(p)
		if pport != "" && pport != port {
			continue
		}
		if base, ok := strings.CutPrefix(pname, "*."); ok {
			if strings.HasSuffix(name, "."+base) {
				return true
			}
		} else if pname == name {
			return true
		}
	}
	return false
}

// boundForms are the bound hosts that serve a page's host, in order: the host itself, then
// for a host with a port the host without one (which, like an authorized host without a
// port, takes every port).
func boundForms(host string) []string {
	if name, port := cutSitePort(host); port != "" {
		return []string{host, name}
	}
	return []string{host}
}

// cutSitePort splits a canonical site host into its host and port ("" when none).
func cutSitePort(h string) (string, string) {
	if strings.HasPrefix(h, "[") {
		if end := strings.Index(h, "]"); end >= 0 {
			return h[:end+1], strings.TrimPrefix(h[end+1:], ":")
		}
		return h, ""
	}
	name, port, _ := strings.Cut(h, ":")
	return name, port
}
