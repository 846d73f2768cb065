package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMCPPlainHTTP drives both endpoints as the spec's plain clients do: one JSON-RPC
// request per POST, no initialize, Accept: application/json only.
func TestMCPPlainHTTP(t *testing.T) {
	t.Parallel()
	type check func(t *testing.T, s *server, r *mcpRPC)
	toolNames := func(want []string) check {
		return func(t *testing.T, _ *server, r *mcpRPC) {
			t.Helper()
			var list struct {
				Tools []struct {
					Name        string          `json:"name"`
					InputSchema json.RawMessage `json:"inputSchema"`
				} `json:"tools"`
			}
			r.result(t, &list)
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if len(tool.InputSchema) == 0 {
					t.Errorf("%s has no inputSchema", tool.Name)
				}
			}
			wantKeys(t, "tools", names, want)
		}
	}
	toolResult := func(wantError string, inspect func(t *testing.T, s *server, structured json.RawMessage)) check {
		return func(t *testing.T, s *server, r *mcpRPC) {
			t.Helper()
			var res mcpCallResult
			r.result(t, &res)
			if len(res.Content) == 0 || res.Content[0].Type != "text" {
				t.Fatalf("result has no text content: %s", truncated(r.Result))
			}
			if wantError != "" {
				if !res.IsError {
					t.Fatalf("isError false, want a tool error %s: %s", wantError, truncated(r.Result))
				}
				var e mcpToolError
				if err := json.Unmarshal([]byte(res.Content[0].Text), &e); err != nil || e.Error != wantError {
					t.Errorf("error text %q, want code %s", res.Content[0].Text, wantError)
				}
				return
			}
			if res.IsError {
				t.Fatalf("tool error: %s", res.Content[0].Text)
			}
			if inspect != nil {
				inspect(t, s, res.StructuredContent)
			}
		}
	}
	rpcError := func(codes ...int) check {
		return func(t *testing.T, _ *server, r *mcpRPC) {
			t.Helper()
			if r.Error == nil {
				t.Fatalf("no JSON-RPC error; body %s", truncated(r.body))
			}
			if len(codes) > 0 && !mcpContainsInt(codes, r.Error.Code) {
				t.Errorf("JSON-RPC error code %d (%s), want one of %v", r.Error.Code, r.Error.Message, codes)
			}
			if len(r.Result) > 0 {
				t.Errorf("an error answer with a result: %s", truncated(r.body))
			}
		}
	}
	isProject := func(t *testing.T, s *server, structured json.RawMessage) {
		t.Helper()
		var st mcpStatus
		if err := json.Unmarshal(structured, &st); err != nil || st.ProjectID != s.proj.ID {
			t.Errorf("structuredContent %s, want the project's status", truncated(structured))
		}
	}
	const project = "/api/{project}/mcp"
	const workspace = "/api/mcp"

	cases := []struct {
		name       string
		method     string // default POST
		path       string
		auth       string
		header     map[string]string
		body       string
		wantStatus int // always checked
		check      check
	}{
		{name: "tools list without initialize, project endpoint", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 200, check: toolNames(mcpAllTools)},
		{name: "tools list with empty params", path: project, auth: "Bearer {pat}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, wantStatus: 200, check: toolNames(mcpAllTools)},
		{name: "tools list, workspace endpoint", path: workspace, auth: "Bearer {ws}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 200, check: toolNames(mcpAllTools)},
		{name: "tools list, read-only key", path: project, auth: "Token token={ro}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 200, check: toolNames(mcpReadTools)},
		{name: "tools list, X-Service-Read-Only", path: project, auth: "Token token={rw}", header: map[string]string{"X-Service-Read-Only": "1"},
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 200, check: toolNames(mcpReadTools)},
		{name: "tools call without initialize", path: project, auth: "Token token={ro}",
			body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_project_status","arguments":{}}}`, wantStatus: 200,
			check: toolResult("", isProject)},
		{name: "tools call without arguments", path: project, auth: "Token token={ro}",
			body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_project_status"}}`, wantStatus: 200,
			check: toolResult("", isProject)},
		{name: "tools call, workspace endpoint", path: workspace, auth: "Bearer {ws}",
			body: `{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"get_project_status","arguments":{"project_id":"{project}"}}}`, wantStatus: 200,
			check: func(t *testing.T, s *server, r *mcpRPC) {
				toolResult("", isProject)(t, s, r)
				if string(r.ID) != `"abc"` || r.JSONRPC != "2.0" {
					t.Errorf("jsonrpc %q id %s, want 2.0 and \"abc\"", r.JSONRPC, r.ID)
				}
			}},
		{name: "a write tool", path: project, auth: "Bearer {pat}",
			body:       `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"update_translation","arguments":{"namespace_key":"common","translation_key":"greeting","language":"sv","value":"Hej"}}}`,
			wantStatus: 200, check: toolResult("", func(t *testing.T, s *server, _ json.RawMessage) {
				t.Helper()
				if got := s.flat(t, "sv", "common"); got["greeting"] != "Hej" {
					t.Errorf("endpoint 1 in sv: %v", got)
				}
			})},
		{name: "wrong argument types are a tool error, not a crash", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_translation","arguments":{"value":5}}}`, wantStatus: 200,
			check: toolResult("invalid", nil)},
		{name: "an unknown argument is a tool error", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project_status","arguments":{"bogus":true}}}`, wantStatus: 200,
			check: toolResult("invalid", nil)},
		{name: "project_id on the project endpoint is a tool error", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project_status","arguments":{"project_id":"{sibling}"}}}`, wantStatus: 200,
			check: toolResult("invalid", nil)},
		{name: "a domain error is a tool error", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_translation","arguments":{"namespace_key":"common","translation_key":"nope"}}}`, wantStatus: 200,
			check: toolResult("not_found", nil)},
		{name: "a write tool with a read-only key", path: project, auth: "Token token={ro}",
			body:       `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_translation","arguments":{"namespace_key":"common","translation_key":"greeting","language":"nb","value":"X"}}}`,
			wantStatus: 200, check: func(t *testing.T, s *server, r *mcpRPC) {
				t.Helper()
				// A read-only caller is not offered the write tools: the tool is unknown.
				rpcError(-32602)(t, s, r)
				s.wantFlat(t, "nb", "common", map[string]string{"greeting": "Hei"})
			}},
		{name: "an unknown tool is a JSON-RPC error", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_everything","arguments":{}}}`, wantStatus: 200,
			check: rpcError(-32602)},
		{name: "an unknown method is a JSON-RPC error", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/destroy"}`, wantStatus: 400, check: rpcError(-32601)},
		{name: "tools call without params is a JSON-RPC error", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, wantStatus: 400, check: rpcError(-32602)},
		{name: "malformed JSON", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"`, wantStatus: 400, check: rpcError(-32700)},
		{name: "malformed JSON, workspace endpoint", path: workspace, auth: "Bearer {ws}",
			body: `not json`, wantStatus: 400, check: rpcError(-32700)},
		{name: "a batch is refused", path: project, auth: "Token token={rw}",
			body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, wantStatus: 400, check: rpcError(-32600)},
		{name: "not JSON-RPC 2.0", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, wantStatus: 400, check: rpcError(-32600)},
		{name: "params of the wrong type", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`, wantStatus: 200, check: rpcError(-32602)},
		{name: "arguments of the wrong type", path: project, auth: "Token token={rw}",
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project_status","arguments":"x"}}`, wantStatus: 200,
			check: toolResult("invalid", nil)},
		{name: "initialize still works, statelessly", path: project, auth: "Token token={rw}",
			body:       `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`,
			wantStatus: 200, check: func(t *testing.T, _ *server, r *mcpRPC) {
				t.Helper()
				var res struct {
					ProtocolVersion string `json:"protocolVersion"`
					ServerInfo      struct {
						Name string `json:"name"`
					} `json:"serverInfo"`
					Capabilities map[string]json.RawMessage `json:"capabilities"`
				}
				r.result(t, &res)
				if res.ProtocolVersion == "" || res.ServerInfo.Name != "lokal" || res.Capabilities["tools"] == nil {
					t.Errorf("initialize result %s", truncated(r.Result))
				}
				if sid := r.header.Get("Mcp-Session-Id"); sid != "" {
					t.Errorf("a stateless server issued session %q", sid)
				}
			}},
		{name: "ping", path: workspace, auth: "Bearer {ws}", body: `{"jsonrpc":"2.0","id":9,"method":"ping"}`, wantStatus: 200,
			check: func(t *testing.T, _ *server, r *mcpRPC) {
				t.Helper()
				// The spec of ping: an empty result, under the request's id.
				var res map[string]any
				r.result(t, &res)
				if res == nil || len(res) != 0 || string(r.ID) != "9" || r.JSONRPC != "2.0" {
					t.Errorf("ping answered jsonrpc %q id %s result %s, want 2.0, 9 and {}", r.JSONRPC, r.ID, r.Result)
				}
			}},
		{name: "GET, project endpoint", method: "GET", path: project, auth: "Token token={rw}", wantStatus: 405},
		{name: "GET, workspace endpoint", method: "GET", path: workspace, auth: "Bearer {ws}", wantStatus: 405},
		{name: "GET without a token", method: "GET", path: workspace, wantStatus: 405},
		{name: "DELETE, project endpoint", method: "DELETE", path: project, auth: "Token token={rw}", wantStatus: 405},
		{name: "DELETE, workspace endpoint", method: "DELETE", path: workspace, auth: "Bearer {ws}", wantStatus: 405},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				path, auth := s.expand(tc.path), s.expand(tc.auth)
				if tc.method != "" && tc.method != "POST" {
					h := map[string]string{"Accept": "application/json, text/event-stream"}
					r := s.do(t, request{Method: tc.method, Path: path, Auth: auth, Header: h})
					if r.status != tc.wantStatus {
						t.Fatalf("%s: status %d, want %d; body %s", tc.method, r.status, tc.wantStatus, truncated(r.body))
					}
					if allow := r.header.Get("Allow"); !strings.Contains(allow, "POST") {
						t.Errorf("Allow %q, want POST", allow)
					}
					return
				}
				r := s.mcpPost(t, path, auth, tc.header, s.expand(tc.body))
				if r.status != tc.wantStatus {
					t.Fatalf("status %d, want %d; body %s", r.status, tc.wantStatus, truncated(r.body))
				}
				if r.status >= 500 {
					t.Fatalf("status %d: %s", r.status, truncated(r.body))
				}
				if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("Content-Type %q, want application/json", ct)
				}
				if tc.check != nil {
					tc.check(t, s, r)
				}
			})
		}
		t.Run("a notification is taken without an answer", func(t *testing.T) {
			r := s.do(t, request{Method: "POST", Path: "/api/" + s.proj.ID + "/mcp", Auth: tokenAuth(s.rw),
				Header: map[string]string{"Accept": "application/json"}, Body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`})
			if r.status != http.StatusAccepted || len(r.body) != 0 {
				t.Errorf("status %d, body %q; want 202 and no body", r.status, truncated(r.body))
			}
		})
	})
}

func mcpContainsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
