package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestAPIMisc covers /healthz, unknown routes and CORS preflights.
func TestAPIMisc(t *testing.T) {
	t.Parallel()
	// preflight asks the browser's question for method and headers from origin.
	preflight := func(method, headers string) map[string]string {
		return map[string]string{"Origin": "https://app.example.com", "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers}
	}
	// allows checks a preflight answer lets method and headers through.
	allows := func(method string, headers ...string) func(t *testing.T, s *server, r *response) {
		return func(t *testing.T, s *server, r *response) {
			t.Helper()
			if o := r.header.Get("Access-Control-Allow-Origin"); o != "*" && o != "https://app.example.com" {
				t.Errorf("Access-Control-Allow-Origin %q", o)
			}
			if m := r.header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, method) {
				t.Errorf("Access-Control-Allow-Methods %q lacks %s", m, method)
			}
			allowed := strings.ToLower(r.header.Get("Access-Control-Allow-Headers"))
			for _, h := range headers {
				if !strings.Contains(allowed, strings.ToLower(h)) && allowed != "*" {
					t.Errorf("Access-Control-Allow-Headers %q lacks %s", allowed, h)
				}
			}
		}
	}
	corsOn := func(t *testing.T, s *server, r *response) {
		t.Helper()
		if o := r.header.Get("Access-Control-Allow-Origin"); o == "" {
			t.Errorf("no Access-Control-Allow-Origin on the answer")
		}
	}
	scenarios := []scenario{
		{name: "healthz", method: "GET", path: "/healthz", wantStatus: 200},
		{name: "healthz ignores a bad token", method: "GET", path: "/healthz", auth: "Bearer nope", wantStatus: 200},
		{name: "unknown route", method: "GET", path: "/nope", wantStatus: 404, check: errorShape},
		{name: "unknown route under /api", method: "GET", path: "/api/nope", auth: "{rw}", wantStatus: 404, check: errorShape},
		{name: "unknown route without a token", method: "PUT", path: "/api/nope/nope", wantStatus: 404, check: errorShape},
		{name: "read path without a namespace", method: "GET", path: "/api/{project}/latest/en", auth: "{rw}", wantStatus: 404, check: errorShape},
		{name: "a version other than latest", method: "GET", path: "/api/{project}/v2/en/common", auth: "{rw}", setup: seed, wantStatus: 404, check: errorShape},
		{name: "wrong method on a known path", method: "DELETE", path: "/api/sync/{project}/latest/en/common", auth: "{rw}", setup: seed,
			wantStatus: 405, wantError: "method_not_allowed", wantHeader: map[string]string{"Allow": "PUT"},
			check: func(t *testing.T, s *server, r *response) {
				s.wantFlat(t, "en", "common", map[string]string{"greeting": "Hello"})
			}},
		{name: "preflight of a sync", method: "OPTIONS", path: "/api/sync/{project}/latest/en/common",
			header: preflight("PUT", "authorization,content-type"), wantStatus: 204, wantEmpty: true, check: allows("PUT", "Authorization", "Content-Type")},
		{name: "preflight of a read with If-None-Match", method: "OPTIONS", path: "/api/{project}/latest/en/common",
			header: preflight("GET", "authorization,if-none-match"), wantStatus: 204, check: allows("GET", "Authorization", "If-None-Match")},
		{name: "preflight of a missing-keys report", method: "OPTIONS", path: "/api/missing/{project}/latest/en/common",
			header: preflight("POST", "authorization,content-type"), wantStatus: 204, check: allows("POST", "Authorization", "Content-Type")},
		{name: "preflight of /api/me", method: "OPTIONS", path: "/api/me",
			header: preflight("GET", "authorization"), wantStatus: 204, check: allows("GET", "Authorization")},
		{name: "preflight of the languages", method: "OPTIONS", path: "/api/languages/{project}",
			header: preflight("GET", ""), wantStatus: 204, check: allows("GET")},
		{name: "a cross-origin read carries CORS headers", setup: seed, method: "GET", path: "/api/{project}/latest/en/common", auth: "{ro}",
			header: map[string]string{"Origin": "https://app.example.com"}, wantStatus: 200, check: then(corsOn,
				func(t *testing.T, s *server, r *response) {
					if !strings.Contains(strings.ToLower(r.header.Get("Access-Control-Expose-Headers")), "etag") {
						t.Errorf("Access-Control-Expose-Headers %q lacks ETag", r.header.Get("Access-Control-Expose-Headers"))
					}
				})},
		{name: "a cross-origin 401 carries CORS headers", method: "GET", path: "/api/{project}/latest/en/common",
			header: map[string]string{"Origin": "https://app.example.com"}, wantStatus: 401, wantError: "unauthorized", check: corsOn},
	}
	runScenarios(t, scenarios)
}

// TestAPIHealthzDown checks /healthz answers an error once the database is gone.
func TestAPIHealthzDown(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.call(t, "GET", "/healthz", "", nil).wantStatus(t, http.StatusOK)
		s.db.Close()
		if r := s.call(t, "GET", "/healthz", "", nil); r.status < 500 {
			t.Errorf("/healthz with the database closed answered %d, want a 5xx", r.status)
		}
	})
}
