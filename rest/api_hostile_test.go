package rest_test

// Hostile input against every route and every MCP tool: NUL and other control characters,
// invalid UTF-8, huge numbers, deep JSON, wrong types, empty bodies, trailing garbage and
// long strings, in paths, queries, headers, bodies and tool arguments. Whatever comes in,
// the answer is never a 5xx: a 4xx carries the error shape, and MCP answers a JSON-RPC
// error or a tool error in that shape, never "internal".

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileLimits lift the write budgets: the hundreds of hostile writes must reach the
// code behind the limiter, not a 429.
var hostileLimits = &tools.Options{Budgets: map[string]int{tools.WriteBudget.Name: 1 << 30, tools.PageStringsBudget.Name: 1 << 30}}

// hostileRoute is one route of the router with valid defaults for its path parameters.
type hostileRoute struct {
	name   string
	method string
	path   string // {project_id}, {language} and {namespace} are parameters
	auth   func(s *server) string
	body   string // a valid body, "" for none
	query  string // a valid query, "" for none
}

func hostileRoutes() []hostileRoute {
	rw := func(s *server) string { return tokenAuth(s.rw) }
	ws := func(s *server) string { return bearerAuth(s.wsToken) }
	none := func(*server) string { return "" }
	const list = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	return []hostileRoute{
		{"1 read", "GET", "/api/{project_id}/latest/{language}/{namespace}", rw, "", ""},
		{"2 missing", "POST", "/api/missing/{project_id}/latest/{language}/{namespace}", rw, `{"fresh":"Fresh"}`, ""},
		{"3 sync", "PUT", "/api/sync/{project_id}/latest/{language}/{namespace}", rw, `{"greeting":"Hello"}`, ""},
		{"4 overwrite", "PUT", "/api/overwrite/{project_id}/latest/{language}/{namespace}", rw, `{"greeting":"Hei"}`, ""},
		{"5 stale", "GET", "/api/stale/{project_id}/latest/{namespace}", rw, "", "lang=nb"},
		{"7 page strings", "POST", "/api/{project_id}/sync_page_strings/{namespace}", rw, `{"source_strings":["Hello"]}`, ""},
		{"9 me", "GET", "/api/me", ws, "", ""},
		{"mcp workspace", "POST", "/api/mcp", ws, list, ""},
		{"mcp project", "POST", "/api/{project_id}/mcp", rw, list, ""},
		{"languages", "GET", "/api/languages/{project_id}", none, "", ""},
		{"healthz", "GET", "/healthz", none, "", ""},
	}
}

// params lists the route's path parameters in order.
func (r hostileRoute) params() []string {
	var out []string
	for _, p := range []string{"project_id", "language", "namespace"} {
		if strings.Contains(r.path, "{"+p+"}") {
			out = append(out, p)
		}
	}
	return out
}

// at is the route's path with param set to the raw (already escaped) segment.
func (r hostileRoute) at(s *server, param, segment string) string {
	lang := "en"
	if strings.HasPrefix(r.path, "/api/overwrite/") {
		lang = "nb"
	}
	vals := map[string]string{"project_id": s.proj.ID, "language": lang, "namespace": "common"}
	if param != "" {
		vals[param] = segment
	}
	p := r.path
	for k, v := range vals {
		p = strings.ReplaceAll(p, "{"+k+"}", v)
	}
	if r.query != "" {
		p += "?" + r.query
	}
	return p
}

// withQuery is the route's valid path with query in place of its own.
func (r hostileRoute) withQuery(s *server, query string) string {
	r.query = ""
	return r.at(s, "", "") + "?" + query
}

func (r hostileRoute) isMCP() bool { return strings.HasSuffix(r.path, "/mcp") }

// hostileSegments are path segments as sent on the wire (percent-encoded).
var hostileSegments = []struct{ name, seg string }{
	{"NUL", "%00"},
	{"NUL inside", "com%00mon"},
	{"NUL at the end", "common%00"},
	{"control characters", "a%01%02%1b%1f%7fb"},
	{"tab CR LF", "a%09%0d%0ab"},
	{"invalid UTF-8", "a%ffb"},
	{"truncated UTF-8", "a%c3"},
	{"overlong UTF-8", "%c0%af"},
	{"UTF-16 surrogate", "%ed%a0%80"},
	{"U+FFFD", "%ef%bf%bd"},
	{"byte order mark", "%ef%bb%bfcommon"},
	{"right-to-left override", "%e2%80%aecommon"},
	{"line separator", "a%e2%80%a8b"},
	{"huge number", "1e400"},
	{"2^63", "9223372036854775808"},
	{"negative", "-1"},
	{"encoded slash", "a%2fb"},
	{"encoded dot-dot", "%2e%2e"},
	{"space", "%20"},
	{"percent", "%25"},
	{"JSON", "%7b%22a%22%3a1%7d"},
	{"SQL", "x'%20OR%20'1'='1"},
	{"4 KiB", strings.Repeat("a", 4<<10)},
	{"64 KiB", strings.Repeat("n", 64<<10)},
}

