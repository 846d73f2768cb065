package main_test

import (
	"strings"
	"testing"
)

// TestCLILookups: workspace list and user list find the ids again, and project list and
// user list take the only workspace when --workspace is left out, naming the choices when
// there are several.
func TestCLILookups(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		if ws := jsonObject(t, []string{"workspaces"}, "workspace", "list", "--json", "--database", dsn)["workspaces"].([]any); len(ws) != 0 {
			t.Errorf("workspace list on an empty database: %v", ws)
		}
		if line := fails(t, nil, "project", "list", "--database", dsn); !strings.Contains(line, "no workspace") {
			t.Errorf("project list without workspaces: %q", line)
		}

		f := makeFixture(t, dsn)
		ws := jsonObject(t, []string{"workspaces"}, "workspace", "list", "--json", "--database", dsn)["workspaces"].([]any)
		if len(ws) != 1 {
			t.Fatalf("workspace list: %v", ws)
		}
		w := ws[0].(map[string]any)
		checkFields(t, "workspace", w, []string{"id", "name", "public_token"})
		if w["id"] != f.workspace || w["name"] != "Acme" || !strings.HasPrefix(str(t, w, "public_token"), "pub_") {
			t.Errorf("workspace list: %v, want %s (Acme) with its public token", w, f.workspace)
		}
		token := w["public_token"].(string)

		// One workspace: --workspace may be left out.
		for _, args := range [][]string{{"project", "list"}, {"project", "list", "--workspace", f.workspace}} {
			ps := jsonObject(t, []string{"projects"}, append(args, "--json", "--database", dsn)...)["projects"].([]any)
			if len(ps) != 1 || ps[0].(map[string]any)["id"] != f.project {
				t.Errorf("%v: %v, want project %s", args, ps, f.project)
			}
		}
		for _, args := range [][]string{{"user", "list"}, {"user", "list", "--workspace", f.workspace}} {
			us := jsonObject(t, []string{"users"}, append(args, "--json", "--database", dsn)...)["users"].([]any)
			if len(us) != 1 {
				t.Fatalf("%v: %v", args, us)
			}
			if u := us[0].(map[string]any); u["id"] != f.user || u["email"] != "dev@acme.test" {
				t.Errorf("%v: %v, want user %s (dev@acme.test)", args, u, f.user)
			}
		}

		// Readable text names the ids, names and the public token.
		for _, c := range []struct {
			args []string
			want []string
		}{
			{[]string{"workspace", "list"}, []string{f.workspace, "Acme", token}},
			{[]string{"user", "list"}, []string{f.user, "dev@acme.test"}},
			{[]string{"project", "list"}, []string{f.project, "Web app"}},
		} {
			r := lokal(t, nil, append(c.args, "--database", dsn)...)
			for _, s := range c.want {
				if r.code != 0 || !strings.Contains(r.stdout, s) {
					t.Errorf("%v: %d %q %q, want %q", c.args, r.code, r.stdout, r.stderr, s)
				}
			}
		}

		// Two workspaces: the error names both; --workspace still works.
		other := str(t, jsonObject(t, nil, "workspace", "create", "--name", "Beta", "--json", "--database", dsn), "id")
		if ws := jsonObject(t, []string{"workspaces"}, "workspace", "list", "--json", "--database", dsn)["workspaces"].([]any); len(ws) != 2 {
			t.Errorf("workspace list after a second: %v", ws)
		}
		for _, args := range [][]string{{"project", "list"}, {"user", "list"}} {
			line := fails(t, nil, append(args, "--database", dsn)...)
			for _, s := range []string{"--workspace", f.workspace, "Acme", other, "Beta"} {
				if !strings.Contains(line, s) {
					t.Errorf("%v with two workspaces: %q does not name %q", args, line, s)
				}
			}
		}
		if us := jsonObject(t, []string{"users"}, "user", "list", "--workspace", other, "--json", "--database", dsn)["users"].([]any); len(us) != 0 {
			t.Errorf("user list of the new workspace: %v", us)
		}
		if line := fails(t, nil, "user", "list", "--workspace", "00000000-0000-0000-0000-000000000000", "--database", dsn); !strings.Contains(line, "not found") {
			t.Errorf("user list of an unknown workspace: %q", line)
		}
	})
}
