package rest_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// rolePeople are users of the fixture's workspace with a role on proj (nb for the
// translator and reviewer) or none, each with a workspace token and a project token.
type rolePeople struct {
	ids, ws, pat map[string]string
}

func (s *server) rolePeople(t *testing.T) rolePeople {
	t.Helper()
	ctx := sys(t)
	if _, err := s.cat.RegisterSourceStrings(ctx, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID}, NamespaceKey: "common",
		Strings: map[string]string{"greeting": "Hello"}}); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"nb", "sv"} {
		if _, err := s.cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID},
			NamespaceKey: "common", TranslationKey: "greeting"}, Language: lang}, Value: "Hei"}); err != nil {
			t.Fatal(err)
		}
	}
	p := rolePeople{ids: map[string]string{}, ws: map[string]string{}, pat: map[string]string{}}
	for _, who := range []string{"translator", "reviewer", "manager", "nobody"} {
		u, err := s.cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: s.ws.ID, Email: who + "@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		p.ids[who] = u.ID
		if who != "nobody" {
			in := tools.SetMemberIn{ProjectID: s.proj.ID, User: u.ID, Role: who}
			if who != model.RoleManager {
				in.Languages = []string{"nb"}
			}
			if _, err := s.cat.SetMember(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		w, err := s.cat.CreateToken(ctx, tools.CreateTokenIn{UserID: u.ID, WorkspaceID: s.ws.ID})
		if err != nil {
			t.Fatal(err)
		}
		pt, err := s.cat.CreateToken(ctx, tools.CreateTokenIn{UserID: u.ID, ProjectID: s.proj.ID})
		if err != nil {
			t.Fatal(err)
		}
		p.ws[who], p.pat[who] = w.Token, pt.Token
	}
	return p
}

// TestAPIRoles: the token API answers for a user's role: 403 forbidden in the spec's
// shape for what the role does not allow, whichever token the user minted.
func TestAPIRoles(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		p := s.rolePeople(t)
		for _, c := range []struct {
			name, who, method, path string
			body                    any
			want                    int
		}{
			{"translator reads", "translator", "GET", s.readPath("sv", "common"), nil, http.StatusOK},
			{"member without a role reads", "nobody", "GET", s.readPath("nb", "common"), nil, http.StatusForbidden},
			{"translator syncs source texts", "translator", "PUT", s.syncPath("en", "common"), map[string]any{"translations": map[string]string{"greeting": "Hi"}, "partial": true}, http.StatusForbidden},
			{"manager syncs source texts", "manager", "PUT", s.syncPath("en", "common"), map[string]any{"translations": map[string]string{"greeting": "Hello"}, "partial": true}, http.StatusOK},
			{"translator overwrites nb (approves)", "translator", "PUT", s.overwritePath("nb", "common"), map[string]string{"greeting": "Hallo"}, http.StatusForbidden},
			{"reviewer overwrites nb", "reviewer", "PUT", s.overwritePath("nb", "common"), map[string]string{"greeting": "Hallo"}, http.StatusOK},
			{"reviewer overwrites sv", "reviewer", "PUT", s.overwritePath("sv", "common"), map[string]string{"greeting": "Hallå"}, http.StatusForbidden},
			// A file of one's own language imports for review; approved only for a reviewer.
			{"translator imports nb for review", "translator", "PUT", s.importPath("nb", "common", "format=json&status=needs_review"), map[string]string{"greeting": "Hei fil"}, http.StatusOK},
			{"translator imports nb approved", "translator", "PUT", s.importPath("nb", "common", "format=json"), map[string]string{"greeting": "Hei fil"}, http.StatusForbidden},
			{"reviewer imports nb approved", "reviewer", "PUT", s.importPath("nb", "common", "format=json"), map[string]string{"greeting": "Hei fil"}, http.StatusOK},
			{"translator imports sv", "translator", "PUT", s.importPath("sv", "common", "format=json&status=needs_review"), map[string]string{"greeting": "Hej fil"}, http.StatusForbidden},
			{"translator imports en (source)", "translator", "PUT", s.importPath("en", "common", "format=json&status=needs_review"), map[string]string{"greeting": "Hi"}, http.StatusForbidden},
			{"translator previews sv", "translator", "PUT", s.importPath("sv", "common", "format=json&dry_run=true"), map[string]string{"greeting": "Hej fil"}, http.StatusOK},
			{"member without a role previews nb", "nobody", "PUT", s.importPath("nb", "common", "format=json&dry_run=true"), map[string]string{"greeting": "Hei"}, http.StatusForbidden},
		} {
			for _, tok := range []string{p.pat[c.who], p.ws[c.who]} {
				r := s.call(t, c.method, c.path, bearerAuth(tok), c.body)
				if r.status != c.want {
					t.Errorf("%s: %d, want %d; %s", c.name, r.status, c.want, truncated(r.body))
				} else if c.want == http.StatusForbidden {
					r.wantError(t, model.CodeForbidden)
				}
			}
		}
		// /api/me lists only the projects the user has a role on.
		var me struct {
			Projects []struct{ ID string } `json:"projects"`
		}
		for who, sees := range map[string]bool{"nobody": false, "translator": true} {
			s.call(t, "GET", "/api/me", bearerAuth(p.ws[who]), nil).wantStatus(t, http.StatusOK).decode(t, &me)
			if got := slices.ContainsFunc(me.Projects, func(x struct{ ID string }) bool { return x.ID == s.proj.ID }); got != sees {
				t.Errorf("/api/me of %s lists the project: %v, want %v", who, got, sees)
			}
		}
	})
}

