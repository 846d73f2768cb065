//go:build !race

package rest

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// TestOAuthOpenAPIMatchesAnswers validates the OAuth routes' answers, and their valid
// requests, against openapi.json (as TestOpenAPIMatchesAnswers does the API's).
func TestOAuthOpenAPIMatchesAnswers(t *testing.T) {
	t.Parallel()
	parsed, err := libopenapi.NewDocument(openAPIDocument)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(parsed)
	if len(errs) > 0 {
		t.Fatalf("building the validator: %v", errs)
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db := storagetest.MustOpenDB(t, dialect)
		cat := storagetest.Catalog(db, &tools.Options{BaseURL: "https://lokal.test", OAuthDynamicRegistration: true})
		_, engine := newRouter(cat, &Options{Logger: slog.New(slog.DiscardHandler), Health: db.Ping})
		oauthOpenAPICases(t, v, engine)
	})
}

func oauthOpenAPICases(t *testing.T, v validator.Validator, engine http.Handler) {
	const form = "application/x-www-form-urlencoded"
	pid := "00000000-0000-4000-8000-000000000001"
	for _, c := range []struct {
		name, method, path, ctype, body string
		want                            int
		invalidRequest                  bool
	}{
		{name: "resource metadata root", method: "GET", path: "/.well-known/oauth-protected-resource", want: 200},
		{name: "resource metadata workspace", method: "GET", path: "/.well-known/oauth-protected-resource/api/mcp", want: 200},
		{name: "resource metadata project", method: "GET", path: "/.well-known/oauth-protected-resource/api/" + pid + "/mcp", want: 200},
		{name: "resource metadata bad project", method: "GET", path: "/.well-known/oauth-protected-resource/api/nope/mcp", want: 404, invalidRequest: true},
		{name: "server metadata", method: "GET", path: "/.well-known/oauth-authorization-server", want: 200},
		{name: "token unknown code", method: "POST", path: "/oauth/token", ctype: form, body: "grant_type=authorization_code&client_id=https%3A%2F%2Fc.example%2Fc.json&code=lkc_x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_verifier=" + strings.Repeat("a", 43), want: 400},
		{name: "token no client", method: "POST", path: "/oauth/token", ctype: form, body: "grant_type=refresh_token&refresh_token=lkr_x", want: 401, invalidRequest: true},
		{name: "token bad grant type", method: "POST", path: "/oauth/token", ctype: form, body: "grant_type=password&client_id=x", want: 400},
		{name: "revoke unknown", method: "POST", path: "/oauth/revoke", ctype: form, body: "token=lkr_unknown", want: 200},
		{name: "register", method: "POST", path: "/oauth/register", ctype: "application/json", body: `{"redirect_uris": ["http://127.0.0.1/cb"], "client_name": "x"}`, want: 201},
		{name: "register bad redirect", method: "POST", path: "/oauth/register", ctype: "application/json", body: `{"redirect_uris": ["https://evil.example/cb"]}`, want: 400},
		{name: "mcp without token", method: "POST", path: "/api/mcp", ctype: "application/json", body: `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`, want: 401, invalidRequest: true},
	} {
		var body io.Reader
		if c.body != "" {
			body = strings.NewReader(c.body)
		}
		req := httptest.NewRequest(c.method, c.path, body)
		if c.ctype != "" {
			req.Header.Set("Content-Type", c.ctype)
		}
		rec := httptest.NewRecorder()
		engine.ServeHTTP(rec, req)
		resp := rec.Result()
		if resp.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d: %.300s", c.name, resp.StatusCode, c.want, rec.Body.String())
			continue
		}
		check := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		check.Header = req.Header.Clone()
		validate := v.ValidateHttpRequestResponse
		if c.invalidRequest {
			validate = v.ValidateHttpResponse
		}
		if ok, errs := validate(check, resp); !ok {
			for _, e := range errs {
				t.Errorf("%s: %s", c.name, e.Error())
			}
		}
	}
}
