package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestAPIAuth covers the spec's Authentication rules 1 to 5 on endpoints 1, 2, 3, 4, 5, 7
// and 9: the header forms, the token kinds and their scopes, and the error bodies.
func TestAPIAuth(t *testing.T) {
	t.Parallel()
	const (
		read      = "/api/{project}/latest/en/common"
		stale     = "/api/stale/{project}/latest/common?lang=nb"
		missing   = "/api/missing/{project}/latest/en/common"
		sync      = "/api/sync/{project}/latest/en/common"
		overwrite = "/api/overwrite/{project}/latest/nb/common"
		pages     = "/api/{project}/sync_page_strings/common"
		unknown   = "00000000-0000-4000-8000-000000000000"
	)
	seeded := map[string]string{"greeting": "Hello"}
	// nothingStored checks that a refused write left the seeded namespace as it was.
	nothingStored := func(t *testing.T, s *server, _ *response) {
		t.Helper()
		s.wantFlat(t, "en", "common", seeded)
		s.wantFlat(t, "nb", "common", map[string]string{"greeting": "Hei"})
	}
	newKey := map[string]string{"greeting": "Hello", "added": "Added"}
	syncBody := map[string]any{"translations": newKey}
	pageBody := map[string]any{"source_strings": []string{"Added"}}
	refused := map[string]string{"added": "<img src=x onerror=alert(1)>"}

	scenarios := []scenario{
		// Endpoint 1: every header form and token kind (rule 1).
		{name: "read/Token token=KEY", method: "GET", path: read, auth: "Token token={rw}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/Token token=\"KEY\"", method: "GET", path: read, auth: `Token token="{rw}"`, wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/bare key", method: "GET", path: read, auth: "{rw}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/Bearer project token", method: "GET", path: read, auth: "Bearer {pat}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/Bearer workspace token", method: "GET", path: read, auth: "Bearer {ws}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/scheme in lower case", method: "GET", path: read, auth: "bearer {pat}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/read-only key", method: "GET", path: read, auth: "Token token={ro}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/read-only key bare", method: "GET", path: read, auth: "{ro}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "read/no header", method: "GET", path: read, wantStatus: 401, wantError: "unauthorized"},
		{name: "read/garbage key", method: "GET", path: read, auth: "Token token=lk_0123456789abcdef", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/garbage bearer", method: "GET", path: read, auth: "Bearer pat_nope", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/empty bearer", method: "GET", path: read, auth: "Bearer ", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/empty token form", method: "GET", path: read, auth: "Token token=", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/basic auth", method: "GET", path: read, auth: "Basic dXNlcjpwYXNz", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/over-long token", method: "GET", path: read, auth: "Bearer pat_" + strings.Repeat("a", 300), wantStatus: 401, wantError: "unauthorized"},
		{name: "read/key of another project", method: "GET", path: read, auth: "Token token={other_rw}", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/read-only key of another project", method: "GET", path: read, auth: "{other_ro}", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/workspace token of another workspace", method: "GET", path: read, auth: "Bearer {other_ws}", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/project token on a sibling project", method: "GET", path: "/api/{sibling}/latest/en/common", auth: "Bearer {pat}", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/key on a sibling project", method: "GET", path: "/api/{sibling}/latest/en/common", auth: "Token token={rw}", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/workspace token on a sibling project", method: "GET", path: "/api/{sibling}/latest/en/common", auth: "Bearer {ws}", wantStatus: 200, wantJSON: `{"title":"Docs"}`},
		{name: "read/key on an unknown project", method: "GET", path: "/api/" + unknown + "/latest/en/common", auth: "Token token={rw}", wantStatus: 401, wantError: "unauthorized"},
		{name: "read/workspace token on an unknown project", method: "GET", path: "/api/" + unknown + "/latest/en/common", auth: "Bearer {ws}", wantStatus: 404, wantError: ""},

		// Endpoint 5 (rule 1).
		{name: "stale/read-only key", method: "GET", path: stale, auth: "Token token={ro}", wantStatus: 200, wantJSON: `{"lang":"nb","stale_keys":[]}`},
		{name: "stale/project token", method: "GET", path: stale, auth: "Bearer {pat}", wantStatus: 200, wantJSON: `{"lang":"nb","stale_keys":[]}`},
		{name: "stale/workspace token", method: "GET", path: stale, auth: "Bearer {ws}", wantStatus: 200, wantJSON: `{"lang":"nb","stale_keys":[]}`},
		{name: "stale/no header", method: "GET", path: stale, wantStatus: 401, wantError: "unauthorized"},
		{name: "stale/key of another project", method: "GET", path: stale, auth: "Token token={other_rw}", wantStatus: 401, wantError: "unauthorized"},
		{name: "stale/workspace token of another workspace", method: "GET", path: stale, auth: "Bearer {other_ws}", wantStatus: 401, wantError: "unauthorized"},
		// Rule 5 comes before any check of the request itself.
		{name: "stale/key of another project without lang", method: "GET", path: "/api/stale/{project}/latest/common", auth: "Token token={other_rw}", wantStatus: 401, wantError: "unauthorized"},

		// Endpoint 2 (rules 2 and 5).
		{name: "missing/read/write key", method: "POST", path: missing, auth: "Token token={rw}", body: map[string]string{"added": "Added"}, wantStatus: 201, wantEmpty: true},
		{name: "missing/project token", method: "POST", path: missing, auth: "Bearer {pat}", body: map[string]string{"added": "Added"}, wantStatus: 201, wantEmpty: true},
		{name: "missing/workspace token", method: "POST", path: missing, auth: "Bearer {ws}", body: map[string]string{"added": "Added"}, wantStatus: 201, wantEmpty: true},
		{name: "missing/read-only key", method: "POST", path: missing, auth: "Token token={ro}", body: map[string]string{"added": "Added"}, wantStatus: 403, wantError: "read_only_key", check: nothingStored},
		{name: "missing/no header", method: "POST", path: missing, body: map[string]string{"added": "Added"}, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "missing/key of another project", method: "POST", path: missing, auth: "Token token={other_rw}", body: map[string]string{"added": "Added"}, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "missing/workspace token of another workspace", method: "POST", path: missing, auth: "Bearer {other_ws}", body: map[string]string{"added": "Added"}, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "missing/read-only key of another project", method: "POST", path: missing, auth: "Token token={other_ro}", body: map[string]string{"added": "Added"}, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "missing/key of another project with a refused value", method: "POST", path: missing, auth: "Token token={other_rw}", body: refused, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "missing/key of another project with a body that is not JSON", method: "POST", path: missing, auth: "Token token={other_rw}", body: "not json", wantStatus: 401, wantError: "unauthorized", check: nothingStored},

		// Endpoint 3.
		{name: "sync/read/write key", method: "PUT", path: sync, auth: "Token token={rw}", body: syncBody, wantStatus: 200},
		{name: "sync/project token", method: "PUT", path: sync, auth: "Bearer {pat}", body: syncBody, wantStatus: 200},
		{name: "sync/workspace token", method: "PUT", path: sync, auth: "Bearer {ws}", body: syncBody, wantStatus: 200},
		{name: "sync/read-only key", method: "PUT", path: sync, auth: "Token token={ro}", body: syncBody, wantStatus: 403, wantError: "read_only_key", check: nothingStored},
		{name: "sync/no header", method: "PUT", path: sync, body: syncBody, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "sync/key of another project", method: "PUT", path: sync, auth: "Token token={other_rw}", body: syncBody, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "sync/workspace token of another workspace", method: "PUT", path: sync, auth: "Bearer {other_ws}", body: syncBody, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "sync/read-only key of another project", method: "PUT", path: sync, auth: "Token token={other_ro}", body: syncBody, wantStatus: 401, wantError: "unauthorized", check: nothingStored},

		// Endpoint 4.
		{name: "overwrite/read/write key", method: "PUT", path: overwrite, auth: "Token token={rw}", body: map[string]string{"greeting": "Hallo"}, wantStatus: 200},
		{name: "overwrite/project token", method: "PUT", path: overwrite, auth: "Bearer {pat}", body: map[string]string{"greeting": "Hallo"}, wantStatus: 200},
		{name: "overwrite/read-only key", method: "PUT", path: overwrite, auth: "Token token={ro}", body: map[string]string{"greeting": "Hallo"}, wantStatus: 403, wantError: "read_only_key", check: nothingStored},
		{name: "overwrite/no header", method: "PUT", path: overwrite, body: map[string]string{"greeting": "Hallo"}, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "overwrite/key of another project", method: "PUT", path: overwrite, auth: "Token token={other_rw}", body: map[string]string{"greeting": "Hallo"}, wantStatus: 401, wantError: "unauthorized", check: nothingStored},

		// Endpoint 7.
		{name: "page strings/read/write key", method: "POST", path: pages, auth: "Token token={rw}", body: pageBody, wantStatus: 200},
		{name: "page strings/project token", method: "POST", path: pages, auth: "Bearer {pat}", body: pageBody, wantStatus: 200},
		{name: "page strings/read-only key", method: "POST", path: pages, auth: "Token token={ro}", body: pageBody, wantStatus: 403, wantError: "read_only_key", check: nothingStored},
		{name: "page strings/no header", method: "POST", path: pages, body: pageBody, wantStatus: 401, wantError: "unauthorized", check: nothingStored},
		{name: "page strings/key of another project", method: "POST", path: pages, auth: "Token token={other_rw}", body: pageBody, wantStatus: 401, wantError: "unauthorized", check: nothingStored},

		// Endpoint 9 (rule 3): personal access tokens only.
		{name: "me/project token", method: "GET", path: "/api/me", auth: "Bearer {pat}", wantStatus: 200},
		{name: "me/workspace token", method: "GET", path: "/api/me", auth: "Bearer {ws}", wantStatus: 200},
		{name: "me/read/write key", method: "GET", path: "/api/me", auth: "Token token={rw}", wantStatus: 401, wantError: "unauthorized"},
		{name: "me/read-only key", method: "GET", path: "/api/me", auth: "Token token={ro}", wantStatus: 401, wantError: "unauthorized"},
		{name: "me/bare key", method: "GET", path: "/api/me", auth: "{rw}", wantStatus: 401, wantError: "unauthorized"},
		{name: "me/no header", method: "GET", path: "/api/me", wantStatus: 401, wantError: "unauthorized"},
		{name: "me/garbage token", method: "GET", path: "/api/me", auth: "Bearer pat_ws_nope", wantStatus: 401, wantError: "unauthorized"},
	}
	for i := range scenarios {
		scenarios[i].setup = seed
	}
	runScenarios(t, scenarios)
}

// TestAPIAuthWriteKinds checks that a write with each kind of token that may
// write leaves its value where endpoint 1 serves it, and that a read-only key that was
// refused stored nothing (rule 2).
func TestAPIAuthWriteKinds(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		seed(t, s)
		for i, auth := range []string{tokenAuth(s.rw), bearerAuth(s.pat), bearerAuth(s.wsToken), s.rw} {
			key := "by" + string(rune('a'+i))
			s.call(t, "POST", s.missingPath("en", "common"), auth, map[string]string{key: "V"}).wantStatus(t, http.StatusCreated)
		}
		s.call(t, "POST", s.missingPath("en", "common"), tokenAuth(s.ro), map[string]string{"byro": "V"}).wantStatus(t, http.StatusForbidden)
		s.wantFlat(t, "en", "common", map[string]string{"greeting": "Hello", "bya": "V", "byb": "V", "byc": "V", "byd": "V"})
	})
}
