package main_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestCLIInvitations: invitation list shows a project's or a workspace's pending
// invitations with who invited; invitation revoke makes the link refused as an expired
// one is; user reset-link prints a one-use link that sets the password. Bad input fails
// with one line.
func TestCLIInvitations(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		store, err := storage.Open(t.Context(), dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		cat := storagetest.Catalog(store, &tools.Options{BaseURL: "https://l.example"})
		// The workspace's first user, an owner, invites from the editor.
		owner := model.WithPrincipal(t.Context(), model.Principal{Kind: tools.KindSession, TokenID: "session", UserID: f.user, WorkspaceID: f.workspace})
		tr, err := cat.Invite(owner, tools.InviteIn{ProjectID: f.project, Email: "tr@acme.test", Role: model.RoleTranslator, Languages: []string{"nb"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Invite(owner, tools.InviteIn{Email: "boss@acme.test", Role: model.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		db0 := []string{"--database", dsn}
		db := append([]string{"--json"}, db0...)

		list := func(args ...string) []map[string]any {
			t.Helper()
			var out []map[string]any
			for _, v := range jsonObject(t, []string{"invitations"}, append(append([]string{"invitation", "list"}, args...), db...)...)["invitations"].([]any) {
				out = append(out, v.(map[string]any))
			}
			return out
		}
		inProject := list("--project", f.project)
		if len(inProject) != 1 || inProject[0]["email"] != "tr@acme.test" || inProject[0]["role"] != "translator" ||
			inProject[0]["invited_by"] != "dev@acme.test" || strings.Join(toStrings(inProject[0]["languages"]), ",") != "nb" {
			t.Fatalf("invitation list --project: %v", inProject)
		}
		for _, field := range []string{"id", "created_at", "expires_at", "project"} {
			if _, ok := inProject[0][field]; !ok {
				t.Errorf("an invitation has no %q: %v", field, inProject[0])
			}
		}
		if ws := list("--workspace", f.workspace); len(ws) != 2 || ws[1]["role"] != "owner" {
			t.Errorf("invitation list --workspace: %v", ws)
		}
		if all := list(); len(all) != 2 {
			t.Errorf("invitation list: %v", all)
		}
		if r := lokal(t, nil, append([]string{"invitation", "list", "--project", f.project}, db0...)...); r.code != 0 ||
			!strings.Contains(r.stdout, "tr@acme.test  translator  nb  invited by dev@acme.test") {
			t.Errorf("invitation list as text: %d %q %q", r.code, r.stdout, r.stderr)
		}

		id := str(t, inProject[0], "id")
		rv := jsonObject(t, []string{"id", "email", "revoked"}, append([]string{"invitation", "revoke", "--id", id}, db...)...)
		if rv["email"] != "tr@acme.test" || rv["revoked"] != true {
			t.Errorf("invitation revoke: %v", rv)
		}
		if _, err := cat.Invitation(t.Context(), strings.TrimPrefix(tr.Link, "https://l.example/app/invite/")); model.ErrorCode(err) != model.CodeNotFound ||
			!strings.Contains(model.ErrorMessage(err), "not valid") {
			t.Errorf("the revoked link: %v, want the expired link's refusal", err)
		}
		if left := list("--project", f.project); len(left) != 0 {
			t.Errorf("pending after the revoke: %v", left)
		}
		if line := fails(t, nil, append([]string{"invitation", "revoke", "--id", id}, db...)...); !strings.Contains(line, "revoked or expired already") {
			t.Errorf("revoking twice: %q", line)
		}

		// A reset link: printed once, whole with --base-url, sets the password once.
		rl := jsonObject(t, []string{"link", "user", "email", "expires_at"}, append([]string{"user", "reset-link", "--user", "dev@acme.test", "--base-url", "https://l.example/"}, db...)...)
		link := str(t, rl, "link")
		if !strings.HasPrefix(link, "https://l.example/app/reset/rst_") || rl["user"] != f.user {
			t.Fatalf("user reset-link: %v", rl)
		}
		token := strings.TrimPrefix(link, "https://l.example/app/reset/")
		if _, err := cat.ResetPassword(t.Context(), tools.AcceptIn{Token: token, Password: "a new long password", ClientIP: "127.0.0.1"}); err != nil {
			t.Errorf("using the reset link: %v", err)
		}
		if _, err := cat.ResetPassword(t.Context(), tools.AcceptIn{Token: token, Password: "another long password", ClientIP: "127.0.0.1"}); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("using the reset link twice: %v, want not_found", err)
		}

		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"invitation", "list", "--project", f.project, "--workspace", f.workspace}, "not both"},
			{[]string{"invitation", "revoke", "--id", "00000000-0000-0000-0000-000000000000"}, "not found"},
			{[]string{"invitation", "revoke", "--id", "nonsense"}, "not found"},
			{[]string{"user", "reset-link", "--user", "ghost@acme.test"}, "no user"},
		} {
			if line := fails(t, nil, append(tc.args, db...)...); !strings.Contains(line, tc.want) {
				t.Errorf("%v: %q, want %q", tc.args, line, tc.want)
			}
		}
	})
}
