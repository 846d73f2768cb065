package outbound_test

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lokal-dev/lokal/tools/outbound"
)

// stubResolver answers from a table and records what it was asked; it never sends a query.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][]string
	asked   []string
}

func (r *stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, host)
	ans, ok := r.answers[host]
	if !ok {
		return nil, fmt.Errorf("lookup %s: no such host", host)
	}
	out := make([]netip.Addr, len(ans))
	for i, a := range ans {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

func newStub() *stubResolver {
	return &stubResolver{answers: map[string][]string{
		"internal.example":  {"10.0.0.5"},
		"mixed.example":     {"93.184.216.34", "10.0.0.5"},
		"rebind.example":    {"127.0.0.1"},
		"metadata.example":  {"169.254.169.254"},
		"v6private.example": {"2606:2800:220:1:248:1893:25c8:1946", "fd12:3456::1"},
		"localhost":         {"127.0.0.1", "::1"},
		"public.example":    {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
	}}
}

// Hostile URLs are refused by CheckURL with a reason, and literal hosts never reach DNS.
func TestCheckURLRefusesHostileURLs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		url  string
		want string // in the error message
		dns  bool   // the host is a name, so the resolver is asked
	}{
		{"http://10.0.0.1/", "10.0.0.1 is a private address", false},
		{"http://172.16.0.1/", "172.16.0.1 is a private address", false},
		{"http://172.31.255.255/", "a private address", false},
		{"http://192.168.1.1:8080/hook", "192.168.1.1 is a private address", false},
		{"http://100.64.0.1/", "100.64.0.1 is a carrier-grade NAT address", false},
		{"http://100.127.255.254/", "a carrier-grade NAT address", false},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address", false},
		{"http://169.254.1.1/", "169.254.1.1 is a link-local address", false},
		{"http://[fd00::1]/", "fd00::1 is a private address", false},
		{"http://[fd00:ec2::254]/", "fd00:ec2::254 is a cloud metadata address", false},
		{"http://[fe80::1]/", "fe80::1 is a link-local address", false},
		{"http://[fe80::1%25eth0]/", "a link-local address", false},
		{"http://[::ffff:10.0.0.1]/", "::ffff:10.0.0.1 means 10.0.0.1, a private address", false},
		{"http://[::ffff:a00:1]/", "10.0.0.1, a private address", false},
		{"http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1 means 127.0.0.1, a loopback address", false},
		{"http://[::ffff:169.254.169.254]/", "a cloud metadata address", false},
		{"http://[64:ff9b::a00:1]/", "an IPv6 address carrying an IPv4 address", false},
		{"http://[::ffff:0:a00:1]/", "an IPv6 address carrying an IPv4 address", false},
		{"http://[::127.0.0.1]/", "an IPv6 address carrying an IPv4 address", false},
		{"http://[2002:7f00:1::]/", "a special-purpose address", false},
		{"http://0.0.0.0/", "0.0.0.0 is an unspecified address", false},
		{"http://0/", "0 means 0.0.0.0, an unspecified address", false},
		{"http://[::]/", ":: is an unspecified address", false},
		{"http://224.0.0.1/", "224.0.0.1 is a link-local multicast address", false},
		{"http://239.1.2.3/", "239.1.2.3 is a multicast address", false},
		{"http://[ff02::1]/", "ff02::1 is a link-local multicast address", false},
		{"http://[ff05::1]/", "a multicast address", false},
		{"http://127.0.0.1/", "127.0.0.1 is a loopback address", false},
		{"http://127.0.0.2:9/", "127.0.0.2 is a loopback address", false},
		{"http://[::1]/", "::1 is a loopback address", false},
		{"http://2130706433/", "2130706433 means 127.0.0.1, a loopback address", false},
		{"http://0177.0.0.1/", "0177.0.0.1 means 127.0.0.1, a loopback address", false},
		{"http://0x7f000001/", "0x7f000001 means 127.0.0.1, a loopback address", false},
		{"http://0X7F.1/", "means 127.0.0.1, a loopback address", false},
		{"http://017700000001/", "means 127.0.0.1, a loopback address", false},
		{"http://127.1/", "127.1 means 127.0.0.1, a loopback address", false},
		{"http://127.0.0.1./", "means 127.0.0.1, a loopback address", false},
		{"http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", "means 127.0.0.1, a loopback address", false},
		{"http://0xa.1/", "means 10.0.0.1, a private address", false},
		{"http://1572395042/", "write the address as 93.184.216.34", false},
		{"http://1.2.3.4.5/", "neither a host name nor an IPv4 address", false},
		{"http://198.18.0.1/", "a special-purpose address", false},
		{"http://240.0.0.1/", "a special-purpose address", false},
		{"http://255.255.255.255/", "a special-purpose address", false},
		{"http://[2001:db8::1]/", "a special-purpose address", false},
		{"http://internal.example/", "internal.example resolves to 10.0.0.5, a private address", true},
		{"http://mixed.example/", "mixed.example resolves to 10.0.0.5, a private address", true},
		{"http://rebind.example:8080/", "rebind.example resolves to 127.0.0.1, a loopback address", true},
		{"http://metadata.example/", "a cloud metadata address", true},
		{"http://v6private.example/", "fd12:3456::1, a private address", true},
		{"http://localhost/", "localhost resolves to 127.0.0.1, a loopback address", true},
		{"http://LOCALHOST/", "resolves to 127.0.0.1, a loopback address", true},
		{"http://user:pass@public.example/", "user name or password", false},
		{"http://user@public.example/", "user name or password", false},
		{"ftp://public.example/", `scheme "ftp" is not allowed`, false},
		{"file:///etc/passwd", `scheme "file" is not allowed`, false},
		{"gopher://public.example/", `scheme "gopher" is not allowed`, false},
		{"javascript:alert(1)", `scheme "javascript" is not allowed`, false},
		{"http:///path", "no host", false},
		{"http:public.example", "no host", false},
	}
	if len(cases) < 30 {
		t.Fatalf("only %d hostile cases", len(cases))
	}
	g := outbound.NewGuard(nil)
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			t.Parallel()
			r := newStub()
			err := g.CheckURL(t.Context(), c.url, r)
			var b *outbound.BlockedError
			if !errors.As(err, &b) {
				t.Fatalf("CheckURL(%q) = %v, want a BlockedError", c.url, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("CheckURL(%q) = %q, want it to say %q", c.url, err, c.want)
			}
			if asked := len(r.asked) > 0; asked != c.dns {
				t.Errorf("CheckURL(%q) asked the resolver %v, want asked=%v", c.url, r.asked, c.dns)
			}
		})
	}
}

