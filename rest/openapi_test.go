package rest

// The OpenAPI document is hand-written, so these tests hold it to the code: the route table
// of the real router, the OpenAPI 3.1 schema, the MCP tool catalogue, and the shapes of real
// answers. libopenapi (with libopenapi-validator, in openapi_validate_test.go) is used
// because it supports 3.1 fully and validates a document against the official 3.1 schema;
// kin-openapi's 3.1 support is new.

import (
	"bytes"
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

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// openAPIRouter is the real router over a fresh database of dialect.
func openAPIRouter(t *testing.T, dialect string) (*tools.Catalog, *gin.Engine) {
	t.Helper()
	db := storagetest.MustOpenDB(t, dialect)
	cat := storagetest.Catalog(db, nil)
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

// TestOpenAPIServed checks GET /api/openapi.json: the embedded bytes as JSON, with an ETag
// that gives 304 when sent back.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
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