// TestMCPRoles: the MCP tools refuse what a role does not allow with the forbidden tool
// error; a translator writes nb but neither sv nor an approval; a reviewer approves nb until
// demoted, and from then on their token refuses at once.
func TestMCPRoles(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		p := s.rolePeople(t)
		row := func(lang string, extra map[string]any) map[string]any {
			m := map[string]any{"project_id": s.proj.ID, "namespace_key": "common", "translation_key": "greeting", "language": lang}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		tr := s.mcpConnect(t, "/api/mcp", bearerAuth(p.ws["translator"]), mcpOpts{})
		mcpOK[mcpRow](t, tr, "update_translation", row("nb", map[string]any{"value": "Hei på deg"}))
		mcpErr(t, tr, "update_translation", row("sv", map[string]any{"value": "Hej"}), model.CodeForbidden)
		mcpErr(t, tr, "set_translation_status", row("nb", map[string]any{"status": "approved"}), model.CodeForbidden)
		mcpErr(t, tr, "add_key", map[string]any{"project_id": s.proj.ID, "namespace_key": "common", "translation_key": "new", "source_value": "New"}, model.CodeForbidden)
		// A file of nb lands for review; one of sv, or of the source language, is refused.
		imp := func(lang, content string) map[string]any {
			return map[string]any{"project_id": s.proj.ID, "namespace_key": "common", "language": lang, "format": "json", "content": content}
		}
		mcpOK[map[string]any](t, tr, "import_translations", imp("nb", `{"greeting":"Hei fra fil"}`))
		mcpErr(t, tr, "import_translations", imp("sv", `{"greeting":"Hej"}`), model.CodeForbidden)
		mcpErr(t, tr, "import_translations", imp("en", `{"greeting":"Hi"}`), model.CodeForbidden)

		rv := s.mcpConnect(t, "/api/"+s.proj.ID+"/mcp", bearerAuth(p.pat["reviewer"]), mcpOpts{})
		one := func(lang string, extra map[string]any) map[string]any {
			m := row(lang, extra)
			delete(m, "project_id")
			return m
		}
		mcpOK[mcpRow](t, rv, "set_translation_status", one("nb", map[string]any{"status": "approved"}))
		mcpErr(t, rv, "set_translation_status", one("sv", map[string]any{"status": "approved"}), model.CodeForbidden)
		if _, err := s.cat.SetMember(sys(t), tools.SetMemberIn{ProjectID: s.proj.ID, User: p.ids["reviewer"], Role: model.RoleTranslator, Languages: []string{"nb"}}); err != nil {
			t.Fatal(err)
		}
		mcpOK[mcpRow](t, rv, "set_translation_status", one("nb", map[string]any{"status": "needs_review"}))
		mcpErr(t, rv, "set_translation_status", one("nb", map[string]any{"status": "approved"}), model.CodeForbidden)

		nobody := s.mcpConnect(t, "/api/mcp", bearerAuth(p.ws["nobody"]), mcpOpts{})
		mcpErr(t, nobody, "get_project_status", map[string]any{"project_id": s.proj.ID}, model.CodeForbidden)
		lp := mcpOK[struct {
			Projects []struct {
				ID string `json:"id"`
			} `json:"projects"`
		}](t, nobody, "list_projects", nil)
		for _, x := range lp.Projects {
			if x.ID == s.proj.ID {
				t.Errorf("list_projects of a member without a role lists the project")
			}
		}
	})
}
