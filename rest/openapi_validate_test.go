//go:build !race

package rest

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/schema_validation"
)

// The OpenAPI document's validity and the answers' shapes are checked with libopenapi,
// whose race-instrumented build alone took most of a cold race run's compile time; these
// tests hold no concurrency of lokal's, so the race run leaves them to the plain run.

// TestOpenAPIIsValid validates the document against the OpenAPI 3.1 schema and builds its
// model, which resolves every $ref.
func TestOpenAPIIsValid(t *testing.T) {
	t.Parallel()
	doc := decodeOpenAPI(t)
	if !strings.HasPrefix(doc.OpenAPI, "3.1.") {
		t.Errorf("openapi is %q, want 3.1.x", doc.OpenAPI)
	}
	if doc.Info.Version != "1" {
		t.Errorf("info.version is %q, want 1", doc.Info.Version)
	}
	parsed, err := libopenapi.NewDocument(openAPIDocument)
	if err != nil {
		t.Fatalf("parsing openapi.json: %v", err)
	}
	if _, err := parsed.BuildV3Model(); err != nil {
		t.Errorf("building the model of openapi.json: %v", err)
	}
	valid, errs := schema_validation.ValidateOpenAPIDocument(parsed)
	for _, e := range errs {
		t.Errorf("openapi.json: %s", e.Error())
		for _, f := range e.SchemaValidationErrors {
			t.Errorf("  at %s: %s", f.FieldPath, f.Reason)
		}
	}
	if !valid && len(errs) == 0 {
		t.Error("openapi.json is not valid OpenAPI 3.1")
	}
}

// TestOpenAPIMatchesAnswers sends real requests, valid and refused, and validates each
// answer (and each valid request) against the document.
func TestOpenAPIMatchesAnswers(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		parsed, err := libopenapi.NewDocument(openAPIDocument)
		if err != nil {
			t.Fatalf("parsing openapi.json: %v", err)
		}
		v, errs := validator.NewValidator(parsed)
		if len(errs) > 0 {
			t.Fatalf("building the validator: %v", errs)
		}
		cat, engine := openAPIRouter(t, dialect)
		f := openAPIFixtures(t, cat)
		p := f.project.ID
		ns := "/latest/en/common"
		big := `{"k": "` + strings.Repeat("x", MaxBody) + `"}`

		for _, c := range []struct {
			name, method, path, token, body string
			headers                         map[string]string
			want                            int
			invalidRequest                  bool // the request breaks the description on purpose: only the answer is checked
		}{
			{name: "sync", method: "PUT", path: "/api/sync/" + p + ns, token: f.rw,
				body: `{"translations": {"nav": {"home": "Home"}, "cart.items": "%{count} items"}, "dynamic_key_prefixes": ["errors."]}`, want: 200},
			{name: "sync flat", method: "PUT", path: "/api/sync/" + p + "/latest/nb/common", token: f.rw, body: `{"nav.home": "Hjem"}`, want: 200},
			{name: "read", method: "GET", path: "/api/" + p + ns, token: f.ro, want: 200},
			{name: "read gzip", method: "GET", path: "/api/" + p + ns, token: f.ro, headers: map[string]string{"Accept-Encoding": "gzip"}, want: 200},
			{name: "read unknown namespace", method: "GET", path: "/api/" + p + "/latest/en/nope", token: f.ro, want: 404},
			{name: "read no token", method: "GET", path: "/api/" + p + ns, want: 401, invalidRequest: true},
			{name: "missing", method: "POST", path: "/api/missing/" + p + ns, token: f.rw,
				body: `{"new.key": "New", "described": {"value": "Described", "context": {"text": "a note"}}}`, want: 201},
			{name: "missing read-only", method: "POST", path: "/api/missing/" + p + ns, token: f.ro, body: `{"a": "b"}`, want: 403},
			{name: "missing script", method: "POST", path: "/api/missing/" + p + ns, token: f.rw, body: `{"a": "javascript:alert(1)"}`, want: 422},
			{name: "missing number", method: "POST", path: "/api/missing/" + p + ns, token: f.rw, body: `{"a": 1}`, want: 400, invalidRequest: true},
			{name: "missing too large", method: "POST", path: "/api/missing/" + p + ns, token: f.rw, body: big, want: 413, invalidRequest: true},
			{name: "overwrite", method: "PUT", path: "/api/overwrite/" + p + "/latest/nb/common", token: f.pat, body: `{"nav.home": "Hjem!", "nope": "x"}`, want: 200},
			{name: "import a broken file", method: "PUT", path: "/api/import/" + p + ns + "?format=json", token: f.rw, body: `{"nav.home": `, want: 422, invalidRequest: true},
			{name: "import an unknown format", method: "PUT", path: "/api/import/" + p + ns + "?format=docx", token: f.rw, body: `{}`, want: 400, invalidRequest: true},
			{name: "read as a file", method: "GET", path: "/api/" + p + "/latest/nb/common?format=po&status=approved", token: f.ro, want: 200},
			{name: "stale", method: "GET", path: "/api/stale/" + p + "/latest/common?lang=nb&include_null=false", token: f.ro, want: 200},
			{name: "stale without lang", method: "GET", path: "/api/stale/" + p + "/latest/common", token: f.ro, want: 400, invalidRequest: true},
			{name: "page strings", method: "POST", path: "/api/" + p + "/sync_page_strings/page", token: f.rw, body: `{"source_strings": ["Sign in", "Sign in", " "]}`, want: 200},
			{name: "me", method: "GET", path: "/api/me", token: f.pat, want: 200},
			{name: "me workspace", method: "GET", path: "/api/me", token: f.wsToken, want: 200},
			{name: "me key", method: "GET", path: "/api/me", token: f.rw, want: 401},
			{name: "languages", method: "GET", path: "/api/languages/" + p, want: 200},
			{name: "healthz", method: "GET", path: "/healthz", want: 200},
			{name: "mcp tools/list", method: "POST", path: "/api/" + p + "/mcp", token: f.pat,
				headers: map[string]string{"Accept": "application/json"}, body: `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`, want: 200},
			{name: "mcp workspace call", method: "POST", path: "/api/mcp", token: f.wsToken,
				headers: map[string]string{"Accept": "application/json"},
				body:    `{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "get_project_status", "arguments": {"project_id": "` + p + `"}}}`, want: 200},
			{name: "mcp notification", method: "POST", path: "/api/" + p + "/mcp", token: f.pat,
				body: `{"jsonrpc": "2.0", "method": "notifications/initialized"}`, want: 202},
			{name: "mcp unknown method", method: "POST", path: "/api/" + p + "/mcp", token: f.pat,
				body: `{"jsonrpc": "2.0", "id": 3, "method": "nope"}`, want: 400},
			{name: "mcp parse error", method: "POST", path: "/api/" + p + "/mcp", token: f.pat, body: `{`, want: 400, invalidRequest: true},
			{name: "mcp workspace with a key", method: "POST", path: "/api/mcp", token: f.rw,
				body: `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`, want: 401},
			{name: "embed resolve unknown token", method: "POST", path: "/api/embed/resolve", body: `{"token": "pub_nope", "host": "www.example.com"}`, want: 404},
			{name: "embed harvest", method: "POST", path: "/api/embed/" + p + "/harvest", body: `{"strings": ["Sign in"]}`, want: 204},
			{name: "embed dictionary", method: "GET", path: "/api/" + p + "/dictionary/nb/common", want: 200},
			{name: "embed dictionary priors", method: "GET", path: "/api/" + p + "/dictionary/nb/common?src=0", want: 200},
			{name: "embed dictionary bad src", method: "GET", path: "/api/" + p + "/dictionary/nb/common?src=2", want: 400, invalidRequest: true},
			{name: "embed dictionary origin", method: "GET", path: "/api/" + p + "/dictionary/nb/common", headers: map[string]string{"Origin": "https://evil.example"}, want: 403},
			{name: "embed changes", method: "GET", path: "/api/" + p + "/changes/nb/common?since=" + time.Now().Add(-time.Hour).UTC().Format(time.RFC3339), want: 200},
			{name: "embed changes no since", method: "GET", path: "/api/" + p + "/changes/nb/common", want: 400, invalidRequest: true},
			{name: "embed ping", method: "POST", path: "/api/" + p + "/install_ping", want: 204},
			{name: "embed public info", method: "GET", path: "/api/" + p + "/public_info", want: 200},
			{name: "embed public info unknown", method: "GET", path: "/api/00000000-0000-0000-0000-000000000000/public_info", want: 404},
			{name: "embed script", method: "GET", path: "/embed.js", want: 200},
			{name: "mcp get", method: "GET", path: "/api/mcp", want: 405},
			{name: "mcp delete", method: "DELETE", path: "/api/" + p + "/mcp", want: 405},
		} {
			var body io.Reader
			if c.body != "" {
				body = strings.NewReader(c.body)
			}
			req := httptest.NewRequest(c.method, c.path, body)
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			if c.token != "" {
				req.Header.Set("Authorization", "Token token="+c.token)
			}
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			engine.ServeHTTP(rec, req)
			resp := rec.Result()
			if resp.StatusCode != c.want {
				t.Errorf("%s: status %d, want %d: %.300s", c.name, resp.StatusCode, c.want, rec.Body.String())
				continue
			}
			if resp.Header.Get("Content-Encoding") == "gzip" {
				// The validator reads the body as it is; it was checked uncompressed above.
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
	})
}

