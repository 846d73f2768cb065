package rest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"
)

// mcpSpecArgs are the spec's arguments of each tool (project_id aside): required, then
// optional. get_checkup_report and get_translations also take offset, which pages their
// findings and files as search_translations pages rows.
var mcpSpecArgs = map[string][2][]string{
	"list_projects":           {nil, nil},
	"get_project_status":      {nil, nil},
	"get_embed_snippet":       {nil, nil},
	"get_translations":        {{"language"}, {"format", "namespace_key", "offset", "csv_cells"}},
	"get_translation":         {{"namespace_key", "translation_key"}, nil},
	"search_translations":     {nil, {"key_contains", "value_contains", "language", "status", "offset"}},
	"list_terminology":        {nil, {"locale"}},
	"get_checkup_report":      {nil, {"report_id", "offset"}},
	"enable_language":         {{"language"}, nil},
	"register_source_strings": {{"namespace_key", "strings"}, nil},
	"update_translation":      {{"namespace_key", "translation_key", "language", "value"}, {"status"}},
	"set_translation_status":  {{"namespace_key", "translation_key", "language", "status"}, nil},
	"add_key":                 {{"namespace_key", "translation_key", "source_value"}, nil},
	"add_comment":             {{"namespace_key", "translation_key", "language", "body"}, nil},
	"flag_translation":        {{"namespace_key", "translation_key", "language", "flag", "value"}, nil},
	"add_glossary_term":       {{"source_term", "target_term"}, {"locale"}},
	"import_translations":     {{"namespace_key", "language", "format", "content"}, {"dry_run", "status", "preserve_source_values", "csv_cells"}},
	"ai_translate_keys":       {{"namespace_key", "translation_keys", "target_lang"}, nil},
}

// TestMCPToolSets checks which tools each caller is offered, and their input schemas: the
// spec's arguments, project_id required on the workspace endpoint (for every tool acting on
// a project) and absent on the project endpoint.
func TestMCPToolSets(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		workspace bool              // the workspace endpoint, else the main project's
		auth      string            // placeholders of expand
		header    map[string]string // extra request headers
		protocol  string            // "" = initialize handshake, "latest" = the go-sdk default
		want      []string
	}{
		{name: "project endpoint, read/write key", auth: "Token token={rw}", want: mcpAllTools},
		{name: "project endpoint, read/write key, latest protocol", auth: "Token token={rw}", protocol: "latest", want: mcpAllTools},
		{name: "project endpoint, personal token", auth: "Bearer {pat}", want: mcpAllTools},
		{name: "project endpoint, workspace token", auth: "Bearer {ws}", want: mcpAllTools},
		{name: "project endpoint, bare key header", auth: "{rw}", want: mcpAllTools},
		{name: "project endpoint, read-only key", auth: "Token token={ro}", want: mcpReadTools},
		{name: "project endpoint, read-only key, latest protocol", auth: "Token token={ro}", protocol: "latest", want: mcpReadTools},
		{name: "project endpoint, read/write key with X-Service-Read-Only", auth: "Token token={rw}",
			header: map[string]string{"X-Service-Read-Only": "1"}, want: mcpReadTools},
		{name: "project endpoint, X-Service-Read-Only: false still means read-only", auth: "Token token={rw}",
			header: map[string]string{"X-Service-Read-Only": "false"}, want: mcpReadTools},
		{name: "project endpoint, personal token with X-Service-Read-Only", auth: "Bearer {pat}",
			header: map[string]string{"X-Service-Read-Only": "yes"}, want: mcpReadTools},
		{name: "workspace endpoint, workspace token", workspace: true, auth: "Bearer {ws}", want: mcpAllTools},
		{name: "workspace endpoint, workspace token, latest protocol", workspace: true, auth: "Bearer {ws}", protocol: "latest", want: mcpAllTools},
		{name: "workspace endpoint, workspace token with X-Service-Read-Only", workspace: true, auth: "Bearer {ws}",
			header: map[string]string{"X-Service-Read-Only": "true"}, want: mcpReadTools},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				path := "/api/" + s.proj.ID + "/mcp"
				if tc.workspace {
					path = "/api/mcp"
				}
				m := s.mcpConnect(t, path, s.expand(tc.auth), mcpOpts{header: tc.header, protocol: tc.protocol})
				got := m.tools(t)
				if names := mcpNames(got); !slices.Equal(names, mcpSorted(tc.want)) {
					t.Fatalf("tools offered:\n got %v\nwant %v", names, mcpSorted(tc.want))
				}
				for name, tool := range got {
					read := slices.Contains(mcpReadTools, name)
					if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != read {
						t.Errorf("%s: readOnlyHint is not %v: %+v", name, read, tool.Annotations)
					}
					if tool.Description == "" {
						t.Errorf("%s has no description", name)
					}
					if tool.OutputSchema == nil {
						t.Errorf("%s has no output schema", name)
					}
					sc := mcpInputSchema(t, tool)
					if sc.Type != "object" {
						t.Errorf("%s: input schema type %q, want object", name, sc.Type)
					}
					spec := mcpSpecArgs[name]
					wantProps := append(append([]string{}, spec[0]...), spec[1]...)
					wantRequired := append([]string{}, spec[0]...)
					if tc.workspace {
						wantProps = append(wantProps, "project_id")
						if name != "list_projects" {
							wantRequired = append(wantRequired, "project_id")
						}
					}
					props := make([]string, 0, len(sc.Properties))
					for p := range sc.Properties {
						props = append(props, p)
					}
					if !sameKeys(props, wantProps) {
						t.Errorf("%s: input properties %v, want %v", name, mcpSorted(props), mcpSorted(wantProps))
					}
					if !sameKeys(sc.Required, wantRequired) {
						t.Errorf("%s: required %v, want %v", name, mcpSorted(sc.Required), mcpSorted(wantRequired))
					}
				}
			})
		}
	})
}