// hostileStrings are JSON values put where the API expects a string; raw ones are not
// valid JSON or not valid UTF-8 on purpose.
func hostileStrings() []struct{ name, json string } {
	return []struct{ name, json string }{
		{"escaped NUL", `"a\u0000b"`},
		{"only NUL", `"\u0000"`},
		{"many NULs", `"` + strings.Repeat(`\u0000`, 1000) + `"`},
		{"escaped control characters", `"\u0001\u001b\u001f\u007f"`},
		{"escaped tab CR LF", `"a\t\r\nb"`},
		{"lone surrogate", `"\ud800"`},
		{"raw NUL", "\"a\x00b\""},
		{"raw control character", "\"a\x01b\""},
		{"raw invalid UTF-8", "\"a\xffb\""},
		{"raw truncated UTF-8", "\"a\xc3\""},
		{"raw overlong UTF-8", "\"\xc0\xaf\""},
		{"empty", `""`},
		{"64 KiB", `"` + strings.Repeat("s", 64<<10) + `"`},
		{"1 MiB", `"` + strings.Repeat("m", 1<<20) + `"`},
		{"script URL", `"javascript:alert(1)"`},
	}
}

// hostileTypes are JSON values of the wrong type for a string (and for most other fields).
func hostileTypes() []struct{ name, json string } {
	return []struct{ name, json string }{
		{"null", `null`},
		{"true", `true`},
		{"zero", `0`},
		{"1e400", `1e400`},
		{"-1e400", `-1e400`},
		{"1e-400", `1e-400`},
		{"2^63", `9223372036854775808`},
		{"-2^63-1", `-9223372036854775809`},
		{"2^64", `18446744073709551616`},
		{"fraction", `0.5`},
		{"empty array", `[]`},
		{"array of strings", `["a","b"]`},
		{"array with NUL", `["a\u0000"]`},
		{"empty object", `{}`},
		{"object", `{"a":"b"}`},
		{"object with NUL key", `{"a\u0000":"b"}`},
		{"10,000 nested arrays", hostileDeep(`[`, `]`, 10000)},
		{"10,000 nested objects", hostileDeepObject(10000)},
	}
}

