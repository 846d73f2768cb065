package tools_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestInvitations: a manager invites a translator of nb; the link, shown once, makes the
// user with that role and password and signs them in, once; it expires after seven days.
// A translator may not invite, and only owners invite owners.
func TestInvitations(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		var offset atomic.Int64
		cat := storagetest.Catalog(rf.cat.Store(), &tools.Options{BaseURL: "https://l.example", Now: func() time.Time {
			return time.Now().Add(time.Duration(offset.Load()))
		}})
		as := func(who string) context.Context { return model.WithPrincipal(t.Context(), rf.tokens[who]) }
		id := rf.project

		if _, err := cat.Invite(as("translator"), tools.InviteIn{ProjectID: id, Email: "x@acme.test", Role: model.RoleTranslator, Languages: []string{"nb"}}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator inviting: %v, want forbidden", err)
		}
		if _, err := cat.Invite(as("manager"), tools.InviteIn{ProjectID: id, Email: "x@acme.test", Role: model.RoleOwner}); codeOf(err) != model.CodeForbidden {
			t.Errorf("a manager inviting an owner: %v, want forbidden", err)
		}
		if _, err := cat.Invite(as("manager"), tools.InviteIn{ProjectID: id, Email: rf.users["owner"].Email, Role: model.RoleReviewer, Languages: []string{"nb"}}); codeOf(err) != model.CodeConflict {
			t.Errorf("inviting a confirmed user of the workspace: %v, want conflict", err)
		}
		if _, err := cat.Invite(as("manager"), tools.InviteIn{ProjectID: id, Email: "not mail", Role: model.RoleReviewer}); codeOf(err) != model.CodeInvalid {
			t.Errorf("inviting a bad email: %v, want invalid", err)
		}
		inv, err := cat.Invite(as("manager"), tools.InviteIn{ProjectID: id, Email: "new@acme.test", Role: model.RoleTranslator, Languages: []string{"nb"}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(inv.Link, "https://l.example/app/invite/inv_") || inv.ExpiresAt.Sub(time.Now()) < 6*24*time.Hour {
			t.Fatalf("invitation: %+v", inv)
		}
		token := strings.TrimPrefix(inv.Link, "https://l.example/app/invite/")
		if _, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: token, Password: "short", ClientIP: "127.0.0.1"}); codeOf(err) != model.CodeInvalid {
			t.Errorf("a short password: %v, want invalid", err)
		}
		in, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: token, Password: "correct horse battery", ClientIP: "127.0.0.1"})
		if err != nil {
			t.Fatalf("accepting: %v", err)
		}
		if in.User.Email != "new@acme.test" || in.User.Role != model.RoleMember {
			t.Errorf("the new user: %+v", in.User)
		}
		ctx, _, err := cat.OpenSession(t.Context(), in.Token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row(id, "nb"), Value: "Hei"}); err != nil {
			t.Errorf("the invited translator writing nb: %v", err)
		}
		if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row(id, "de"), Value: "Hallo"}); codeOf(err) != model.CodeForbidden {
			t.Errorf("the invited translator writing de: %v, want forbidden", err)
		}
		if _, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: token, Password: "another password", ClientIP: "127.0.0.1"}); codeOf(err) != model.CodeNotFound {
			t.Errorf("accepting twice: %v, want not_found", err)
		}
		if _, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: "inv_nothing", Password: "another password", ClientIP: "127.0.0.1"}); codeOf(err) != model.CodeNotFound {
			t.Errorf("an unknown link: %v, want not_found", err)
		}

		// Owners invite owners; a link past seven days is refused.
		own, err := cat.Invite(as("owner"), tools.InviteIn{Email: "boss@acme.test", Role: model.RoleOwner})
		if err != nil {
			t.Fatal(err)
		}
		offset.Store(int64(tools.InvitationLifetime + time.Minute))
		if _, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: strings.TrimPrefix(own.Link, "https://l.example/app/invite/"),
			Password: "correct horse battery", ClientIP: "127.0.0.2"}); codeOf(err) != model.CodeNotFound {
			t.Errorf("an expired link: %v, want not_found", err)
		}
	})
}