// TestMCPReadOnlyRefusesWrites calls write tools on the read-only variants anyway: the call
// fails (a tool error or a JSON-RPC error: the tool is not offered) and nothing changes.
func TestMCPReadOnlyRefusesWrites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		workspace bool
		auth      string
		header    map[string]string
	}{
		{name: "read-only key", auth: "Token token={ro}"},
		{name: "read/write key with X-Service-Read-Only", auth: "Token token={rw}", header: map[string]string{"X-Service-Read-Only": "1"}},
		{name: "personal token with X-Service-Read-Only", auth: "Bearer {pat}", header: map[string]string{"X-Service-Read-Only": ""}},
		{name: "workspace token with X-Service-Read-Only", workspace: true, auth: "Bearer {ws}", header: map[string]string{"X-Service-Read-Only": "1"}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		s.mcpSeed(t, "common", map[string]string{"greeting": "Hello"}, map[string]map[string]string{"nb": {"greeting": "Hei"}})
		writes := []struct {
			tool string
			args map[string]any
		}{
			{"update_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "value": "Hallo", "status": "approved"}},
			{"register_source_strings", map[string]any{"namespace_key": "common", "strings": map[string]string{"new.key": "New"}}},
			{"add_key", map[string]any{"namespace_key": "common", "translation_key": "added", "source_value": "Added"}},
			{"enable_language", map[string]any{"language": "de"}},
			{"flag_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "flag": "language_locked", "value": true}},
			{"set_translation_status", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "status": "needs_review"}},
			{"add_comment", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "body": "hi"}},
			{"add_glossary_term", map[string]any{"source_term": "lokal", "target_term": "lokal"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				path := "/api/" + s.proj.ID + "/mcp"
				if tc.workspace {
					path = "/api/mcp"
				}
				m := s.mcpConnect(t, path, s.expand(tc.auth), mcpOpts{header: tc.header})
				for _, w := range writes {
					args := map[string]any{}
					for k, v := range w.args {
						args[k] = v
					}
					if tc.workspace {
						args["project_id"] = s.proj.ID
					}
					res, err := m.cs.CallTool(t.Context(), mcpCallParams(w.tool, args))
					if err == nil && !res.IsError {
						t.Errorf("%s succeeded on a read-only variant: %s", w.tool, mcpText(res))
					}
				}
				s.wantFlat(t, "nb", "common", map[string]string{"greeting": "Hei"})
				s.wantFlat(t, "en", "common", map[string]string{"greeting": "Hello"})
				rw := s.mcpProject(t, tokenAuth(s.rw))
				k := rw.getKey(t, "common", "greeting")
				if nb, _ := k.in("nb"); nb.Value != "Hei" || nb.Status != "approved" || nb.LanguageLocked || len(nb.Comments) != 0 {
					t.Errorf("nb row changed: %+v", nb)
				}
				st := rw.status(t)
				if slices.Contains(st.EnabledLanguages, "de") {
					t.Errorf("de was enabled: %v", st.EnabledLanguages)
				}
				if terms := mcpOK[mcpTerminology](t, rw, "list_terminology", nil); len(terms.Glossary) != 0 {
					t.Errorf("a glossary term was added: %+v", terms.Glossary)
				}
			})
		}
	})
}

