package rest_test

// The JSON-RPC answer per failure kind (issue 18): what an MCP client sees when a tool is
// unknown, its arguments are bad, the operation refuses, the caller may not, or the message
// is not JSON-RPC. Each tool-level row runs twice: through the go-sdk client (which hides
// the wire) and as a raw POST (which shows the code the client wraps). The codes are the
// contract: an SDK upgrade that moves one fails here.

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC 2.0 error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
)

// mcpFailure is one tools/call that must fail: with a JSON-RPC error rpcCode, or with a
// tool error (isError) whose text carries toolCode.
type mcpFailure struct {
	name      string
	workspace bool   // the workspace endpoint with the workspace token; else the project's
	auth      string // project endpoint's token: "rw" (default), "ro" or "pat"
	readOnly  bool   // send X-Service-Read-Only
	tool      string
	args      map[string]any
	rpcCode   int
	toolCode  string
}

func mcpFailures() []mcpFailure {
	update := func(extra map[string]any) map[string]any {
		args := map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "sv", "value": "Hej"}
		for k, v := range extra {
			if v == nil {
				delete(args, k)
			} else {
				args[k] = v
			}
		}
		return args
	}
	return []mcpFailure{
		// Unknown tool: the protocol's error, since there is no tool to answer for.
		{name: "unknown tool", tool: "delete_everything", rpcCode: rpcInvalidParams},
		{name: "unknown tool, workspace endpoint", workspace: true, tool: "delete_everything", rpcCode: rpcInvalidParams},
		// Auth: read-only callers are not offered write tools, so a write tool is unknown.
		{name: "write tool, read-only key", auth: "ro", tool: "update_translation", args: update(nil), rpcCode: rpcInvalidParams},
		{name: "write tool, read-only header", readOnly: true, tool: "update_translation", args: update(nil), rpcCode: rpcInvalidParams},
		// Bad arguments: a tool error the agent can read and correct.
		{name: "argument of the wrong type", tool: "update_translation", args: update(map[string]any{"value": 5}), toolCode: "invalid"},
		{name: "unknown argument", tool: "update_translation", args: update(map[string]any{"bogus": true}), toolCode: "invalid"},
		{name: "unknown argument, no other", tool: "get_project_status", args: map[string]any{"bogus": true}, toolCode: "invalid"},
		{name: "missing required argument", tool: "update_translation", args: update(map[string]any{"value": nil}), toolCode: "invalid"},
		{name: "nested argument of the wrong type", tool: "register_source_strings",
			args: map[string]any{"namespace_key": "common", "strings": map[string]any{"a": 1}}, toolCode: "invalid"},
		{name: "project_id on the project endpoint", tool: "get_project_status", args: map[string]any{"project_id": "{project}"}, toolCode: "invalid"},
		{name: "project_id missing on the workspace endpoint", workspace: true, tool: "get_project_status", toolCode: "invalid"},
		{name: "project_id empty on the workspace endpoint", workspace: true, tool: "get_project_status", args: map[string]any{"project_id": ""}, toolCode: "invalid"},
		{name: "project_id not reachable by the workspace token", workspace: true, tool: "get_project_status", args: map[string]any{"project_id": "{other}"}, toolCode: "unauthorized"},
		// The operation's refusals: each code category as a tool error.
		{name: "not_found", tool: "get_translation", args: map[string]any{"namespace_key": "common", "translation_key": "nope"}, toolCode: "not_found"},
		{name: "invalid", tool: "enable_language", args: map[string]any{"language": "en"}, toolCode: "invalid"},
		{name: "conflict", tool: "add_key", args: map[string]any{"namespace_key": "common", "translation_key": "greeting", "source_value": "Hi"}, toolCode: "conflict"},
		{name: "invalid_translation", tool: "update_translation", args: update(map[string]any{"value": "javascript:alert(1)"}), toolCode: "invalid_translation"},
		{name: "not_configured", tool: "ai_translate_keys",
			args: map[string]any{"namespace_key": "common", "translation_keys": []string{"farewell"}, "target_lang": "nb"}, toolCode: "not_configured"},
		{name: "over a cap the schema states", tool: "ai_translate_keys",
			args: map[string]any{"namespace_key": "common", "translation_keys": []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}, "target_lang": "nb"}, toolCode: "invalid"},
	}
}

