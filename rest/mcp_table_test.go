package rest_test

import (
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestMCPToolsAreTheTable: the adapter offers exactly the MCP rows of tools.Operations, with
// the row's title, description and read-only mark; read-only callers exactly its read rows;
// and every MCP read tool spends the token's ReadBudget.
func TestMCPToolsAreTheTable(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
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
		rows[string(op.Name)] = op
		all = append(all, string(op.Name))
		if op.ReadOnly {
			reads = append(reads, string(op.Name))
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

// TestOperationsTable: names are unique, every row has a door and a caller, and every
// budget of the table in budgets.go is spent by some operation.
func TestOperationsTable(t *testing.T) {
	t.Parallel()
	seen := map[model.Operation]bool{}
	spent := map[string]bool{}
	for _, op := range tools.Operations {
		if seen[op.Name] {
			t.Errorf("operation %s is listed twice", op.Name)
		}
		seen[op.Name] = true
		if op.Doors == 0 || op.Auth == 0 {
			t.Errorf("operation %s has no door or no caller", op.Name)
		}
		for _, b := range op.Budgets {
			spent[b.Name] = true
		}
	}
	for _, b := range tools.Budgets() {
		if !spent[b.Name] {
			t.Errorf("budget %s is spent by no row of tools.Operations", b.Name)
		}
	}
}
