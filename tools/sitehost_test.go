package tools

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

func TestSiteHosts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, bound, page string }{
		{"Shop.Example.", "shop.example", "shop.example"},
		{"Bücher.example", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"localhost", "localhost", "localhost"},
		{"LOCALHOST:8000", "localhost:8000", "localhost:8000"},
		{"localhost:08000", "localhost:8000", "localhost:8000"},
		{"app.localhost:3000", "app.localhost:3000", "app.localhost:3000"},
		{"127.0.0.1", "127.0.0.1", "127.0.0.1"},
		{"127.0.0.1:8000", "127.0.0.1:8000", "127.0.0.1:8000"},
		{"127.1.2.3", "127.1.2.3", "127.1.2.3"},
		{"[::1]:8000", "[::1]:8000", "[::1]:8000"},
		{"[::1]", "[::1]", "[::1]"},
		{"::1", "[::1]", "[::1]"},
		{"[0:0:0:0:0:0:0:1]:80", "[::1]:80", "[::1]:80"},
		// A port on a public name: refused where a host is bound or authorized, dropped
		// where a page reports it (the site is the same on every port).
		{"www.example.com:8443", "", "www.example.com"},
		// Not site hosts anywhere.
		{"", "", ""},
		{"10.0.0.1", "", ""},
		{"192.168.1.10:8000", "", ""},
		{"[2001:db8::1]:8000", "", ""},
		{"169.254.169.254", "", ""},
		{"0.0.0.0", "", ""},
		{"[::ffff:127.0.0.1]", "", ""},
		{"localhost:0", "", ""},
		{"localhost:65536", "", ""},
		{"localhost:+80", "", ""},
		{"localhost:", "", ""},
		{"localhost:80:80", "", ""},
		{"[::1", "", ""},
		{"[::1]x", "", ""},
		{"[localhost]:80", "", ""},
		{"http://localhost:8000", "", ""},
		{"localhost/path", "", ""},
		{"user@localhost", "", ""},
		{"*.example.com", "", ""},
	} {
		got, err := NormalizeSiteHost(tt.in)
		if got != tt.bound || (tt.bound == "") != (err != nil) {
			t.Errorf("NormalizeSiteHost(%q) = %q, %v; want %q", tt.in, got, err, tt.bound)
		}
		if err != nil && model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("NormalizeSiteHost(%q): code %s, want invalid", tt.in, model.ErrorCode(err))
		}
		got, err = PageHost(tt.in)
		if got != tt.page || (tt.page == "") != (err != nil) {
			t.Errorf("PageHost(%q) = %q, %v; want %q", tt.in, got, err, tt.page)
		}
	}
}

func TestHostPatterns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"example.com", "example.com"},
		{"*.Example.com", "*.example.com"},
		{"localhost:8000", "localhost:8000"},
		{"127.0.0.1", "127.0.0.1"},
		{"[::1]:8000", "[::1]:8000"},
		{"*.localhost", "*.localhost"},
		{"*.localhost:3000", ""},
		{"*.127.0.0.1", ""},
		{"example.com:443", ""},
		{"10.0.0.1", ""},
		{"*", ""},
	} {
		got, err := normalizeHostPattern(tt.in)
		if got != tt.want || (tt.want == "") != (err != nil) {
			t.Errorf("normalizeHostPattern(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}

	for _, tt := range []struct {
		patterns []string
		host     string
		want     bool
	}{
		{[]string{"localhost"}, "localhost:8000", true},
		{[]string{"localhost"}, "localhost", true},
		{[]string{"localhost:8000"}, "localhost:8000", true},
		{[]string{"localhost:8000"}, "localhost:3000", false},
		{[]string{"localhost:8000"}, "localhost", false},
		{[]string{"127.0.0.1"}, "127.0.0.1:5173", true},
		{[]string{"127.0.0.1:5173"}, "127.0.0.2:5173", false},
		{[]string{"[::1]:8000"}, "[::1]:8000", true},
		{[]string{"[::1]"}, "[::1]:9000", true},
		{[]string{"[::1]:8000"}, "[::1]:9000", false},
		{[]string{"*.localhost"}, "app.localhost:3000", true},
		{[]string{"*.example.com"}, "www.example.com", true},
		{[]string{"*.example.com"}, "example.com", false},
		{[]string{"example.com"}, "www.example.com", false},
		{[]string{"localhost"}, "evil-localhost", false},
		{nil, "localhost", false},
	} {
		if got := HostAuthorized(tt.patterns, tt.host); got != tt.want {
			t.Errorf("HostAuthorized(%v, %q) = %v, want %v", tt.patterns, tt.host, got, tt.want)
		}
	}
}

func TestBoundForms(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"localhost:8000": "localhost:8000 localhost",
		"[::1]:8000":     "[::1]:8000 [::1]",
		"127.0.0.1":      "127.0.0.1",
		"www.example":    "www.example",
	} {
		if got := strings.Join(boundForms(in), " "); got != want {
			t.Errorf("boundForms(%q) = %q, want %q", in, got, want)
		}
	}
}