func hostileDeep(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

func hostileDeepObject(n int) string {
	return strings.Repeat(`{"a":`, n) + `"x"` + strings.Repeat(`}`, n)
}

// hostileBodies are whole request bodies.
func hostileBodies() []struct{ name, body string } {
	return []struct{ name, body string }{
		{"empty", ``},
		{"whitespace", " \n\t"},
		{"null", `null`},
		{"a string", `"s"`},
		{"a number", `1e400`},
		{"2^63", `9223372036854775808`},
		{"an array", `[]`},
		{"an empty object", `{}`},
		{"a NUL byte", "\x00"},
		{"raw invalid UTF-8", "\xff\xfe\xfd"},
		{"a byte order mark", "\xef\xbb\xbf{}"},
		{"trailing garbage", `{} garbage`},
		{"a trailing NUL", "{}\x00"},
		{"two objects", `{}{}`},
		{"a trailing comma", `{"a":"b",}`},
		{"unterminated", `{"a":`},
		{"10,000 nested arrays", hostileDeep(`[`, `]`, 10000)},
		{"10,001 nested arrays", hostileDeep(`[`, `]`, 10001)},
		{"10,000 nested objects", hostileDeepObject(10000)},
		{"100,000 nested objects", hostileDeepObject(100000)},
		{"1 MiB of spaces", strings.Repeat(" ", 1<<20)},
	}
}

// hostileBodySlots place a JSON value where a route expects a string. %s is the value.
var hostileBodySlots = map[string][]string{
	"2 missing":   {`{"k":%s}`, `{"ok":"OK","k":%s}`},
	"3 sync":      {`{"k":%s}`, `{"translations":{"k":%s}}`, `{"translations":%s}`, `{"translations":{"k":"v"},"dynamic_key_prefixes":[%s]}`, `{"translations":{"k":"v"},"dynamic_key_prefixes":%s}`, `{"translations":{"k":"v"},"preserve_source_values":%s}`, `{"translations":{"k":"v"},"partial":%s}`},
	"4 overwrite": {`{"greeting":%s}`, `{"k":%s}`},
	"7 page strings": {`{"source_strings":[%s]}`, `{"source_strings":["Hello",%s]}`,
		`{"source_strings":%s}`},
}

// hostileKeySlots place a JSON string where a route expects an object key.
var hostileKeySlots = map[string][]string{
	"2 missing":   {`{%s:"v"}`},
	"3 sync":      {`{%s:"v"}`, `{"translations":{%s:"v"}}`},
	"4 overwrite": {`{%s:"v"}`},
}

// wantHostileREST checks one answer of a non-MCP route: never a 5xx, and a 4xx in the
// error shape with a code other than internal.
func wantHostileREST(t *testing.T, r *response) {
	t.Helper()
	if r.status >= 500 {
		t.Errorf("status %d, want no 5xx; body: %s", r.status, truncated(r.body))
		return
	}
	if r.status >= 400 {
		r.wantError(t, "")
	}
}

// wantHostileAnswer checks an answer of any route.
func wantHostileAnswer(t *testing.T, route hostileRoute, r *response) {
	t.Helper()
	if route.isMCP() {
		wantHostileMCP(t, r)
		return
	}
	wantHostileREST(t, r)
}

// TestHostileREST sends hostile paths, queries, headers, methods and bodies to every route.
func TestHostileREST(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialectWith(t, hostileLimits, func(t *testing.T, s *server) {
		seed(t, s)
		for _, route := range hostileRoutes() {
			t.Run(route.name, func(t *testing.T) {
				send := func(t *testing.T, req request) {
					t.Helper()
					if req.Method == "" {
						req.Method = route.method
					}
					if req.Auth == "" {
						req.Auth = route.auth(s)
					}
					if req.Body == nil && route.body != "" {
						req.Body = route.body
					}
					wantHostileAnswer(t, route, s.do(t, req))
				}
				t.Run("valid", func(t *testing.T) {
					r := s.do(t, request{Method: route.method, Path: route.at(s, "", ""), Auth: route.auth(s), Body: hostileBodyOrNil(route.body)})
					if r.status >= 300 {
						t.Fatalf("the valid request answers %d: %s", r.status, truncated(r.body))
					}
				})
				for _, param := range route.params() {
					for _, seg := range hostileSegments {
						t.Run("path "+param+" "+seg.name, func(t *testing.T) {
							send(t, request{Path: route.at(s, param, seg.seg)})
						})
					}
				}
				for _, q := range hostileQueries {
					t.Run("query "+q.name, func(t *testing.T) {
						send(t, request{Path: route.withQuery(s, q.query)})
					})
				}
				for _, h := range hostileHeaders(s) {
					t.Run("header "+h.name, func(t *testing.T) {
						// The header map wins over the route's Authorization.
						send(t, request{Path: route.at(s, "", ""), Header: h.header})
					})
				}
				for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "BREW"} {
					t.Run("method "+m, func(t *testing.T) {
						r := s.do(t, request{Method: m, Path: route.at(s, "", ""), Auth: route.auth(s), Body: hostileBodyOrNil(route.body)})
						if m == "HEAD" {
							// No body to hold the shape.
							if r.status >= 500 {
								t.Errorf("status %d, want no 5xx", r.status)
							}
							return
						}
						wantHostileAnswer(t, route, r)
					})
				}
				for _, b := range hostileBodies() {
					t.Run("body "+b.name, func(t *testing.T) {
						send(t, request{Path: route.at(s, "", ""), Body: b.body})
					})
				}
				for _, slot := range hostileBodySlots[route.name] {
					for _, v := range append(hostileStrings(), hostileTypes()...) {
						t.Run("body "+slot+" "+v.name, func(t *testing.T) {
							send(t, request{Path: route.at(s, "", ""), Body: strings.Replace(slot, "%s", v.json, 1)})
						})
					}
				}
				for _, slot := range hostileKeySlots[route.name] {
					for _, v := range hostileStrings() {
						t.Run("key "+slot+" "+v.name, func(t *testing.T) {
							send(t, request{Path: route.at(s, "", ""), Body: strings.Replace(slot, "%s", v.json, 1)})
						})
					}
				}
			})
		}
	})
}

// hostileBodyOrNil keeps a request without a body when the route takes none.
func hostileBodyOrNil(body string) any {
	if body == "" {
		return nil
	}
	return body
}

// hostileQueries go to every route; only endpoint 5 reads its query (lang, include_null).
var hostileQueries = []struct{ name, query string }{
	{"lang NUL", "lang=%00"},
	{"lang NUL inside", "lang=n%00b"},
	{"lang control characters", "lang=%01%1f%7f"},
	{"lang invalid UTF-8", "lang=%ff"},
	{"lang huge number", "lang=1e400"},
	{"lang 64 KiB", "lang=" + strings.Repeat("l", 64<<10)},
	{"lang twice", "lang=nb&lang=%00"},
	{"lang as array", "lang[]=nb"},
	{"lang empty", "lang="},
	{"include_null NUL", "include_null=%00"},
	{"include_null invalid UTF-8", "include_null=%ff"},
	{"include_null huge number", "include_null=1e400"},
	{"include_null 2^63", "include_null=9223372036854775808"},
	{"include_null empty", "include_null="},
	{"bad escape", "lang=%zz&include_null=%"},
	{"raw NUL key", "%00=%00"},
	{"semicolon", "lang=nb;include_null=true"},
}

