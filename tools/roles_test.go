package tools_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// roleFixture is a project (en; nb, de) with one key and rows in nb and de, and a user of
// each role with a workspace token: owner (the fixture's first user), manager, translator
// and reviewer of nb, and a member without a role.
type roleFixture struct {
	cat     *tools.Catalog
	f       storagetest.Fixture
	project string
	users   map[string]model.User
	tokens  map[string]model.Principal
}

func newRoleFixture(t *testing.T, dialect string) roleFixture {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	cat := storagetest.Catalog(db, nil)
	sys := model.WithPrincipal(t.Context(), tools.System)
	p, err := cat.CreateProject(sys, tools.CreateProjectIn{WorkspaceID: f.Workspace.ID, Title: "Roles", SourceLanguage: "en", Languages: []string{"nb", "de"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.RegisterSourceStrings(sys, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: p.ID}, NamespaceKey: "common",
		Strings: map[string]string{"hello": "Hello"}}); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"nb", "de"} {
		if _, err := cat.UpdateTranslation(sys, tools.UpdateTranslationIn{RowRef: row(p.ID, lang), Value: "Hei " + lang}); err != nil {
			t.Fatal(err)
		}
	}
	rf := roleFixture{cat: cat, f: f, project: p.ID, users: map[string]model.User{"owner": f.User}, tokens: map[string]model.Principal{}}
	for _, m := range []struct{ name, role string }{{"manager", model.RoleManager}, {"translator", model.RoleTranslator}, {"reviewer", model.RoleReviewer}, {"nobody", ""}} {
		u, err := cat.CreateUser(sys, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: m.name + "@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		if u.Role != model.RoleMember {
			t.Fatalf("a second user of the workspace is %q, want member", u.Role)
		}
		rf.users[m.name] = u
		if m.role == "" {
			continue
		}
		var langs []string
		if m.role != model.RoleManager {
			langs = []string{"nb"}
		}
		if _, err := cat.SetMember(sys, tools.SetMemberIn{ProjectID: p.ID, User: u.Email, Role: m.role, Languages: langs}); err != nil {
			t.Fatal(err)
		}
	}
	if f.User.Role != model.RoleOwner {
		t.Fatalf("the workspace's first user is %q, want owner", f.User.Role)
	}
	for name, u := range rf.users {
		tok, err := cat.CreateToken(sys, tools.CreateTokenIn{UserID: u.ID, WorkspaceID: f.Workspace.ID})
		if err != nil {
			t.Fatal(err)
		}
		if rf.tokens[name], err = cat.Authenticate(t.Context(), tok.Token); err != nil {
			t.Fatal(err)
		}
	}
	for name, secret := range map[string]string{"rw key": f.RW, "ro key": f.RO} {
		// The fixture's keys are of its own project: mint this project's.
		k, err := cat.CreateAPIKey(sys, tools.CreateAPIKeyIn{ProjectID: p.ID, ReadOnly: name == "ro key"})
		if err != nil {
			t.Fatal(err)
		}
		_ = secret
		if rf.tokens[name], err = cat.Authenticate(t.Context(), k.Key); err != nil {
			t.Fatal(err)
		}
	}
	return rf
}

func row(project, lang string) tools.RowRef {
	return tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: project}, NamespaceKey: "common", TranslationKey: "hello"}, Language: lang}
}

