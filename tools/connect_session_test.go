package tools_test

import (
	"net/netip"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// TestSessionOnOwnerOperations: a user signed in to the Connect page may use the owner's
// operations (webhooks, redeploy, AI usage) of their workspace's projects; a project API
// key still gets pat_required, and another workspace's user is unauthorized.
func TestSessionOnOwnerOperations(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		box, err := secrets.New(make([]byte, secrets.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		cat := storagetest.Catalog(db, &tools.Options{Secrets: box, Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})})
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
		id := f.Project.ID
		ops := map[string]func(p model.Principal) error{
			"usage": func(p model.Principal) error {
				_, err := cat.Usage(model.WithPrincipal(t.Context(), p), tools.UsageIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
				return err
			},
			"webhook list": func(p model.Principal) error {
				_, err := cat.ListWebhooks(model.WithPrincipal(t.Context(), p), id)
				return err
			},
			"redeploy show": func(p model.Principal) error {
				_, err := cat.ShowRedeploy(model.WithPrincipal(t.Context(), p), id)
				return err
			},
			"redeploy attempts": func(p model.Principal) error {
				_, err := cat.RedeployAttempts(model.WithPrincipal(t.Context(), p), id, 0)
				return err
			},
		}
		mine, theirs := session(f.User.Email), session(f.OtherUser.Email)
		for name, op := range ops {
			if err := op(mine); err != nil {
				t.Errorf("%s as a signed-in user of the workspace: %v", name, err)
			}
			if err := op(key); model.ErrorCode(err) != model.CodePATRequired {
				t.Errorf("%s with a project API key: %v, want pat_required", name, err)
			}
			if err := op(theirs); model.ErrorCode(err) != model.CodeUnauthorized {
				t.Errorf("%s as another workspace's user: %v, want unauthorized", name, err)
			}
		}
		// A write, credited to the user; the URL is checked, never called.
		hook, err := cat.AddWebhook(model.WithPrincipal(t.Context(), mine), id, "http://127.0.0.1:9/lokal", nil)
		if err != nil {
			t.Fatalf("adding a webhook as a signed-in user: %v", err)
		}
		v, err := cat.SetWebhookEnabled(model.WithPrincipal(t.Context(), mine), hook.ID, false)
		if err != nil || v.DisabledReason != "disabled by user:"+f.User.ID {
			t.Errorf("disabling as a signed-in user: %+v, %v", v, err)
		}
		if _, err := cat.SetWebhookEnabled(model.WithPrincipal(t.Context(), theirs), hook.ID, true); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("another workspace's user enabling the webhook: %v, want not_found", err)
		}
	})
}