// hostileHeaders are header sets the Go client can send (no raw control characters; those
// are in TestHostileRawRequests).
func hostileHeaders(s *server) []struct {
	name   string
	header map[string]string
} {
	type h = map[string]string
	return []struct {
		name   string
		header map[string]string
	}{
		{"authorization empty", h{"Authorization": ""}},
		{"authorization scheme only", h{"Authorization": "Token"}},
		{"authorization invalid UTF-8", h{"Authorization": "Token token=\xff\xfe"}},
		{"authorization bearer invalid UTF-8", h{"Authorization": "Bearer pat_\xff"}},
		{"authorization 8 KiB", h{"Authorization": "Bearer " + strings.Repeat("t", 8<<10)}},
		{"authorization key with suffix", h{"Authorization": tokenAuth(s.rw + "%00")}},
		{"authorization two tokens", h{"Authorization": tokenAuth(s.rw) + ", " + bearerAuth(s.wsToken)}},
		{"if-none-match invalid UTF-8", h{"If-None-Match": "\"\xff\""}},
		{"if-none-match 8 KiB", h{"If-None-Match": strings.Repeat("\"e\",", 2<<10)}},
		{"accept-encoding huge q", h{"Accept-Encoding": "gzip;q=1e400"}},
		{"accept-encoding NaN q", h{"Accept-Encoding": "gzip;q=NaN, br;q=-1"}},
		{"content-type wrong", h{"Content-Type": "text/html; charset=\xff"}},
		{"content-encoding gzip on a plain body", h{"Content-Encoding": "gzip"}},
		{"x-service-read-only garbage", h{"X-Service-Read-Only": "\xff"}},
		{"mcp-protocol-version garbage", h{"Mcp-Protocol-Version": "9999-99-99\xff"}},
		{"mcp-session-id garbage", h{"Mcp-Session-Id": strings.Repeat("\xff", 100)}},
		{"accept nothing", h{"Accept": "image/png"}},
	}
}

// TestHostileRawRequests writes request lines and headers the Go client refuses to send:
// raw invalid UTF-8 reaches the router, raw control characters are refused by net/http's
// own parser before any handler runs.
func TestHostileRawRequests(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialectWith(t, hostileLimits, func(t *testing.T, s *server) {
		seed(t, s)
		for _, route := range hostileRoutes() {
			t.Run(route.name, func(t *testing.T) {
				for _, param := range route.params() {
					for _, seg := range []struct{ name, raw string }{
						{"invalid UTF-8", "a\xffb"},
						{"overlong UTF-8", "\xc0\xaf"},
						{"latin-1", "caf\xe9"},
					} {
						t.Run("path "+param+" "+seg.name, func(t *testing.T) {
							r := hostileRaw(t, s, route.method, route.at(s, param, seg.raw), route.auth(s), route.body)
							wantHostileAnswer(t, route, r)
						})
					}
				}
				// net/http answers these itself with a plain-text 400 and closes the connection:
				// no handler of ours can see them, so the error shape cannot be asked for.
				for _, c := range []struct{ name, path, auth string }{
					{"path raw NUL", route.at(s, "", "") + "\x00", route.auth(s)},
					{"path raw control character", route.at(s, "", "") + "\x01", route.auth(s)},
					{"authorization raw NUL", route.at(s, "", ""), "Token token=\x00"},
				} {
					t.Run(c.name, func(t *testing.T) {
						r := hostileRaw(t, s, route.method, c.path, c.auth, route.body)
						if r.status != http.StatusBadRequest {
							t.Errorf("status %d, want net/http's 400; body: %s", r.status, truncated(r.body))
						}
					})
				}
			})
		}
	})
}

// hostileRaw sends one HTTP/1.1 request byte for byte over a fresh loopback connection.
func hostileRaw(t *testing.T, s *server, method, path, auth, body string) *response {
	t.Helper()
	conn, err := net.Dial("tcp", s.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: lokal.test\r\nConnection: close\r\n", method, path)
	if auth != "" {
		fmt.Fprintf(&b, "Authorization: %s\r\n", auth)
	}
	if body != "" {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n" + body)
	if _, err := conn.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, "/", nil)
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return &response{status: res.StatusCode, header: res.Header, body: data}
}

// hostileRPC is the JSON-RPC answer of the MCP endpoints.
type hostileRPC struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
	Error *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// wantHostileMCP checks an answer of an MCP endpoint: no 5xx; a JSON-RPC error other than
// -32603 (internal error), or a result whose tool error is the error shape without code
// internal; an HTTP refusal before JSON-RPC (401, 413, invalid UTF-8) in the error shape.
func wantHostileMCP(t *testing.T, r *response) {
	t.Helper()
	if r.status >= 500 {
		t.Errorf("status %d, want no 5xx; body: %s", r.status, truncated(r.body))
		return
	}
	if (r.status == http.StatusAccepted || r.status == http.StatusNoContent) && len(r.body) == 0 {
		return // a notification, or a CORS preflight
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &probe); err != nil {
		t.Errorf("status %d, body is not a JSON object (%v): %s", r.status, err, truncated(r.body))
		return
	}
	if _, ok := probe["jsonrpc"]; !ok {
		if r.status < 400 {
			t.Errorf("status %d with neither JSON-RPC nor an error: %s", r.status, truncated(r.body))
			return
		}
		r.wantError(t, "")
		var e struct{ Error string }
		json.Unmarshal(r.body, &e)
		if e.Error == "internal" {
			t.Errorf("error code internal: %s", truncated(r.body))
		}
		return
	}
	var rpc hostileRPC
	if err := json.Unmarshal(r.body, &rpc); err != nil || rpc.JSONRPC != "2.0" {
		t.Errorf("not a JSON-RPC 2.0 answer (%v): %s", err, truncated(r.body))
		return
	}
	switch {
	case rpc.Error != nil:
		if rpc.Error.Code == nil || *rpc.Error.Code == -32603 {
			t.Errorf("JSON-RPC internal error or no code: %s", truncated(r.body))
		}
	case rpc.Result != nil:
		if !rpc.Result.IsError {
			return
		}
		if len(rpc.Result.Content) == 0 || rpc.Result.Content[0].Type != "text" {
			t.Errorf("tool error without text: %s", truncated(r.body))
			return
		}
		text := rpc.Result.Content[0].Text
		var e map[string]any
		if err := json.Unmarshal([]byte(text), &e); err != nil {
			t.Errorf("tool error text is not JSON (%v): %q", err, text)
			return
		}
		code, _ := e["error"].(string)
		if code == "" {
			t.Errorf("tool error has no code: %s", text)
		}
		if code == "internal" {
			t.Errorf("tool error code internal: %s", text)
		}
		for k, v := range e {
			if _, ok := v.(string); !ok || k != "error" && k != "message" {
				t.Errorf("tool error has field %q = %v, want only error and message strings: %s", k, v, text)
			}
		}
	default:
		t.Errorf("JSON-RPC answer with neither result nor error: %s", truncated(r.body))
	}
}

// hostileTool is a tool as tools/list describes it.
type hostileTool struct {
	Name        string `json:"name"`
	InputSchema struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"` // a name, or a list such as ["null","array"]
		} `json:"properties"`
		Required []string `json:"required"`
	} `json:"inputSchema"`
}