// roleOps are catalogue operations as each door calls them, by the right they need.
func roleOps(rf roleFixture) []struct {
	name string
	run  func(ctx context.Context) error
} {
	cat, id := rf.cat, rf.project
	n := 0
	return []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"get_project_status", func(ctx context.Context) error {
			_, err := cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
			return err
		}},
		{"get_translation", func(ctx context.Context) error { _, err := cat.GetTranslation(ctx, row(id, "nb").KeyRef); return err }},
		{"update nb", func(ctx context.Context) error {
			_, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row(id, "nb"), Value: "Hei"})
			return err
		}},
		{"update de", func(ctx context.Context) error {
			_, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row(id, "de"), Value: "Hallo"})
			return err
		}},
		{"update en (source)", func(ctx context.Context) error {
			_, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row(id, "en"), Value: "Hello"})
			return err
		}},
		{"update nb approved", func(ctx context.Context) error {
			_, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row(id, "nb"), Value: "Hei", Status: model.StatusApproved})
			return err
		}},
		{"needs_review nb", func(ctx context.Context) error {
			_, err := cat.SetTranslationStatus(ctx, tools.SetStatusIn{RowRef: row(id, "nb"), Status: model.StatusNeedsReview})
			return err
		}},
		{"approve nb", func(ctx context.Context) error {
			_, err := cat.SetTranslationStatus(ctx, tools.SetStatusIn{RowRef: row(id, "nb"), Status: model.StatusApproved})
			return err
		}},
		{"approve de", func(ctx context.Context) error {
			_, err := cat.SetTranslationStatus(ctx, tools.SetStatusIn{RowRef: row(id, "de"), Status: model.StatusApproved})
			return err
		}},
		{"comment nb", func(ctx context.Context) error {
			_, err := cat.AddComment(ctx, tools.AddCommentIn{RowRef: row(id, "nb"), Body: "ok"})
			return err
		}},
		{"comment de", func(ctx context.Context) error {
			_, err := cat.AddComment(ctx, tools.AddCommentIn{RowRef: row(id, "de"), Body: "ok"})
			return err
		}},
		{"add_key", func(ctx context.Context) error {
			n++
			_, err := cat.AddKey(ctx, tools.AddKeyIn{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: id}, NamespaceKey: "common",
				TranslationKey: fmt.Sprintf("k%d", n)}, SourceValue: "New"})
			return err
		}},
		{"enable_language", func(ctx context.Context) error {
			_, err := cat.EnableLanguage(ctx, tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: id}, Language: "nb"})
			return err
		}},
		{"add_glossary_term", func(ctx context.Context) error {
			n++
			_, err := cat.AddGlossaryTerm(ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: id}, SourceTerm: fmt.Sprintf("Term %d", n), TargetTerm: "Hei", Locale: "nb"})
			return err
		}},
		{"member list", func(ctx context.Context) error { _, err := cat.ListMembers(ctx, id); return err }},
	}
}

// TestRolesThroughTheCatalogue: the table of principal x operation, each answered by the
// catalogue alone (allowed, or the code of its refusal).
func TestRolesThroughTheCatalogue(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: a table of calls, one at a time; the plain run keeps it")
	}
	const ok, no, ro, pat = "", model.CodeForbidden, model.CodeReadOnlyKey, model.CodePATRequired
	// Columns in roleOps' order.
	want := map[string][]string{
		//               status get  upd-nb upd-de upd-en upd-nb-A nr-nb appr-nb appr-de cm-nb cm-de add_key enable gloss members
		"owner":      {ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok},
		"manager":    {ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok},
		"reviewer":   {ok, ok, ok, no, no, ok, ok, ok, no, ok, no, no, no, no, no},
		"translator": {ok, ok, ok, no, no, no, ok, no, no, ok, no, no, no, no, no},
		"nobody":     {no, no, no, no, no, no, no, no, no, no, no, no, no, no, no},
		"rw key":     {ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, pat},
		"ro key":     {ok, ok, ro, ro, ro, ro, ro, ro, ro, ro, ro, ro, ro, ro, pat},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		ops := roleOps(rf)
		for _, who := range []string{"owner", "manager", "reviewer", "translator", "nobody", "rw key", "ro key"} {
			ctx := model.WithPrincipal(t.Context(), rf.tokens[who])
			for i, op := range ops {
				err := op.run(ctx)
				if got := codeOf(err); got != want[who][i] {
					t.Errorf("%s: %s = %v, want %q", who, op.name, err, want[who][i])
				}
			}
		}
		// A member without a role does not see the project in the lists either.
		for who, sees := range map[string]bool{"nobody": false, "translator": true, "owner": true} {
			ctx := model.WithPrincipal(t.Context(), rf.tokens[who])
			lp, err := rf.cat.ListProjects(ctx, tools.ListProjectsIn{})
			if err != nil {
				t.Fatal(err)
			}
			me, err := rf.cat.Me(ctx)
			if err != nil {
				t.Fatal(err)
			}
			inList := slices.ContainsFunc(lp.Projects, func(p tools.ProjectSummary) bool { return p.ID == rf.project })
			inMe := slices.ContainsFunc(*me.Projects, func(p model.Project) bool { return p.ID == rf.project })
			if inList != sees || inMe != sees {
				t.Errorf("%s: list_projects shows the project %v, /me %v; want %v", who, inList, inMe, sees)
			}
		}
	})
}