// Public destinations pass, and a name is checked on every address it resolves to.
func TestCheckURLAllowsPublicDestinations(t *testing.T) {
	t.Parallel()
	g := outbound.NewGuard(nil)
	for _, u := range []string{
		"https://public.example/hooks/lokal",
		"http://public.example:8443/x?y=1",
		"https://93.184.216.34/",
		"https://[2606:2800:220:1:248:1893:25c8:1946]:443/",
		"HTTPS://PUBLIC.EXAMPLE/",
	} {
		if err := g.CheckURL(t.Context(), u, newStub()); err != nil {
			t.Errorf("CheckURL(%q) = %v, want nil", u, err)
		}
	}
}

// A name that does not resolve is an error, but not a refusal by the guard.
func TestCheckURLUnresolvableName(t *testing.T) {
	t.Parallel()
	err := outbound.NewGuard(nil).CheckURL(t.Context(), "https://nowhere.example/", newStub())
	if err == nil || !strings.Contains(err.Error(), "resolving nowhere.example") {
		t.Fatalf("err = %v, want a resolving error", err)
	}
	var b *outbound.BlockedError
	if errors.As(err, &b) {
		t.Fatalf("err = %v is a BlockedError; a DNS failure is not a refusal", err)
	}
}

// The allow list is the only exception, and it lifts the rule only inside its prefixes.
func TestAllowListIsTheOnlyException(t *testing.T) {
	t.Parallel()
	allow, err := outbound.ParseAllowList("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	g := outbound.NewGuard(allow)
	for _, u := range []string{"http://10.1.2.3/", "http://internal.example/", "http://mixed.example/", "http://127.0.0.1:8080/", "http://[::ffff:10.0.0.1]/"} {
		if err := g.CheckURL(t.Context(), u, newStub()); err != nil {
			t.Errorf("allowed: CheckURL(%q) = %v, want nil", u, err)
		}
	}
	for _, u := range []string{"http://192.168.1.1/", "http://127.0.0.2/", "http://169.254.169.254/", "http://metadata.example/", "http://localhost/"} {
		if err := g.CheckURL(t.Context(), u, newStub()); err == nil {
			t.Errorf("outside the allow list: CheckURL(%q) = nil, want refused", u)
		}
	}
}

// CheckAddr is the decision function; its message names the address and says why.
func TestCheckAddr(t *testing.T) {
	t.Parallel()
	g := outbound.NewGuard(nil)
	refused := map[string]string{
		"127.0.0.2":              "127.0.0.2 is a loopback address",
		"::1":                    "::1 is a loopback address",
		"::ffff:127.0.0.2":       "127.0.0.2 is a loopback address",
		"10.255.255.255":         "10.255.255.255 is a private address",
		"172.20.1.1":             "172.20.1.1 is a private address",
		"192.168.0.1":            "192.168.0.1 is a private address",
		"100.100.100.200":        "100.100.100.200 is a carrier-grade NAT address",
		"169.254.169.254":        "169.254.169.254 is a cloud metadata address",
		"::ffff:169.254.169.254": "169.254.169.254 is a cloud metadata address",
		"fd00:ec2::254":          "fd00:ec2::254 is a cloud metadata address",
		"fc00::1":                "fc00::1 is a private address",
		"fe80::1%lo":             "fe80::1 is a link-local address",
		"0.0.0.0":                "0.0.0.0 is an unspecified address",
		"0.1.2.3":                "0.1.2.3 is a this-network address",
		"::":                     ":: is an unspecified address",
		"239.255.255.250":        "239.255.255.250 is a multicast address",
		"64:ff9b::7f00:1":        "64:ff9b::7f00:1 is an IPv6 address carrying an IPv4 address",
		"192.0.2.1":              "192.0.2.1 is a special-purpose address",
		"2001:db8::1":            "2001:db8::1 is a special-purpose address",
		"4000::1":                "4000::1 is outside the IPv6 global unicast range",
		"::ffff:100.64.0.1":      "100.64.0.1 is a carrier-grade NAT address",
		"2001:0:4136:e378::1":    "a special-purpose address", // Teredo
		"::ffff:192.168.1.1":     "192.168.1.1 is a private address",
		"64:ff9b:1::a9fe:a9fe":   "an IPv6 address carrying an IPv4 address",
		"::ffff:0.0.0.0":         "0.0.0.0 is an unspecified address",
		"ff02::2":                "ff02::2 is a link-local multicast address",
		"224.0.0.251":            "224.0.0.251 is a link-local multicast address",
		"233.252.0.1":            "233.252.0.1 is a multicast address",
		"198.19.255.255":         "a special-purpose address",
		"2002:a00:1::1":          "a special-purpose address", // 6to4 of 10.0.0.1
	}
	for s, want := range refused {
		err := g.CheckAddr(netip.MustParseAddr(s))
		var b *outbound.BlockedError
		if !errors.As(err, &b) || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckAddr(%s) = %v, want %q", s, err, want)
		}
	}
	for _, s := range []string{"93.184.216.34", "1.1.1.1", "2606:4700::1111", "::ffff:93.184.216.34"} {
		if err := g.CheckAddr(netip.MustParseAddr(s)); err != nil {
			t.Errorf("CheckAddr(%s) = %v, want nil", s, err)
		}
	}
	if err := g.CheckAddr(netip.Addr{}); err == nil {
		t.Error("CheckAddr(zero) = nil, want refused")
	}
}