// hostileListTools reads the tool list of an MCP endpoint.
func hostileListTools(t *testing.T, s *server, path, auth string) []hostileTool {
	t.Helper()
	r := s.call(t, "POST", path, auth, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`).wantStatus(t, http.StatusOK)
	var out struct {
		Result struct {
			Tools []hostileTool `json:"tools"`
		} `json:"result"`
	}
	r.decode(t, &out)
	if len(out.Result.Tools) == 0 {
		t.Fatalf("tools/list lists no tools: %s", truncated(r.body))
	}
	return out.Result.Tools
}

// hostileDefault is a valid JSON value for a tool argument, by name and type, so that a
// call with one hostile argument gets past the others and reaches the storage.
func hostileDefault(s *server, name, typ string) (string, bool) {
	switch name {
	case "project_id":
		return strconvQuote(s.proj.ID), true
	case "language", "target_lang", "locale":
		return `"nb"`, true
	case "namespace_key":
		return `"common"`, true
	case "translation_key":
		return `"greeting"`, true
	case "translation_keys":
		return `["greeting"]`, true
	case "status":
		return `"approved"`, true
	case "flag":
		return `"do_not_translate"`, true
	case "format":
		return `"json"`, true
	case "strings":
		return `{"hostile":"Hostile"}`, true
	case "report_id":
		return "", false // a report that does not exist would answer not_found first
	}
	switch typ {
	case "string":
		return `"Hei"`, true
	case "integer", "number":
		return `0`, true
	case "boolean":
		return `false`, true
	case "array":
		return `["x"]`, true
	case "object":
		return `{"x":"y"}`, true
	}
	return "", false
}

// hostileType is the schema type of a property other than null.
func hostileType(raw json.RawMessage) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var many []string
	json.Unmarshal(raw, &many)
	for _, t := range many {
		if t != "null" {
			return t
		}
	}
	return ""
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostileArgs builds a tool's arguments object with every known argument at its default
// and name set to the raw JSON value (when name is not "").
func hostileArgs(s *server, tool hostileTool, name, value string) string {
	var names []string
	for n := range tool.InputSchema.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		v, ok := hostileDefault(s, n, hostileType(tool.InputSchema.Properties[n].Type))
		if n == name {
			v, ok = value, true
		}
		if ok {
			parts = append(parts, strconvQuote(n)+":"+v)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func hostileCall(tool, args string) string {
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":` + tool + `,"arguments":` + args + `}}`
}

// TestHostileMCP calls every tool of both MCP endpoints with each argument replaced by
// hostile strings and wrong types, and sends hostile JSON-RPC envelopes.
func TestHostileMCP(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialectWith(t, hostileLimits, func(t *testing.T, s *server) {
		seed(t, s)
		endpoints := []struct {
			name, path, auth string
			full             bool // every hostile value, or a few
		}{
			{"workspace", "/api/mcp", bearerAuth(s.wsToken), true},
			{"project", "/api/" + s.proj.ID + "/mcp", tokenAuth(s.rw), false},
		}
		for _, e := range endpoints {
			t.Run(e.name, func(t *testing.T) {
				post := func(t *testing.T, body string) {
					t.Helper()
					wantHostileMCP(t, s.call(t, "POST", e.path, e.auth, body))
				}
				// 64 KiB strings reach every argument; 1 MiB ones only the envelope, since each
				// costs a tenth of a second and 64 KiB already passes every length bound.
				var values []struct{ name, json string }
				for _, v := range append(hostileStrings(), hostileTypes()...) {
					if v.name != "1 MiB" {
						values = append(values, v)
					}
				}
				if !e.full {
					values = nil
					for _, v := range append(hostileStrings(), hostileTypes()...) {
						switch v.name {
						case "escaped NUL", "raw invalid UTF-8", "null", "1e400", "2^63", "10,000 nested objects":
							values = append(values, v)
						}
					}
				}
				for _, tool := range hostileListTools(t, s, e.path, e.auth) {
					name := strconvQuote(tool.Name)
					t.Run(tool.Name, func(t *testing.T) {
						t.Run("valid", func(t *testing.T) {
							post(t, hostileCall(name, hostileArgs(s, tool, "", "")))
						})
						var props []string
						for p := range tool.InputSchema.Properties {
							props = append(props, p)
						}
						sort.Strings(props)
						for _, p := range props {
							for _, v := range values {
								t.Run(p+" "+v.name, func(t *testing.T) {
									post(t, hostileCall(name, hostileArgs(s, tool, p, v.json)))
								})
							}
						}
						for _, v := range values[:3] {
							t.Run("unknown argument "+v.name, func(t *testing.T) {
								post(t, hostileCall(name, hostileArgs(s, tool, "hostile\u0000", v.json)))
							})
						}
						for _, v := range []struct{ name, json string }{
							{"arguments null", `null`},
							{"arguments array", `[]`},
							{"arguments string", `"a\u0000"`},
							{"arguments 1e400", `1e400`},
							{"arguments 10,000 nested objects", hostileDeepObject(10000)},
							{"arguments 10,000 nested arrays", hostileDeep(`[`, `]`, 10000)},
							{"arguments empty", `{}`},
						} {
							t.Run(v.name, func(t *testing.T) { post(t, hostileCall(name, v.json)) })
						}
					})
				}
				t.Run("envelope", func(t *testing.T) {
					for _, b := range hostileBodies() {
						t.Run("body "+b.name, func(t *testing.T) { post(t, b.body) })
					}
					for _, v := range values {
						for _, slot := range []string{
							`{"jsonrpc":"2.0","id":%s,"method":"tools/list"}`,
							`{"jsonrpc":%s,"id":1,"method":"tools/list"}`,
							`{"jsonrpc":"2.0","id":1,"method":%s}`,
							`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":%s}`,
							`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":%s}`,
							`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%s,"arguments":{}}}`,
							`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_projects","arguments":{},"_meta":%s}}`,
							`{"jsonrpc":"2.0","method":"notifications/initialized","params":%s}`,
						} {
							body := strings.Replace(slot, "%s", v.json, 1)
							t.Run(slot+" "+v.name, func(t *testing.T) { post(t, body) })
						}
					}
					for _, b := range []struct{ name, body string }{
						{"a 1 MiB method", `{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("m", 1<<20) + `"}`},
						{"a 1 MiB argument", hostileCall(`"update_translation"`, `{"value":"`+strings.Repeat("v", 1<<20)+`"}`)},
						{"tools/list with trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"tools/list"} x`},
						{"tools/list twice", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
						{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`},
						{"initialize with hostile client info", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"\u0000","capabilities":{"x":1e400},"clientInfo":{"name":"\u0000","version":9223372036854775808}}}`},
						{"unknown method with NUL", `{"jsonrpc":"2.0","id":1,"method":"tools/\u0000"}`},
						{"a response instead of a request", `{"jsonrpc":"2.0","id":1,"result":{}}`},
					} {
						t.Run(b.name, func(t *testing.T) { post(t, b.body) })
					}
				})
			})
		}
	})
}

// The value gate (issue 15): the same hostile values through every door that writes a
// translation or a source value, on both databases. Each door answers what the table says
// and stores nothing: the rows read back from the database are the rows before.

// gateValue is one hostile value as a JSON string literal (raw ones are invalid on
// purpose) and what REST answers for it.
type gateValue struct {
	name   string
	json   string
	status int
	code   string
}

// gateOverLong is 144,014 bytes, the size a model answer once stored.
var gateOverLong = strings.Repeat("x", 144014)

func gateValues() []gateValue {
	return []gateValue{
		{"NUL", `"a\u0000b"`, http.StatusUnprocessableEntity, model.CodeUnprocessable},
		{"raw invalid UTF-8", "\"a\xffb\"", http.StatusBadRequest, model.CodeInvalid},
		{"lone high surrogate", `"a\ud800b"`, http.StatusBadRequest, model.CodeInvalid},
		{"unpaired low surrogate", `"\udc00"`, http.StatusBadRequest, model.CodeInvalid},
		{"reversed surrogate pair", `"\ude00\ud83d"`, http.StatusBadRequest, model.CodeInvalid},
		{"over-long", `"` + gateOverLong + `"`, http.StatusUnprocessableEntity, model.CodeUnprocessable},
		{"script URL", `"javascript:alert(1)"`, http.StatusUnprocessableEntity, model.CodeInvalidTranslation},
		{"script URL as entities", `"&#106;avascript:alert(1)"`, http.StatusUnprocessableEntity, model.CodeInvalidTranslation},
	}
}

// gateRows is every translation row of the main project, read from the database.
func (s *server) gateRows(t *testing.T) map[string]string {
	t.Helper()
	var rows []model.ProjectTranslation
	err := s.db.View(sys(t), func(tx model.Tx) (err error) {
		rows, err = tx.ProjectTranslations(sys(t), s.proj.ID, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[r.Namespace+"/"+r.Key+"/"+r.Row.Language] = r.Row.Status + " " + r.Row.Value
	}
	return out
}

func (s *server) wantRows(t *testing.T, before map[string]string) {
	t.Helper()
	if after := s.gateRows(t); !jsonEqual(t, after, before) {
		t.Errorf("rows changed:\n got %v\nwant %v", truncated([]byte(fmt.Sprint(after))), truncated([]byte(fmt.Sprint(before))))
	}
}

// gateSeed gives the project a source and a translation the doors would change.
func gateSeed(t *testing.T, s *server) {
	s.sync(t, "en", "common", map[string]string{"greeting": "Hello", "cart": "Cart"})
	s.overwrite(t, "nb", "common", map[string]string{"greeting": "Hei"})
}

// gateDoor is one REST write with its body for value v and a body that gives one key twice.
type gateDoor struct {
	name, method, path, dup string
	body                    func(v string) string
}

func gateRESTDoors(s *server) []gateDoor {
	obj := func(v string) string { return `{"greeting":` + v + `}` }
	return []gateDoor{
		{"2 missing", "POST", s.missingPath("en", "common"), `{"fresh":"A","fresh":"B"}`,
			func(v string) string { return `{"fresh":` + v + `}` }},
		{"3 sync", "PUT", s.syncPath("en", "common"), `{"translations":{"greeting":"Hello","cart":"Cart"},"partial":true,"partial":false}`, obj},
		{"3 sync nested", "PUT", s.syncPath("en", "common"), `{"greeting":"Hello","cart":"Cart","cart":"Basket"}`,
			func(v string) string { return `{"greeting":"Hello","cart":` + v + `}` }},
		{"4 overwrite", "PUT", s.overwritePath("nb", "common"), `{"greeting":"Hei","greeting":"Hallo"}`, obj},
		{"7 page strings", "POST", s.pageStringsPath("common"), `{"source_strings":["A"],"source_strings":["B"]}`,
			func(v string) string { return `{"source_strings":[` + v + `]}` }},
	}
}

// TestHostileValueGateREST: endpoints 2, 3, 4 and 7.
func TestHostileValueGateREST(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialectWith(t, hostileLimits, func(t *testing.T, s *server) {
		gateSeed(t, s)
		before := s.gateRows(t)
		for _, door := range gateRESTDoors(s) {
			for _, v := range gateValues() {
				r := s.call(t, door.method, door.path, tokenAuth(s.rw), door.body(v.json))
				if r.status != v.status {
					t.Errorf("%s %s: status %d, want %d; %s", door.name, v.name, r.status, v.status, truncated(r.body))
				}
				r.wantError(t, v.code)
				s.wantRows(t, before)
			}
			r := s.call(t, door.method, door.path, tokenAuth(s.rw), door.dup)
			if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), "duplicate key") {
				t.Errorf("%s duplicate key: %d %s, want 400 naming the key", door.name, r.status, truncated(r.body))
			}
			r.wantError(t, model.CodeInvalid)
			s.wantRows(t, before)
		}
	})
}

// gateMCPCall calls a tool with raw arguments on a fresh session (the go-sdk client closes
// one that met an HTTP error); it returns the protocol error or the tool error.
func gateMCPCall(t *testing.T, s *server, name, args string) (protocolErr error, toolErr mcpToolError) {
	t.Helper()
	m := s.mcpProject(t, tokenAuth(s.rw))
	res, err := m.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		return err, mcpToolError{}
	}
	return nil, mcpWantError(t, name, res, "")
}

// TestHostileValueGateMCP: update_translation, register_source_strings and add_key through
// the go-sdk client. Strict JSON refusals of the arguments are tool errors like any other
// (invalid), except raw invalid UTF-8, which the body reader of every route refuses with
// 400 before JSON-RPC begins.
func TestHostileValueGateMCP(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialectWith(t, hostileLimits, func(t *testing.T, s *server) {
		gateSeed(t, s)
		before := s.gateRows(t)
		calls := []struct {
			name, dup string
			args      func(v string) string
		}{
			{"update_translation", `{"namespace_key":"common","translation_key":"greeting","language":"nb","value":"A","value":"B"}`,
				func(v string) string {
					return `{"namespace_key":"common","translation_key":"greeting","language":"nb","value":` + v + `}`
				}},
			{"register_source_strings", `{"namespace_key":"common","strings":{"fresh":"A","fresh":"B"}}`,
				func(v string) string { return `{"namespace_key":"common","strings":{"fresh":` + v + `}}` }},
			{"add_key", `{"namespace_key":"common","translation_key":"fresh","translation_key":"other","source_value":"A"}`,
				func(v string) string {
					return `{"namespace_key":"common","translation_key":"fresh","source_value":` + v + `}`
				}},
		}
		for _, tool := range calls {
			for _, v := range gateValues() {
				perr, terr := gateMCPCall(t, s, tool.name, tool.args(v.json))
				if v.name == "raw invalid UTF-8" {
					if perr == nil || !strings.Contains(perr.Error(), "Bad Request") {
						t.Errorf("%s %s: %v %+v, want 400", tool.name, v.name, perr, terr)
					}
				} else if perr != nil || terr.Error != v.code {
					t.Errorf("%s %s: protocol error %v, tool error %+v; want tool error %s", tool.name, v.name, perr, terr, v.code)
				}
				s.wantRows(t, before)
			}
			perr, terr := gateMCPCall(t, s, tool.name, tool.dup)
			if perr != nil || terr.Error != model.CodeInvalid || !strings.Contains(terr.Message, "duplicate key") {
				t.Errorf("%s duplicate key: %v %+v, want a tool error invalid naming the key", tool.name, perr, terr)
			}
			s.wantRows(t, before)
		}
	})
}

// gateAnswer answers every id of a call with the JSON literal v.
func gateAnswer(v string) aitest.Responder {
	return func(c aitest.Call) aitest.Reply {
		var parts []string
		for id := range c.Strings {
			parts = append(parts, strconvQuote(id)+":"+v)
		}
		return aitest.Reply{Content: `{"strings":{` + strings.Join(parts, ",") + `}}`}
	}
}

// gateDuplicateAnswer gives "strings" twice, each a valid answer for every id.
func gateDuplicateAnswer(c aitest.Call) aitest.Reply {
	var parts []string
	for id := range c.Strings {
		parts = append(parts, strconvQuote(id)+`:"NB A"`)
	}
	return aitest.Reply{Content: `{"strings":{` + strings.Join(parts, ",") + `},"strings":{` + strings.Join(parts, ",") + `}}`}
}

// TestHostileValueGateAI: model answers through endpoint 6 and ai_translate_keys. A refused
// answer is that string failed; nothing is stored.
func TestHostileValueGateAI(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	answers := []struct{ name, content string }{
		{"duplicate strings", ""},
	}
	for _, v := range gateValues() {
		if v.name == "raw invalid UTF-8" {
			continue // the completion envelope is JSON: the provider client reads it as U+FFFD
		}
		answers = append(answers, struct{ name, content string }{v.name, v.json})
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, a := range answers {
			t.Run(a.name, func(t *testing.T) {
				r := gateAnswer(a.content)
				if a.content == "" {
					r = gateDuplicateAnswer
				}
				s, model := aiServer(t, dialect, r, nil)
				before := s.gateRows(t)
				res := s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"plain"})
				res.wantStatus(t, http.StatusOK)
				var out retranslateOut
				res.decode(t, &out)
				wantKeys(t, "failed", out.Failed, []string{"plain"})
				if len(out.Retranslated) != 0 {
					t.Errorf("retranslated %v", out.Retranslated)
				}
				s.wantRows(t, before)
				if len(model.Calls()) == 0 {
					t.Fatal("the model was never called")
				}
				mcpOut := mcpOK[struct {
					Translated map[string]string `json:"translated"`
					Failed     []string          `json:"failed"`
				}](t, s.mcpProject(t, tokenAuth(s.rw)), "ai_translate_keys",
					map[string]any{"namespace_key": "ui", "translation_keys": []string{"plain"}, "target_lang": "nb"})
				if len(mcpOut.Translated) != 0 || !slices.Equal(mcpOut.Failed, []string{"plain"}) {
					t.Errorf("ai_translate_keys: translated %v failed %v", mcpOut.Translated, mcpOut.Failed)
				}
				s.wantRows(t, before)
			})
		}
	})
}