func codeOf(err error) string {
	if err == nil {
		return ""
	}
	return model.ErrorCode(err)
}

// TestRoleChangeNarrowsTokens: a token is worth its owner's role when it is used: a
// reviewer demoted to translator can no longer approve with the token minted before, a
// removed member sees nothing, and an owner made a member keeps only their project roles.
// A token minted by a translator never writes a language that is not theirs.
func TestRoleChangeNarrowsTokens(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		cat, id := rf.cat, rf.project
		sys := model.WithPrincipal(t.Context(), tools.System)
		approve := func(who string) error {
			_, err := cat.SetTranslationStatus(model.WithPrincipal(t.Context(), rf.tokens[who]), tools.SetStatusIn{RowRef: row(id, "nb"), Status: model.StatusApproved})
			return err
		}
		if err := approve("reviewer"); err != nil {
			t.Fatalf("a reviewer approving nb: %v", err)
		}
		if _, err := cat.SetMember(sys, tools.SetMemberIn{ProjectID: id, User: rf.users["reviewer"].ID, Role: model.RoleTranslator, Languages: []string{"nb"}}); err != nil {
			t.Fatal(err)
		}
		if err := approve("reviewer"); codeOf(err) != model.CodeForbidden {
			t.Errorf("approving with the token of a reviewer made translator: %v, want forbidden", err)
		}
		if _, err := cat.RemoveMember(sys, id, "reviewer@acme.test"); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.GetTranslation(model.WithPrincipal(t.Context(), rf.tokens["reviewer"]), row(id, "nb").KeyRef); codeOf(err) != model.CodeForbidden {
			t.Errorf("reading with the token of a removed member: %v, want forbidden", err)
		}
		if _, err := cat.RemoveMember(sys, id, "reviewer@acme.test"); codeOf(err) != model.CodeNotFound {
			t.Errorf("removing a member twice: %v, want not_found", err)
		}

		// A project token a translator mints in the editor is bound the same way.
		tok, err := cat.CreateToken(sys, tools.CreateTokenIn{UserID: rf.users["translator"].ID, ProjectID: id})
		if err != nil {
			t.Fatal(err)
		}
		pat, err := cat.Authenticate(t.Context(), tok.Token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.UpdateTranslation(model.WithPrincipal(t.Context(), pat), tools.UpdateTranslationIn{RowRef: row(id, "de"), Value: "Hallo"}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator's project token writing de: %v, want forbidden", err)
		}
		if _, err := cat.UpdateTranslation(model.WithPrincipal(t.Context(), pat), tools.UpdateTranslationIn{RowRef: row(id, "nb"), Value: "Hei"}); err != nil {
			t.Errorf("a translator's project token writing nb: %v", err)
		}

		// Owners: the last one stays; another one may be made a member and narrows at once.
		if _, err := cat.SetUserRole(sys, rf.users["owner"].ID, model.RoleMember); codeOf(err) != model.CodeConflict {
			t.Errorf("demoting the only owner: %v, want conflict", err)
		}
		if _, err := cat.SetUserRole(sys, rf.users["manager"].ID, model.RoleOwner); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.SetUserRole(sys, rf.users["owner"].ID, model.RoleMember); err != nil {
			t.Fatalf("demoting an owner while another is left: %v", err)
		}
		if _, err := cat.GetTranslation(model.WithPrincipal(t.Context(), rf.tokens["owner"]), row(id, "nb").KeyRef); codeOf(err) != model.CodeForbidden {
			t.Errorf("reading with the token of an owner made a member without a role: %v, want forbidden", err)
		}
		// Only owners change workspace roles.
		if _, err := cat.SetUserRole(model.WithPrincipal(t.Context(), rf.tokens["translator"]), rf.users["translator"].ID, model.RoleOwner); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator making themselves owner: %v, want forbidden", err)
		}
	})
}

