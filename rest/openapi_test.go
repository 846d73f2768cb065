package rest

// The OpenAPI document is hand-written, so these tests hold it to the code: the route table
// of the real router, the OpenAPI 3.1 schema, the MCP tool catalogue, and the shapes of real
// answers. libopenapi (with libopenapi-validator) is used because it supports 3.1 fully and
// validates a document against the official 3.1 schema; kin-openapi's 3.1 support is new.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/schema_validation"
)

// openAPIRouter is the real router over a fresh database of dialect.
func openAPIRouter(t *testing.T, dialect string) (*tools.Catalog, *gin.Engine) {
	t.Helper()
	db := storagetest.MustOpenDB(t, dialect)
	cat := tools.NewCatalog(db, nil)
	_, engine := newRouter(cat, &Options{Logger: slog.New(slog.DiscardHandler), Health: db.Ping, Public: public.Mount(cat, nil)})
	return cat, engine
}

// openAPIDoc is the embedded document decoded generically.
type openAPIDoc struct {
	OpenAPI string `json:"openapi"`
	Info    struct {
		Version string `json:"version"`
	} `json:"info"`
	Paths map[string]map[string]json.RawMessage `json:"paths"`
}

func decodeOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	var doc openAPIDoc
	if err := json.Unmarshal(openAPIDocument, &doc); err != nil {
		t.Fatalf("decoding openapi.json: %v", err)
	}
	return doc
}

var ginParam = regexp.MustCompile(`[:*]([A-Za-z0-9_]+)`)

// TestOpenAPIDescribesEveryRoute checks both directions: every route gin serves is
// described, and every described operation is routed. The route table does not depend on
// the database, so SQLite alone builds it.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	_, engine := openAPIRouter(t, "sqlite")
	routed := map[string]bool{}
	for _, r := range engine.Routes() {
		if r.Method == http.MethodOptions {
			continue
		}
		routed[r.Method+" "+ginParam.ReplaceAllString(r.Path, "{$1}")] = true
	}
	if len(routed) == 0 {
		t.Fatal("the router has no routes")
	}

	methods := map[string]bool{"get": true, "put": true, "post": true, "delete": true, "patch": true, "head": true, "trace": true}
	described := map[string]bool{}
	for path, item := range decodeOpenAPI(t).Paths {
		for m := range item {
			if methods[m] {
				described[strings.ToUpper(m)+" "+path] = true
			}
		}
	}

	for _, r := range sortedSet(routed) {
		if !described[r] {
			t.Errorf("route %s is not described in openapi.json", r)
		}
	}
	for _, d := range sortedSet(described) {
		if !routed[d] {
			t.Errorf("openapi.json describes %s, which the router does not serve", d)
		}
	}
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

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

// TestOpenAPIServed checks GET /api/openapi.json: the embedded bytes as JSON, with an ETag
// that gives 304 when sent back.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	for _, dialect := range storagetest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			_, engine := openAPIRouter(t, dialect)
			srv := httptest.NewServer(engine)
			t.Cleanup(srv.Close)

			resp, body := get(t, srv.URL+"/api/openapi.json", nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", resp.StatusCode, body)
			}
			if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != "application/json" {
				t.Errorf("Content-Type %q, want application/json", resp.Header.Get("Content-Type"))
			}
			if !bytes.Equal(body, openAPIDocument) {
				t.Error("body differs from the embedded document")
			}
			if !json.Valid(body) {
				t.Error("body is not valid JSON")
			}
			etag := resp.Header.Get("ETag")
			if etag == "" {
				t.Fatal("no ETag")
			}

			resp, body = get(t, srv.URL+"/api/openapi.json", map[string]string{"If-None-Match": etag})
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Errorf("with If-None-Match: status %d and %d bytes, want 304 and none", resp.StatusCode, len(body))
			}
		})
	}
}

func get(t *testing.T, url string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", url, err)
	}
	return resp, body
}

// TestOpenAPIListsMCPTools checks the tool table in the MCP description against the
// catalogue: one row per tool, naming each of its arguments, and no row for a tool that
// does not exist.
func TestOpenAPIListsMCPTools(t *testing.T) {
	t.Parallel()
	var op struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(decodeOpenAPI(t).Paths["/api/mcp"]["post"], &op); err != nil {
		t.Fatalf("decoding POST /api/mcp: %v", err)
	}
	rows := map[string]string{}
	row := regexp.MustCompile("^\\| `([a-z_]+)` \\|")
	for _, line := range strings.Split(op.Description, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			rows[m[1]] = line
		}
	}
	known := map[string]bool{}
	offered, err := MCPTools(t.Context(), tools.NewCatalog(nil, nil), true, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range offered {
		known[tool.Name] = true
		line, ok := rows[tool.Name]
		if !ok {
			t.Errorf("tool %s has no row in the MCP description", tool.Name)
			continue
		}
		schema, _ := tool.InputSchema.(map[string]any)
		properties, _ := schema["properties"].(map[string]any)
		required, _ := schema["required"].([]any)
		for arg := range properties {
			if arg == "project_id" && slices.Contains(required, any("project_id")) {
				continue // said once for every project tool
			}
			if !strings.Contains(line, "`"+arg+"`") {
				t.Errorf("the row of %s does not name its argument %s", tool.Name, arg)
			}
		}
	}
	for name := range rows {
		if !known[name] {
			t.Errorf("the MCP description lists %s, which is not a tool", name)
		}
	}
}

// TestOpenAPIMatchesAnswers sends real requests, valid and refused, and validates each
// answer (and each valid request) against the document.
func TestOpenAPIMatchesAnswers(t *testing.T) {
	t.Parallel()
	for _, dialect := range storagetest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
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