// TestHostileMCPEnvelopeStrict: outside a tool's arguments, a JSON-RPC message is read
// strictly before the go-sdk sees it: which of two methods or ids was meant is not
// guessed. The answer is 400 with a JSON-RPC Invalid Request, and nothing is written.
func TestHostileMCPEnvelopeStrict(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialectWith(t, hostileLimits, func(t *testing.T, s *server) {
		gateSeed(t, s)
		before := s.gateRows(t)
		write := `"params":{"name":"update_translation","arguments":{"namespace_key":"common","translation_key":"greeting","language":"nb","value":"Changed"}}`
		for _, c := range []struct{ body, want string }{
			{`{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call",` + write + `}`, `duplicate key \"method\"`},
			{`{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call",` + write + `}`, `duplicate key \"id\"`},
			{`{"jsonrpc":"2.0","id":"\ud800","method":"tools/call",` + write + `}`, `surrogate`},
			{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_translation","arguments":{},` +
				`"arguments":{"namespace_key":"common","translation_key":"greeting","language":"nb","value":"Changed"}}}`, `duplicate key \"arguments\" in /params`},
		} {
			r := s.call(t, "POST", "/api/"+s.proj.ID+"/mcp", tokenAuth(s.rw), c.body)
			if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), `"code":-32600`) || !strings.Contains(string(r.body), c.want) {
				t.Errorf("%s: %d %s, want 400 Invalid Request naming %s", c.body, r.status, truncated(r.body), c.want)
			}
			s.wantRows(t, before)
		}
	})
}