// TestMembersValidate: member set refuses unknown roles, languages the project lacks, the
// source language, users of another workspace and unknown users, and changes nothing.
func TestMembersValidate(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		sys := model.WithPrincipal(t.Context(), tools.System)
		u := rf.users["nobody"].ID
		for _, c := range []struct {
			name string
			in   tools.SetMemberIn
			code string
		}{
			{"unknown role", tools.SetMemberIn{ProjectID: rf.project, User: u, Role: "admin"}, model.CodeInvalid},
			{"language not enabled", tools.SetMemberIn{ProjectID: rf.project, User: u, Role: model.RoleTranslator, Languages: []string{"fr"}}, model.CodeInvalid},
			{"source language", tools.SetMemberIn{ProjectID: rf.project, User: u, Role: model.RoleTranslator, Languages: []string{"en"}}, model.CodeInvalid},
			{"manager with languages", tools.SetMemberIn{ProjectID: rf.project, User: u, Role: model.RoleManager, Languages: []string{"nb"}}, model.CodeInvalid},
			{"another workspace's user", tools.SetMemberIn{ProjectID: rf.project, User: rf.f.OtherUser.ID, Role: model.RoleTranslator}, model.CodeNotFound},
			{"unknown email", tools.SetMemberIn{ProjectID: rf.project, User: "ghost@acme.test", Role: model.RoleTranslator}, model.CodeNotFound},
			{"unknown project", tools.SetMemberIn{ProjectID: "00000000-0000-4000-8000-000000000000", User: u, Role: model.RoleTranslator}, model.CodeNotFound},
			{"not an id", tools.SetMemberIn{ProjectID: "x", User: u, Role: model.RoleTranslator}, model.CodeNotFound},
		} {
			if _, err := rf.cat.SetMember(sys, c.in); codeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
		}
		ms, err := rf.cat.ListMembers(sys, rf.project)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, fmt.Sprintf("%s:%s:%v", m.Email, m.Role, m.Languages))
		}
		want := []string{"manager@acme.test:manager:[]", "reviewer@acme.test:reviewer:[nb]", "translator@acme.test:translator:[nb]"}
		if !slices.Equal(got, want) {
			t.Errorf("members: %v, want %v", got, want)
		}
	})
}

