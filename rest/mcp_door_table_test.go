package rest_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestMCPToolsListedAsTheRowsSay: over HTTP, each kind of credential at each MCP endpoint
// is offered exactly the tools whose rows of tools.Operations admit its kind, the write
// tools only when it may write; a row changed is a listing changed, with no list of tool
// names kept here.
func TestMCPToolsListedAsTheRowsSay(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		_, grantRW := e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{})
		_, grantRO := e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{ReadOnly: true})
		_, grantWS := e.grant(t, "/client.json", "", tools.Consent{})
		cases := []struct {
			name, path, token string
			who               tools.Callers
			writes            bool
		}{
			{"read/write key", mcpPath(e.proj.ID), e.rw, tools.KeyRW, true},
			{"read-only key", mcpPath(e.proj.ID), e.ro, tools.KeyRO, false},
			{"personal token", mcpPath(e.proj.ID), e.pat, tools.PAT, true},
			{"workspace token at a project", mcpPath(e.proj.ID), e.wsToken, tools.WorkspacePAT, true},
			{"workspace token", mcpPath(""), e.wsToken, tools.WorkspacePAT, true},
			{"read-write grant", mcpPath(e.proj.ID), grantRW.AccessToken, tools.Grant, true},
			{"read-only grant", mcpPath(e.proj.ID), grantRO.AccessToken, tools.Grant, false},
			{"workspace grant", mcpPath(""), grantWS.AccessToken, tools.Grant, true},
		}
		for _, tc := range cases {
			var want []string
			for _, op := range tools.Operations {
				if op.Tool != nil && op.Doors&tools.MCP != 0 && op.Auth&tc.who != 0 && (tc.writes || op.ReadOnly) {
					want = append(want, string(op.Name))
				}
			}
			slices.Sort(want)
			r := e.rpc(t, tc.path, tc.token, "", nil)
			var body struct {
				Result struct {
					Tools []struct{ Name string } `json:"tools"`
				} `json:"result"`
			}
			if r.status != 200 || json.Unmarshal(r.body, &body) != nil {
				t.Fatalf("%s: tools/list answered %d %s", tc.name, r.status, r.body)
			}
			var got []string
			for _, tool := range body.Result.Tools {
				got = append(got, tool.Name)
			}
			slices.Sort(got)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("%s: offered\n %v\nthe rows say\n %v", tc.name, got, want)
			}
		}
	})
}
