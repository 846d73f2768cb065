package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

var doors = []struct {
	name                     string
	cors                     *CORS
	methods, headers, expose string
}{
	{"api", apiCORS, "GET, POST, PUT, OPTIONS",
		"Authorization, Content-Type, If-None-Match, X-Service-Read-Only, Mcp-Protocol-Version, Mcp-Session-Id",
		"ETag, Retry-After, Mcp-Session-Id, WWW-Authenticate"},
	{"public", publicCORS, "GET, POST, OPTIONS", "Content-Type, If-None-Match", "ETag, Retry-After"},
}

func TestCORSPreflight(t *testing.T) {
	for _, d := range doors {
		r := httptest.NewRequest("OPTIONS", "/api/x", nil)
		r.Header.Set("Origin", "https://site.example")
		r.Header.Set("Access-Control-Request-Method", "POST")
		w := httptest.NewRecorder()
		if !d.cors.Handle(w, r) {
			t.Errorf("%s: the preflight was not answered", d.name)
		}
		want := http.Header{
			"Access-Control-Allow-Origin":   {"*"},
			"Access-Control-Expose-Headers": {d.expose},
			"Access-Control-Allow-Methods":  {d.methods},
			"Access-Control-Allow-Headers":  {d.headers},
			"Access-Control-Max-Age":        {"86400"},
		}
		if w.Code != http.StatusNoContent || w.Body.Len() != 0 {
			t.Errorf("%s: %d %q", d.name, w.Code, w.Body)
		}
		for k, v := range want {
			if got := w.Header().Values(k); len(got) != 1 || got[0] != v[0] {
				t.Errorf("%s: %s %q, want %q", d.name, k, got, v[0])
			}
		}
	}
}

func TestCORSSimpleRequest(t *testing.T) {
	for _, d := range doors {
		for _, method := range []string{"GET", "POST", "PUT"} {
			r := httptest.NewRequest(method, "/api/x", nil)
			r.Header.Set("Origin", "https://site.example")
			w := httptest.NewRecorder()
			if d.cors.Handle(w, r) {
				t.Errorf("%s %s: answered by CORS", d.name, method)
			}
			h := w.Header()
			if h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Access-Control-Expose-Headers") != d.expose {
				t.Errorf("%s %s: headers %v", d.name, method, h)
			}
			if h.Get("Access-Control-Allow-Methods") != "" || h.Get("Access-Control-Max-Age") != "" {
				t.Errorf("%s %s: preflight headers on a simple request: %v", d.name, method, h)
			}
		}
	}
}

// A door mounted after another replaces its Expose-Headers on the routes it owns, and its
// shared values are not changed by a handler adding to them.
func TestCORSGin(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(apiCORS.Gin)
	reached := 0
	r.GET("/public", publicCORS.Gin, func(c *gin.Context) {
		reached++
		c.Writer.Header().Add("Access-Control-Expose-Headers", "X-More")
		c.Status(http.StatusOK)
	})
	r.OPTIONS("/public", publicCORS.Gin, func(*gin.Context) { reached += 100 })
	get := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest("GET", "/public", nil))
		return w
	}
	get()
	if w := get(); reached != 2 || w.Code != 200 || w.Header().Values("Access-Control-Expose-Headers")[0] != "ETag, Retry-After" {
		t.Errorf("reached %d, %d %v", reached, w.Code, w.Header())
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("OPTIONS", "/public", nil))
	// The router's door answers the preflight before the route's runs.
	if reached != 2 || w.Code != 204 || w.Header().Get("Access-Control-Allow-Methods") != "GET, POST, PUT, OPTIONS" {
		t.Errorf("preflight: reached %d, %d %v", reached, w.Code, w.Header())
	}
}