// TestRolesInTheEditor: a signed-in translator may not revoke the project's key nor
// approve; a manager revokes it. The operations refuse whatever the page shows.
func TestRolesInTheEditor(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: editor calls one at a time; the plain run keeps it")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		cat, id := rf.cat, rf.project
		sys := model.WithPrincipal(t.Context(), tools.System)
		session := func(who string) context.Context {
			const pw = "correct horse battery"
			if err := cat.SetPassword(sys, rf.users[who].ID, pw); err != nil {
				t.Fatal(err)
			}
			out, err := cat.SignIn(t.Context(), tools.SignInIn{Email: rf.users[who].Email, Password: pw, ClientIP: "127.0.0.1"})
			if err != nil {
				t.Fatal(err)
			}
			ctx, _, err := cat.OpenSession(t.Context(), out.Token)
			if err != nil {
				t.Fatal(err)
			}
			return ctx
		}
		translator, manager, nobody := session("translator"), session("manager"), session("nobody")
		keys, err := cat.ListKeys(sys, id)
		if err != nil || len(keys) == 0 {
			t.Fatalf("keys: %v %v", keys, err)
		}
		if _, err := cat.ListKeys(translator, id); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator listing keys: %v, want forbidden", err)
		}
		if _, err := cat.RevokeKey(translator, keys[0].ID); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator revoking the project's key: %v, want forbidden", err)
		}
		if _, err := cat.RevokeKey(nobody, keys[0].ID); codeOf(err) != model.CodeNotFound {
			t.Errorf("a member without a role revoking the project's key: %v, want not_found", err)
		}
		if _, err := cat.CreateAPIKey(translator, tools.CreateAPIKeyIn{ProjectID: id}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator creating a key: %v, want forbidden", err)
		}
		if _, err := cat.RevokeKey(manager, keys[0].ID); err != nil {
			t.Errorf("a manager revoking the project's key: %v", err)
		}
		page, err := cat.ReviewQueue(translator, tools.ReviewIn{ProjectID: id, Language: "nb"})
		if err != nil || !page.Editable || page.Approvable || len(page.Rows) != 1 {
			t.Fatalf("a translator's nb queue: editable %v approvable %v rows %d, %v", page.Editable, page.Approvable, len(page.Rows), err)
		}
		r := page.Rows[0]
		if _, err := cat.ApproveRows(translator, tools.ApproveIn{ProjectID: id, Language: "nb", Rows: []tools.RowVersion{{Namespace: r.Namespace, Key: r.Key, Version: r.Version}}}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator approving in the editor: %v, want forbidden", err)
		}
		if _, err := cat.SaveRow(translator, tools.SaveRowIn{RowRef: row(id, "nb"), Value: "Hei!", Version: r.Version}); err != nil {
			t.Errorf("a translator saving nb: %v", err)
		}
		if page, err := cat.ReviewQueue(translator, tools.ReviewIn{ProjectID: id, Language: "de"}); err != nil || page.Editable {
			t.Errorf("a translator's de queue: editable %v, %v; want read-only", page.Editable, err)
		}
		if _, err := cat.SaveRow(translator, tools.SaveRowIn{RowRef: row(id, "de"), Value: "Hallo!", Version: "new"}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator saving de: %v, want forbidden", err)
		}
		if _, err := cat.ReviewQueue(nobody, tools.ReviewIn{ProjectID: id, Language: "nb"}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a member without a role opening the queue: %v, want forbidden", err)
		}
		if _, err := cat.SetWorkspaceAI(manager, rf.f.Workspace.ID, "https://api.openai.com/v1", "gpt-4o", nil); codeOf(err) != model.CodeForbidden {
			t.Errorf("a manager setting the workspace's AI: %v, want forbidden", err)
		}
	})
}

// TestEveryUserOperationNamesItsRight: every operation a user's token or session reaches
// names the right it needs, so that no door is open by omission.
func TestEveryUserOperationNamesItsRight(t *testing.T) {
	t.Parallel()
	for _, op := range tools.Operations {
		if op.Auth&(tools.PAT|tools.WorkspacePAT|tools.Session|tools.KeyRW) == 0 || op.Name == model.OpSignOut {
			continue
		}
		if op.Needs == 0 {
			t.Errorf("%s is open to users and keys but names no right", op.Name)
		}
		// A person's own tokens and OAuth grants are theirs to make and end with any role;
		// where a key is seen on the site is what any member reviewing it there saw
		// (bounded, budgeted), not a change to the project's text.
		own := op.Name == model.OpCreateToken || op.Name == model.OpRevokeToken || op.Name == model.OpOAuthAuthorize ||
			op.Name == model.OpGrantRevoke || op.Name == model.OpRecordContext
		if !op.ReadOnly && op.Needs == model.RightRead && !own {
			t.Errorf("%s writes with only the right to read", op.Name)
		}
	}
}
