package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestDisabledAndDeletedUser: a disabled user's personal token answers 401 (refused at
// authentication, not revoked), their session ends and sign-in is refused; enabling makes
// the same token work again. A deleted user's history still names them by email. The
// workspace's last enabled owner can be neither disabled nor deleted.
func TestDisabledAndDeletedUser(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		ctx := sys(t)
		const pw = "a long enough password"
		if err := s.cat.SetPassword(ctx, s.user.ID, pw); err != nil {
			t.Fatal(err)
		}
		in, err := s.cat.SignIn(t.Context(), tools.SignInIn{Email: s.user.Email, Password: pw, ClientIP: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		s.sync(t, "en", "common", map[string]string{"hello": "Hello"})
		s.call(t, "GET", s.readPath("en", "common"), bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK)

		if _, err := s.cat.DisableUser(ctx, s.user.ID); model.ErrorCode(err) != model.CodeConflict || !strings.Contains(err.Error(), s.user.Email) {
			t.Errorf("disabling the only owner: %v, want a conflict naming them", err)
		}
		boss, err := s.cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: s.ws.ID, Email: "boss@acme.test", Role: model.RoleOwner})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.cat.DisableUser(ctx, s.user.ID); err != nil {
			t.Fatal(err)
		}
		// The other owner is disabled: boss is the last enabled one and stays an owner.
		if _, err := s.cat.SetUserRole(ctx, boss.ID, model.RoleMember); model.ErrorCode(err) != model.CodeConflict {
			t.Errorf("demoting the last enabled owner: %v, want a conflict", err)
		}
		s.call(t, "GET", s.readPath("en", "common"), bearerAuth(s.pat), nil).wantStatus(t, http.StatusUnauthorized).wantError(t, model.CodeUnauthorized)
		if _, _, err := s.cat.OpenSession(t.Context(), in.Token); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("the disabled user's session: %v, want it ended", err)
		}
		if _, err := s.cat.SignIn(t.Context(), tools.SignInIn{Email: s.user.Email, Password: pw, ClientIP: "127.0.0.2"}); err == nil || !strings.Contains(err.Error(), "disabled") {
			t.Errorf("sign-in of a disabled user: %v", err)
		}
		if _, err := s.cat.DeleteUser(ctx, boss.ID); model.ErrorCode(err) != model.CodeConflict {
			t.Errorf("deleting the last enabled owner: %v, want a conflict", err)
		}
		if _, err := s.cat.EnableUser(ctx, s.user.ID); err != nil {
			t.Fatal(err)
		}
		s.call(t, "GET", s.readPath("en", "common"), bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK)

		// A change made with the token, then the user deleted: history keeps the email.
		s.call(t, "PUT", s.overwritePath("nb", "common"), bearerAuth(s.pat), map[string]string{"hello": "Hei"}).wantStatus(t, http.StatusOK)
		if _, err := s.cat.DeleteUser(ctx, s.user.ID); err != nil {
			t.Fatal(err)
		}
		s.call(t, "GET", s.readPath("en", "common"), bearerAuth(s.pat), nil).wantStatus(t, http.StatusUnauthorized)
		names, err := s.cat.ActorNames(ctx, s.proj.ID, []string{"user:" + s.user.ID})
		if err != nil {
			t.Fatal(err)
		}
		if got := names["user:"+s.user.ID]; !strings.Contains(got, s.user.Email) {
			t.Errorf("a deleted user's history names them %q, want their email %s", got, s.user.Email)
		}
	})
}