func TestParseAllowList(t *testing.T) {
	t.Parallel()
	good := map[string][]string{
		"":                       nil,
		" , ":                    nil,
		"10.0.0.0/8,192.168.1.5": {"10.0.0.0/8", "192.168.1.5/32"},
		" 127.0.0.1/32 , ::1 ":   {"127.0.0.1/32", "::1/128"},
		"10.1.2.3/8":             {"10.0.0.0/8"},
		"::ffff:10.0.0.0/104":    {"10.0.0.0/8"},
		"fd00::/8,100.64.0.0/10": {"fd00::/8", "100.64.0.0/10"},
	}
	for in, want := range good {
		got, err := outbound.ParseAllowList(in)
		if err != nil {
			t.Errorf("ParseAllowList(%q): %v", in, err)
			continue
		}
		var gs []string
		for _, p := range got {
			gs = append(gs, p.String())
		}
		if !slices.Equal(gs, want) || (want == nil) != (got == nil) {
			t.Errorf("ParseAllowList(%q) = %v, want %v", in, gs, want)
		}
	}
	for _, in := range []string{"10.0.0.0/33", "nope", "fe80::1%eth0", "10.0.0.0/8,example.com", "2130706433"} {
		if _, err := outbound.ParseAllowList(in); err == nil {
			t.Errorf("ParseAllowList(%q) = nil error, want one", in)
		}
	}
}
