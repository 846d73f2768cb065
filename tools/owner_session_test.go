package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestSessionOnAdminOperations: the Connect page calls the command line's operations with
// the signed-in user as the principal, and each operation decides: a member of the
// project's workspace manages its keys, AI and Embed settings, and their own tokens and
// workspace; another workspace's user is unauthorized (or finds nothing to revoke); a
// project API key still gets the admin operation's refusal.
func TestSessionOnAdminOperations(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		sys := model.WithPrincipal(t.Context(), tools.System)
		const pw = "correct horse battery"
		for _, u := range []string{f.User.ID, f.OtherUser.ID} {
			if err := cat.SetPassword(sys, u, pw); err != nil {
				t.Fatal(err)
			}
		}
		session := func(email string) model.Principal {
			out, err := cat.SignIn(t.Context(), tools.SignInIn{Email: email, Password: pw, ClientIP: "127.0.0.1"})
			if err != nil {
				t.Fatal(err)
			}
			ctx, _, err := cat.OpenSession(t.Context(), out.Token)
			if err != nil {
				t.Fatal(err)
			}
			return model.PrincipalFrom(ctx)
		}
		key, err := cat.Authenticate(t.Context(), f.RW)
		if err != nil {
			t.Fatal(err)
		}
		mine, theirs := session(f.User.Email), session(f.OtherUser.Email)
		id := f.Project.ID
		in := func(p model.Principal) context.Context { return model.WithPrincipal(t.Context(), p) }

		// What a member may do, each op as the page calls it.
		k, err := cat.CreateAPIKey(in(mine), tools.CreateAPIKeyIn{ProjectID: id, ReadOnly: true})
		if err != nil {
			t.Fatalf("creating a key as a member: %v", err)
		}
		keys, err := cat.ListKeys(in(mine), id)
		if err != nil || len(keys) == 0 {
			t.Fatalf("listing keys as a member: %v %v", keys, err)
		}
		newest := keys[len(keys)-1]
		if !newest.ReadOnly || !strings.HasPrefix(k.Key, newest.Prefix) {
			t.Fatalf("the newest key %+v is not the one created", newest)
		}
		tok, err := cat.CreateToken(in(mine), tools.CreateTokenIn{UserID: f.User.ID, ProjectID: id})
		if err != nil || tok.Token == "" {
			t.Fatalf("creating a token as a member: %v", err)
		}
		toks, err := cat.ListTokens(in(mine), f.User.ID)
		if err != nil || len(toks) == 0 {
			t.Fatalf("listing own tokens: %v %v", toks, err)
		}
		if _, err := cat.ShowAI(in(mine), id); err != nil {
			t.Errorf("showing the AI settings as a member: %v", err)
		}
		m := "gpt-4o-mini"
		if _, err := cat.SetProjectAI(in(mine), id, &m, nil); err != nil {
			t.Errorf("setting the project's model as a member: %v", err)
		}
		if _, err := cat.ShowProject(in(mine), id); err != nil {
			t.Errorf("showing the project as a member: %v", err)
		}
		on := true
		if _, err := cat.SetProject(in(mine), id, tools.SetProjectIn{ShowSwitcher: &on}); err != nil {
			t.Errorf("changing an Embed setting as a member: %v", err)
		}
		if me, err := cat.Me(in(mine)); err != nil || me.User.ID != f.User.ID || me.Projects == nil || len(*me.Projects) < 2 {
			t.Errorf("me as a signed-in user: %+v %v", me, err)
		}

		// What stays the operator's, or another user's.
		title := "Renamed"
		if _, err := cat.SetProject(in(mine), id, tools.SetProjectIn{Title: &title}); err != nil {
			t.Errorf("renaming the project as its workspace's owner: %v", err)
		}
		embed := "embed"
		if _, err := cat.SetProject(in(mine), id, tools.SetProjectIn{IntegrationType: &embed}); model.ErrorCode(err) != model.CodeForbidden {
			t.Errorf("changing the integration type in the editor: %v, want forbidden", err)
		}
		if _, err := cat.ListTokens(in(mine), f.OtherUser.ID); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("listing another user's tokens: %v, want unauthorized", err)
		}
		if _, err := cat.CreateToken(in(theirs), tools.CreateTokenIn{UserID: f.OtherUser.ID, ProjectID: id}); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("another workspace's user creating a token for the project: %v, want unauthorized", err)
		}
		if _, err := cat.SetWorkspaceAI(in(mine), f.OtherWorkspace.ID, "https://api.openai.com/v1", "gpt-4o", nil); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("setting another workspace's provider: %v, want unauthorized", err)
		}
		if _, err := cat.WorkspaceProjects(in(mine), f.Workspace.ID); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("listing the workspace's projects, an admin command: %v, want unauthorized", err)
		}
		for name, op := range map[string]func(p model.Principal) error{
			"key list": func(p model.Principal) error { _, err := cat.ListKeys(in(p), id); return err },
			"key create": func(p model.Principal) error {
				_, err := cat.CreateAPIKey(in(p), tools.CreateAPIKeyIn{ProjectID: id})
				return err
			},
			"ai show":      func(p model.Principal) error { _, err := cat.ShowAI(in(p), id); return err },
			"project show": func(p model.Principal) error { _, err := cat.ShowProject(in(p), id); return err },
		} {
			if err := op(theirs); model.ErrorCode(err) != model.CodeUnauthorized {
				t.Errorf("%s as another workspace's user: %v, want unauthorized", name, err)
			}
			if err := op(key); model.ErrorCode(err) != model.CodeUnauthorized {
				t.Errorf("%s with a project API key: %v, want unauthorized", name, err)
			}
		}
		if _, err := cat.RevokeKey(in(theirs), newest.ID); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("another workspace's user revoking the key: %v, want not_found", err)
		}
		if _, err := cat.RevokeToken(in(theirs), toks[0].ID); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("another user revoking the token: %v, want not_found", err)
		}

		// And revocation by the member, of what is theirs.
		if r, err := cat.RevokeKey(in(mine), newest.ID); err != nil || r.ID != newest.ID {
			t.Errorf("revoking the key as a member: %+v %v", r, err)
		}
		if r, err := cat.RevokeToken(in(mine), toks[0].ID); err != nil || r.ID != toks[0].ID {
			t.Errorf("revoking an own token: %+v %v", r, err)
		}
	})
}