// TestMCPEndpointAuth checks who may open which endpoint, with plain POSTs of tools/list
// (the HTTP status) and with the go-sdk client (Connect fails).
func TestMCPEndpointAuth(t *testing.T) {
	t.Parallel()
	unknown := uuid.NewString()
	cases := []struct {
		name       string
		path       string
		auth       string
		wantStatus int
	}{
		{name: "workspace endpoint, workspace token", path: "/api/mcp", auth: "Bearer {ws}", wantStatus: 200},
		{name: "workspace endpoint, other workspace's token", path: "/api/mcp", auth: "Bearer {other_ws}", wantStatus: 200},
		{name: "workspace endpoint, read/write key", path: "/api/mcp", auth: "Token token={rw}", wantStatus: 401},
		{name: "workspace endpoint, read-only key", path: "/api/mcp", auth: "Token token={ro}", wantStatus: 401},
		{name: "workspace endpoint, project personal token", path: "/api/mcp", auth: "Bearer {pat}", wantStatus: 401},
		{name: "workspace endpoint, no token", path: "/api/mcp", auth: "", wantStatus: 401},
		{name: "workspace endpoint, unknown token", path: "/api/mcp", auth: "Bearer pat_ws_000000000000000000000000", wantStatus: 401},
		{name: "project endpoint, read/write key", path: "/api/{project}/mcp", auth: "Token token={rw}", wantStatus: 200},
		{name: "project endpoint, read-only key", path: "/api/{project}/mcp", auth: "Token token={ro}", wantStatus: 200},
		{name: "project endpoint, personal token", path: "/api/{project}/mcp", auth: "Bearer {pat}", wantStatus: 200},
		{name: "project endpoint, workspace token", path: "/api/{project}/mcp", auth: "Bearer {ws}", wantStatus: 200},
		{name: "project endpoint, another project's key", path: "/api/{project}/mcp", auth: "Token token={other_rw}", wantStatus: 401},
		{name: "project endpoint, another project's read-only key", path: "/api/{project}/mcp", auth: "Token token={other_ro}", wantStatus: 401},
		{name: "project endpoint, another workspace's token", path: "/api/{project}/mcp", auth: "Bearer {other_ws}", wantStatus: 401},
		{name: "sibling project endpoint, this project's key", path: "/api/{sibling}/mcp", auth: "Token token={rw}", wantStatus: 401},
		{name: "sibling project endpoint, this project's personal token", path: "/api/{sibling}/mcp", auth: "Bearer {pat}", wantStatus: 401},
		{name: "sibling project endpoint, workspace token", path: "/api/{sibling}/mcp", auth: "Bearer {ws}", wantStatus: 200},
		{name: "project endpoint, no token", path: "/api/{project}/mcp", auth: "", wantStatus: 401},
		{name: "unknown project, a project key", path: "/api/" + unknown + "/mcp", auth: "Token token={rw}", wantStatus: 401},
		{name: "unknown project, workspace token", path: "/api/" + unknown + "/mcp", auth: "Bearer {ws}", wantStatus: 404},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				path, auth := s.expand(tc.path), s.expand(tc.auth)
				r := s.mcpPost(t, path, auth, nil, mcpRequest(1, "tools/list", nil))
				if r.status != tc.wantStatus {
					t.Fatalf("tools/list: status %d, want %d; body %s", r.status, tc.wantStatus, truncated(r.body))
				}
				if tc.wantStatus != http.StatusOK {
					resp := &response{status: r.status, header: r.header, body: r.body}
					want := "unauthorized"
					if tc.wantStatus == http.StatusNotFound {
						want = "not_found"
					}
					resp.wantError(t, want)
					if _, err := s.mcpDial(t, path, auth, mcpOpts{}); err == nil {
						t.Errorf("the go-sdk client connected, want a failure")
					}
					return
				}
				var list struct {
					Tools []struct{ Name string } `json:"tools"`
				}
				r.result(t, &list)
				if len(list.Tools) == 0 {
					t.Errorf("no tools listed")
				}
				s.mcpConnect(t, path, auth, mcpOpts{}).tools(t)
			})
		}
	})
}

