package httpx

import (
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestClientIP(t *testing.T) {
	proxies, err := ParseProxies([]string{"10.0.0.0/8", "192.0.2.1", "2001:db8:ff::/48"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		p       Proxies
		peer    string
		forward []string // X-Forwarded-For lines
		want    string
	}{
		{"no header", proxies, "10.1.1.1:5000", nil, "10.1.1.1"},
		{"nobody trusted: the header is ignored", Proxies{}, "10.1.1.1:5000", []string{"203.0.113.7"}, "10.1.1.1"},
		{"an untrusted peer cannot choose its address", proxies, "198.51.100.9:5000", []string{"203.0.113.7"}, "198.51.100.9"},
		{"a trusted network", proxies, "10.1.1.1:5000", []string{"203.0.113.7"}, "203.0.113.7"},
		{"a trusted single address", proxies, "192.0.2.1:5000", []string{"203.0.113.7"}, "203.0.113.7"},
		{"not the address next to the trusted one", proxies, "192.0.2.2:5000", []string{"203.0.113.7"}, "192.0.2.2"},
		{"a spoofed hop before the real one", proxies, "10.1.1.1:5000", []string{"1.2.3.4, 203.0.113.7"}, "203.0.113.7"},
		{"trusted hops are skipped", proxies, "10.1.1.1:5000", []string{"203.0.113.7, 10.2.2.2,192.0.2.1"}, "203.0.113.7"},
		{"every header line counts", proxies, "10.1.1.1:5000", []string{"1.2.3.4", "203.0.113.7"}, "203.0.113.7"},
		{"all hops trusted: the farthest", proxies, "10.1.1.1:5000", []string{"10.3.3.3, 10.2.2.2"}, "10.3.3.3"},
		{"a broken hop: the connection", proxies, "10.1.1.1:5000", []string{"203.0.113.7, nonsense"}, "10.1.1.1"},
		{"an empty hop: the connection", proxies, "10.1.1.1:5000", []string{"203.0.113.7,"}, "10.1.1.1"},
		{"a zoned hop: the connection", proxies, "10.1.1.1:5000", []string{"fe80::1%eth0"}, "10.1.1.1"},
		{"an IPv6 proxy", proxies, "[2001:db8:ff:1::2]:443", []string{"2001:db8:1:2::3"}, "2001:db8:1:2::3"},
		{"IPv4 in IPv6 is IPv4", proxies, "[::ffff:10.1.1.1]:5000", []string{"::ffff:203.0.113.7"}, "203.0.113.7"},
		{"an untrusted IPv4-in-IPv6 peer", Proxies{}, "[::ffff:198.51.100.9]:5000", nil, "198.51.100.9"},
		{"no port", Proxies{}, "198.51.100.9", nil, "198.51.100.9"},
		{"not an address", proxies, "pipe", []string{"203.0.113.7"}, "pipe"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.peer
		for _, f := range c.forward {
			r.Header.Add("X-Forwarded-For", f)
		}
		if got := c.p.ClientIP(r); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestParseProxies(t *testing.T) {
	for _, bad := range []string{"10.0.0.0/33", "example.com", ""} {
		if _, err := ParseProxies([]string{bad}); err == nil {
			t.Errorf("%q taken", bad)
		}
	}
	p, err := ParseProxies(nil)
	if err != nil || len(p.nets) != 0 {
		t.Errorf("nil: %v, %v", p, err)
	}
	// NewProxies keeps its own copy.
	nets := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	p = NewProxies(nets)
	nets[0] = netip.MustParsePrefix("192.0.2.0/24")
	if !p.trust(netip.MustParseAddr("10.0.0.1")) || p.trust(netip.MustParseAddr("192.0.2.1")) {
		t.Error("NewProxies shares the caller's slice")
	}
}

func TestGinClientIP(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	proxies, _ := ParseProxies([]string{"127.0.0.1"})
	var got []string
	r := gin.New()
	r.Use(proxies.Gin)
	r.GET("/", func(c *gin.Context) { got = append(got, GinClientIP(c)) })
	bare := gin.New() // without the middleware: the connection's address
	bare.GET("/", func(c *gin.Context) { got = append(got, GinClientIP(c)) })
	for _, h := range []*gin.Engine{r, bare} {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = "127.0.0.1:9"
		req.Header.Set("X-Forwarded-For", "203.0.113.7")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	if len(got) != 2 || got[0] != "203.0.113.7" || got[1] != "127.0.0.1" {
		t.Errorf("got %v", got)
	}
}
