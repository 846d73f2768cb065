package rest_test

import (
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/tools"
)

// TestMCPToolsAreTheTable: the adapter offers exactly the MCP rows of tools.Operations, with
// the row's title, description and read-only mark; read-only callers exactly its read rows;
// and every MCP read tool spends the token's ReadBudget.
func TestMCPToolsAreTheTable(t *testing.T) {
	t.Parallel()
	rows := map[string]tools.Operation{}
	var all, reads []string
	for _, op := range tools.Operations {
		if op.Tool == nil {
			if op.Doors&tools.MCP != 0 {
				t.Errorf("%s has the MCP door but no tool description", op.Name)
			}
			continue
		}
		if op.Doors&tools.MCP == 0 {
			t.Errorf("%s describes a tool but lacks the MCP door", op.Name)
		}
		rows[op.Name] = op
		all = append(all, op.Name)
		if op.ReadOnly {
			reads = append(reads, op.Name)
			if !slices.Contains(op.Budgets, &tools.ReadBudget) {
				t.Errorf("read tool %s does not spend ReadBudget", op.Name)
			}
		}
	}
	cat := tools.NewCatalog(nil, nil)
	for _, v := range []struct {
		workspace, readOnly bool
		want                []string
	}{{false, false, all}, {true, false, all}, {false, true, reads}, {true, true, reads}} {
		offered, err := rest.MCPTools(t.Context(), cat, v.workspace, v.readOnly)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range offered {
			names = append(names, tool.Name)
			op := rows[tool.Name]
			if tool.Title != op.Tool.Title || tool.Description != op.Tool.Description ||
				tool.Annotations == nil || tool.Annotations.ReadOnlyHint != op.ReadOnly {
				t.Errorf("workspace %v: tool %s is not its row: %+v", v.workspace, tool.Name, tool)
			}
		}
		wantKeys(t, "tools offered", names, v.want)
	}
}

// TestOperationsTable: names are unique, every public row names a limit of package public
// and every public route's limit has a row.
func TestOperationsTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	limits := map[string]bool{}
	for _, op := range tools.Operations {
		if seen[op.Name] {
			t.Errorf("operation %s is listed twice", op.Name)
		}
		seen[op.Name] = true
		if op.Doors == 0 || op.Auth == 0 {
			t.Errorf("operation %s has no door or no caller", op.Name)
		}
		if op.Doors&tools.Public != 0 {
			if _, ok := public.DefaultLimits[op.PublicLimit]; !ok {
				t.Errorf("public operation %s names limit %q, which package public lacks", op.Name, op.PublicLimit)
			}
			limits[op.PublicLimit] = true
		}
	}
	for route := range public.DefaultLimits {
		if !limits[route] {
			t.Errorf("public route %s has no row in tools.Operations", route)
		}
	}
}