// endpoint gives the path and Authorization of f's caller.
func (f mcpFailure) endpoint(s *server) (path, auth string) {
	if f.workspace {
		return "/api/mcp", bearerAuth(s.wsToken)
	}
	switch f.auth {
	case "ro":
		return "/api/" + s.proj.ID + "/mcp", tokenAuth(s.ro)
	case "pat":
		return "/api/" + s.proj.ID + "/mcp", bearerAuth(s.pat)
	}
	return "/api/" + s.proj.ID + "/mcp", tokenAuth(s.rw)
}

func (f mcpFailure) header() map[string]string {
	if f.readOnly {
		return map[string]string{"X-Service-Read-Only": "1"}
	}
	return nil
}

// expandArgs replaces fixture placeholders in string arguments.
func (f mcpFailure) expandArgs(s *server) map[string]any {
	if f.args == nil {
		return map[string]any{}
	}
	out := make(map[string]any, len(f.args))
	for k, v := range f.args {
		if str, ok := v.(string); ok {
			v = s.expand(str)
		}
		out[k] = v
	}
	return out
}

func TestMCPConformanceToolFailures(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		for _, f := range mcpFailures() {
			path, auth := f.endpoint(s)
			args := f.expandArgs(s)
			t.Run("raw/"+f.name, func(t *testing.T) {
				r := s.mcpPost(t, path, auth, f.header(), mcpRequest(7, "tools/call", map[string]any{"name": f.tool, "arguments": args}))
				if r.status != http.StatusOK {
					t.Fatalf("status %d, want 200; body %s", r.status, truncated(r.body))
				}
				if string(r.ID) != "7" {
					t.Errorf("id %s, want 7", r.ID)
				}
				if f.rpcCode != 0 {
					if r.Error == nil || r.Error.Code != f.rpcCode {
						t.Fatalf("answer %s, want JSON-RPC error %d", truncated(r.body), f.rpcCode)
					}
					return
				}
				var res mcpCallResult
				r.result(t, &res)
				if !res.IsError || len(res.Content) == 0 {
					t.Fatalf("result %s, want isError with text", truncated(r.Result))
				}
				if len(res.StructuredContent) > 0 {
					t.Errorf("an error result with structuredContent: %s", res.StructuredContent)
				}
				mcpWantToolErrorText(t, res.Content[0].Text, f.toolCode)
			})
			t.Run("client/"+f.name, func(t *testing.T) {
				m := s.mcpConnect(t, path, auth, mcpOpts{header: f.header()})
				res, err := m.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: f.tool, Arguments: args})
				if f.rpcCode != 0 {
					var werr *jsonrpc.Error
					if !errors.As(err, &werr) || werr.Code != int64(f.rpcCode) {
						t.Fatalf("error %v (%T), want a *jsonrpc.Error with code %d", err, err, f.rpcCode)
					}
					return
				}
				if err != nil {
					t.Fatalf("protocol error %v, want a tool error %s", err, f.toolCode)
				}
				mcpWantError(t, f.tool, res, f.toolCode)
			})
		}
	})
}

// mcpWantToolErrorText checks the text of an error result: the spec's error shape with code.
func mcpWantToolErrorText(t *testing.T, text, code string) {
	t.Helper()
	var e mcpRateLimited
	if err := jsonUnmarshalStrict([]byte(text), &e); err != nil || e.Error != code || e.Message == "" {
		t.Errorf("error text %q, want {error: %q, message}", text, code)
	}
}

// TestMCPConformanceRateLimited: a spent budget is a tool error carrying retry_after, through
// both doors.
func TestMCPConformanceRateLimited(t *testing.T) {
	t.Parallel()
	frozen := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, dialect := range storagetest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, dialect, &tools.Options{Budgets: map[string]int{tools.ReadBudget.Name: 1}, Now: func() time.Time { return frozen }})
			path := "/api/" + s.proj.ID + "/mcp"
			if r := s.mcpPost(t, path, tokenAuth(s.ro), nil, mcpRequest(1, "tools/call", map[string]any{"name": "list_projects"})); r.Error != nil {
				t.Fatalf("first read: %s", truncated(r.body))
			}
			r := s.mcpPost(t, path, tokenAuth(s.ro), nil, mcpRequest(2, "tools/call", map[string]any{"name": "list_projects"}))
			var res mcpCallResult
			r.result(t, &res)
			if !res.IsError || len(res.Content) == 0 {
				t.Fatalf("result %s, want isError", truncated(r.Result))
			}
			mcpWantToolErrorText(t, res.Content[0].Text, "rate_limited")
			m := s.mcpProject(t, tokenAuth(s.ro))
			mcpWantRateLimited(t, m, "list_projects", nil)
		})
	}
}