// TestMCPWorkspaceIsolation calls every project tool on the workspace endpoint with the
// project_id of another workspace's project: each answers unauthorized and nothing of that
// project changes.
func TestMCPWorkspaceIsolation(t *testing.T) {
	t.Parallel()
	key := map[string]any{"namespace_key": "common", "translation_key": "greeting"}
	row := func(extra map[string]any) map[string]any {
		m := map[string]any{"language": "nb"}
		for k, v := range key {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name string
		args map[string]any
	}{
		{name: "get_project_status"},
		{name: "get_embed_snippet"},
		{name: "get_translations", args: map[string]any{"language": "nb"}},
		{name: "get_translation", args: key},
		{name: "search_translations"},
		{name: "list_terminology"},
		{name: "get_checkup_report"},
		{name: "enable_language", args: map[string]any{"language": "de"}},
		{name: "register_source_strings", args: map[string]any{"namespace_key": "common", "strings": map[string]string{"x": "X"}}},
		{name: "update_translation", args: row(map[string]any{"value": "Hacked", "status": "approved"})},
		{name: "set_translation_status", args: row(map[string]any{"status": "needs_review"})},
		{name: "add_key", args: map[string]any{"namespace_key": "common", "translation_key": "x", "source_value": "X"}},
		{name: "add_comment", args: row(map[string]any{"body": "hi"})},
		{name: "flag_translation", args: row(map[string]any{"flag": "language_locked", "value": true})},
		{name: "add_glossary_term", args: map[string]any{"source_term": "a", "target_term": "b"}},
		{name: "import_translations", args: map[string]any{"namespace_key": "common", "language": "en", "format": "json", "content": `{"greeting":"Hacked"}`}},
		{name: "ai_translate_keys", args: map[string]any{"namespace_key": "common", "translation_keys": []string{"greeting"}, "target_lang": "nb"}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		otherSync := func(lang string, body any) {
			t.Helper()
			path := "/api/sync/" + s.other.ID + "/latest/" + lang + "/common"
			if lang != "en" {
				path = "/api/overwrite/" + s.other.ID + "/latest/" + lang + "/common"
			}
			s.call(t, "PUT", path, tokenAuth(s.otherRW), body).wantStatus(t, http.StatusOK)
		}
		otherSync("en", map[string]string{"greeting": "Hello"})
		otherSync("nb", map[string]string{"greeting": "Hei"})
		ws := s.mcpWorkspace(t)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := map[string]any{"project_id": s.other.ID}
				for k, v := range tc.args {
					args[k] = v
				}
				mcpErr(t, ws, tc.name, args, "unauthorized")
			})
		}
		t.Run("the other project is unchanged", func(t *testing.T) {
			for lang, want := range map[string]string{"en": `{"greeting":"Hello"}`, "nb": `{"greeting":"Hei"}`} {
				r := s.call(t, "GET", "/api/"+s.other.ID+"/latest/"+lang+"/common", tokenAuth(s.otherRO), nil).wantStatus(t, http.StatusOK)
				if !jsonEqual(t, r.body, []byte(want)) {
					t.Errorf("%s: %s, want %s", lang, r.body, want)
				}
			}
			m := s.mcpConnect(t, "/api/"+s.other.ID+"/mcp", tokenAuth(s.otherRO), mcpOpts{})
			k := m.getKey(t, "common", "greeting")
			if nb, _ := k.in("nb"); nb.Status != "approved" || nb.LanguageLocked || len(nb.Comments) != 0 {
				t.Errorf("nb row changed: %+v", nb)
			}
			if st := m.status(t); slices.Contains(st.EnabledLanguages, "de") || len(st.Namespaces) != 1 {
				t.Errorf("status changed: %+v", st)
			}
			if terms := mcpOK[mcpTerminology](t, m, "list_terminology", nil); len(terms.Glossary) != 0 {
				t.Errorf("glossary changed: %+v", terms.Glossary)
			}
		})
	})
}