type openAPIFixture struct {
	project              model.Project
	rw, ro, pat, wsToken string
}

// openAPIFixtures makes a workspace with a user, a project (source en, nb on), read/write
// and read-only keys, and the user's project and workspace tokens.
func openAPIFixtures(t *testing.T, cat *tools.Catalog) openAPIFixture {
	t.Helper()
	ctx := model.WithPrincipal(context.Background(), tools.System)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("creating %s: %v", what, err)
		}
	}
	var f openAPIFixture
	ws, err := cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: "Acme"})
	must("workspace", err)
	user, err := cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: ws.ID, Email: "dev@acme.test"})
	must("user", err)
	f.project, err = cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: ws.ID, Title: "Web app", SourceLanguage: "en", Languages: []string{"nb"}})
	must("project", err)
	// An allowed origin sets the Embed up for it, so that its public routes answer.
	_, err = cat.SetProject(ctx, f.project.ID, tools.SetProjectIn{AllowedOrigins: &[]string{"https://www.example.com"}})
	must("allowed origin", err)
	for _, k := range []struct {
		to       *string
		readOnly bool
	}{{&f.rw, false}, {&f.ro, true}} {
		key, err := cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: f.project.ID, ReadOnly: k.readOnly})
		must("API key", err)
		*k.to = key.Key
	}
	tok, err := cat.CreateToken(ctx, tools.CreateTokenIn{UserID: user.ID, ProjectID: f.project.ID})
	must("project token", err)
	f.pat = tok.Token
	tok, err = cat.CreateToken(ctx, tools.CreateTokenIn{UserID: user.ID, WorkspaceID: ws.ID})
	must("workspace token", err)
	f.wsToken = tok.Token
	return f
}