// TestMCPConformanceMessages: refusals before any tool runs. Authentication is the HTTP
// edge's (401 with the spec's error body, not JSON-RPC); a message that is not one JSON-RPC
// request is answered with the JSON-RPC error of its kind.
func TestMCPConformanceMessages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		workspace  bool
		auth       string // "" sends none; else a placeholder of server.expand
		body       string
		wantStatus int
		rpcCode    int    // 0: no JSON-RPC error expected
		httpError  string // the spec's error body's code, for refusals at the HTTP edge
	}{
		{name: "no token", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 401, httpError: "unauthorized"},
		{name: "no token, workspace endpoint", workspace: true, body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 401, httpError: "unauthorized"},
		{name: "a bad token", auth: "Bearer nope", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 401, httpError: "unauthorized"},
		{name: "a project key on the workspace endpoint", workspace: true, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 401, httpError: "unauthorized"},
		{name: "another project's key", auth: "Token token={other_rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 401, httpError: "unauthorized"},
		{name: "not JSON", auth: "Token token={rw}", body: `{"jsonrpc":`, wantStatus: 400, rpcCode: rpcParseError},
		{name: "a batch", auth: "Token token={rw}", body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "not a request object", auth: "Token token={rw}", body: `"tools/list"`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "jsonrpc 1.0", auth: "Token token={rw}", body: `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "method not a string", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":5}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "a duplicate member", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "unknown method", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/destroy"}`, wantStatus: 400, rpcCode: rpcMethodNotFound},
		{name: "unknown method with params", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/destroy","params":{}}`, wantStatus: 400, rpcCode: rpcMethodNotFound},
		{name: "unknown notification", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","method":"notifications/bogus"}`, wantStatus: 400, rpcCode: rpcMethodNotFound},
		{name: "a call without id", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","method":"tools/list"}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "a notification with an id", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "no method", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "an id of the wrong type", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "a null id", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, wantStatus: 400, rpcCode: rpcInvalidRequest},
		{name: "initialize without params", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, wantStatus: 400, rpcCode: rpcInvalidParams},
		{name: "params a string", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}`, wantStatus: 200, rpcCode: rpcInvalidParams},
		{name: "tools/call without params", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, wantStatus: 400, rpcCode: rpcInvalidParams},
		{name: "tools/call with null params", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`, wantStatus: 400, rpcCode: rpcInvalidParams},
		{name: "params of the wrong type", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`, wantStatus: 200, rpcCode: rpcInvalidParams},
		{name: "tool name missing", auth: "Token token={rw}", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`, wantStatus: 200, rpcCode: rpcInvalidParams},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				path := "/api/" + s.proj.ID + "/mcp"
				if tc.workspace {
					path = "/api/mcp"
				}
				r := s.mcpPost(t, path, s.expand(tc.auth), nil, tc.body)
				if r.status != tc.wantStatus {
					t.Fatalf("status %d, want %d; body %s", r.status, tc.wantStatus, truncated(r.body))
				}
				if tc.httpError != "" {
					var e mcpToolError
					if err := jsonUnmarshalStrict(r.body, &e); err != nil || e.Error != tc.httpError {
						t.Errorf("body %s, want {error: %q}", truncated(r.body), tc.httpError)
					}
					return
				}
				if r.Error == nil || r.Error.Code != tc.rpcCode {
					t.Fatalf("answer %s, want JSON-RPC error %d", truncated(r.body), tc.rpcCode)
				}
				// The id is echoed once the request is known to be one; a request found
				// invalid may have none to echo (null).
				var req struct{ ID json.RawMessage }
				json.Unmarshal([]byte(tc.body), &req)
				echoed := len(req.ID) > 0 && string(r.ID) == string(req.ID)
				if mustEcho := tc.rpcCode == rpcMethodNotFound || tc.rpcCode == rpcInvalidParams; mustEcho && len(req.ID) > 0 && !echoed ||
					!echoed && string(r.ID) != "null" {
					t.Errorf("id %s for a request with id %s", r.ID, req.ID)
				}
				if r.Error.Message == "" {
					t.Errorf("JSON-RPC error %d without a message", r.Error.Code)
				}
				if r.JSONRPC != "2.0" || len(r.Result) > 0 {
					t.Errorf("answer %s, want a JSON-RPC 2.0 error alone", truncated(r.body))
				}
			})
		}
	})
}

// jsonUnmarshalStrict decodes one JSON value into v, refusing members v lacks.
func jsonUnmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
