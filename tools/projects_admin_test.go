package tools

import (
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

func TestNormalizeHost(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"Shop.Example.", "shop.example"},
		{" www.shop.example ", "www.shop.example"},
		{"Bücher.example", "xn--bcher-kva.example"},
		{"localhost", "localhost"},
		{"", ""},
		{"shop.example:443", ""},
		{"https://shop.example", ""},
		{"shop.example/path", ""},
		{"*.shop.example", ""},
		{"bad_host.example", ""},
		{"-bad.example", ""},
		{"192.0.2.1", ""},
		{"[2001:db8::1]", ""},
		{"a.." + "example", ""},
	} {
		got, err := NormalizeHost(tt.in)
		if got != tt.want || (tt.want == "") != (err != nil) {
			t.Errorf("NormalizeHost(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if err != nil && model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("NormalizeHost(%q): code %s, want invalid", tt.in, model.ErrorCode(err))
		}
	}
}

func TestNormalizeOrigin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"https://shop.example", "https://shop.example"},
		{"HTTPS://Shop.Example/", "https://shop.example"},
		{"http://localhost:3000", "http://localhost:3000"},
		{"https://*.cdn.example", "https://*.cdn.example"},
		{"https://*.Bücher.example:8443", "https://*.xn--bcher-kva.example:8443"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://[::1]:8080", "http://[::1]:8080"},
		{"shop.example", ""},
		{"ftp://shop.example", ""},
		{"https://", ""},
		{"https://shop.example/app", ""},
		{"https://shop.example?x=1", ""},
		{"https://shop.example#top", ""},
		{"https://user@shop.example", ""},
		{"https://shop.example:0", ""},
		{"https://shop.example:", ""},
		{"https://*.", ""},
		{"https://a.*.example", ""},
		{"javascript:alert(1)", ""},
	} {
		got, err := NormalizeOrigin(tt.in)
		if got != tt.want || (tt.want == "") != (err != nil) {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
