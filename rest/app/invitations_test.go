package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

var (
	pendingRow = regexp.MustCompile(`<tr id="invitation-([0-9a-f-]+)"><td data-label="Email">([^<]+)</td><td data-label="Role">([^<]+)</td>`)
	resetLink  = regexp.MustCompile(`<code id="reset-link">[^<]*(/app/reset/rst_[0-9a-f]+)</code>`)
)

// pending returns the pending invitations a members page lists, email to id.
func pending(t *testing.T, p page) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range pendingRow.FindAllStringSubmatch(p.body, -1) {
		out[m[2]+" "+m[3]] = m[1]
	}
	return out
}

// invite posts the invitation form and returns the link's path.
func (b *browser) invite(t *testing.T, email, role string, langs ...string) string {
	t.Helper()
	p := b.post(t, "/app/p/"+b.e.f.Project.ID+"/members/invite", url.Values{"email": {email}, "role": {role}, "languages": langs}, true)
	p.want(t, http.StatusCreated, email)
	m := inviteLink.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no invitation link on the page: %.800s", p.body)
	}
	return m[1]
}

// accept sets a password on a link's page (an invitation's or a reset's) and answers the
// page's answer.
func (b *browser) accept(t *testing.T, link, pw string) page {
	t.Helper()
	form := b.get(t, link).want(t, http.StatusOK)
	csrf := signinCSRF(t, form.body)
	return b.post(t, link, url.Values{"csrf": {csrf}, "password": {pw}, "password2": {pw}}, false)
}

// TestPendingInvitations: the members page lists pending invitations with who invited and
// revokes them; a revoked link answers as an expired one; a manager sees and revokes the
// project's invitations but never an owner's (403, forged or not); a translator
// invitation without a language is refused beside the form.
func TestPendingInvitations(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		id := e.f.Project.ID
		e.member(t, "lead@acme.test", model.RoleManager)
		owner, manager := e.browser(t), e.browser(t)
		owner.signIn(t, e.f.User.Email)
		manager.signIn(t, "lead@acme.test")

		owner.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {"nolang@acme.test"}, "role": {"translator"}}, true).
			want(t, http.StatusBadRequest, "invite-error", "needs at least one language", `value="nolang@acme.test"`)
		owner.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {"nolang@acme.test"}, "role": {"reviewer"}}, true).
			want(t, http.StatusBadRequest, "needs at least one language")
		wrong := owner.invite(t, "wrong@acme.test", "translator", "nb")
		boss := owner.invite(t, "boss@acme.test", "owner")
		mine := manager.invite(t, "helper@acme.test", "reviewer", "sv")
		manager.invite(t, "second@acme.test", "manager")

		all := pending(t, owner.get(t, "/app/p/"+id+"/members").want(t, http.StatusOK, "Pending invitations", "lead@acme.test"))
		if len(all) != 4 || all["boss@acme.test owner"] == "" || all["wrong@acme.test translator"] == "" || all["helper@acme.test reviewer"] == "" {
			t.Fatalf("the owner's pending list: %v", all)
		}
		mp := manager.get(t, "/app/p/"+id+"/members").want(t, http.StatusOK, "Pending invitations")
		if got := pending(t, mp); len(got) != 3 || got["boss@acme.test owner"] != "" {
			t.Errorf("the manager's pending list: %v, want the project's three and no owner invitation", got)
		}
		if !strings.Contains(mp.body, e.f.User.Email) {
			t.Errorf("the pending list does not say who invited")
		}

		// A manager may not revoke an owner invitation; the link still works.
		manager.post(t, "/app/p/"+id+"/members/invitations/revoke", url.Values{"invitation": {all["boss@acme.test owner"]}}, true).
			want(t, http.StatusForbidden)
		if p := e.browser(t).get(t, boss); p.status != http.StatusOK {
			t.Errorf("the owner invitation after the manager's try: %d, want 200", p.status)
		}
		// Without the session's CSRF token nothing is revoked.
		if p := manager.post(t, "/app/p/"+id+"/members/invitations/revoke", url.Values{"invitation": {all["wrong@acme.test translator"]}}, false); p.status < 400 {
			t.Errorf("a revoke without CSRF: %d", p.status)
		}
		// The manager revokes the owner's translator invitation; the link is refused as an
		// expired one is, and cannot be accepted.
		done := manager.post(t, "/app/p/"+id+"/members/invitations/revoke", url.Values{"invitation": {all["wrong@acme.test translator"]}}, true)
		if done.status != http.StatusSeeOther || !strings.Contains(done.header.Get("Location"), "wrong%40acme.test") {
			t.Fatalf("revoking: %d %q", done.status, done.header.Get("Location"))
		}
		guest := e.browser(t)
		guest.get(t, wrong).want(t, http.StatusNotFound, "this invitation link is not valid")
		if p := guest.post(t, wrong, url.Values{"csrf": {"x"}, "password": {password}, "password2": {password}}, false); p.status < 400 {
			t.Errorf("accepting a revoked link: %d", p.status)
		}
		if _, err := e.cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: strings.TrimPrefix(wrong, "/app/invite/"), Password: password, ClientIP: "127.0.0.9"}); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("the catalogue accepting a revoked link: %v, want not_found", err)
		}
		// Revoked twice: said beside the list.
		manager.post(t, "/app/p/"+id+"/members/invitations/revoke", url.Values{"invitation": {all["wrong@acme.test translator"]}}, true).
			want(t, http.StatusConflict, "revoke-error", "wrong@acme.test")

		// The owner revokes the owner invitation.
		owner.post(t, "/app/p/"+id+"/members/invitations/revoke", url.Values{"invitation": {all["boss@acme.test owner"]}}, true).want(t, http.StatusSeeOther)
		guest.get(t, boss).want(t, http.StatusNotFound)
		left := pending(t, owner.get(t, "/app/p/"+id+"/members"))
		if len(left) != 2 || left["helper@acme.test reviewer"] == "" {
			t.Errorf("pending after revoking two: %v", left)
		}
		// The invitation the manager made still works.
		if p := guest.accept(t, mine, "helper's password"); p.status != http.StatusSeeOther {
			t.Errorf("accepting a pending invitation: %d %.300s", p.status, p.body)
		}
		if left := pending(t, owner.get(t, "/app/p/"+id+"/members")); len(left) != 1 {
			t.Errorf("an accepted invitation is still pending: %v", left)
		}
	})
}

// TestUnconfirmedAccountTakenOver: an account made under a colleague's address (never
// confirmed) does not block their invitation; accepting proves the address and the
// account is the invitee's: their password, the invitation's role, the old password,
// sessions and tokens gone. A confirmed user still blocks an invitation.
func TestUnconfirmedAccountTakenOver(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		id := e.f.Project.ID
		held := e.member(t, "colleague@acme.test", model.RoleTranslator, "nb")
		tok, err := e.cat.CreateToken(e.sys(t), tools.CreateTokenIn{UserID: held.ID, WorkspaceID: e.f.Workspace.ID})
		if err != nil {
			t.Fatal(err)
		}
		squatter := e.browser(t)
		squatter.signIn(t, "colleague@acme.test")

		owner := e.browser(t)
		owner.signIn(t, e.f.User.Email)
		owner.get(t, "/app/p/"+id+"/members").want(t, http.StatusOK, "colleague@acme.test <span class=\"muted unconfirmed\">(address not confirmed)")
		owner.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {e.f.User.Email}, "role": {"manager"}}, true).
			want(t, http.StatusConflict, "give them a role instead")
		link := owner.invite(t, "colleague@acme.test", "reviewer", "sv")

		real := e.browser(t)
		if p := real.accept(t, link, "the real one's password"); p.status != http.StatusSeeOther {
			t.Fatalf("accepting: %d %.400s", p.status, p.body)
		}
		real.get(t, "/app/p/"+id+"/").want(t, http.StatusOK, "your role: reviewer")

		if p := e.browser(t).trySignIn(t, "colleague@acme.test", password); p.status == http.StatusSeeOther {
			t.Errorf("the old password still signs in")
		}
		if p := squatter.get(t, "/app/p/"+id+"/"); p.status == http.StatusOK {
			t.Errorf("the squatter's session still opens the project")
		}
		if _, err := e.cat.Authenticate(t.Context(), tok.Token); err == nil {
			t.Errorf("the squatter's token still works")
		}
		m, ok := e.memberOf(t, held.ID)
		if !ok || m.Role != model.RoleReviewer || strings.Join(m.Languages, ",") != "sv" || !m.Confirmed {
			t.Errorf("the account after acceptance: %+v %v, want the same user, a confirmed reviewer of sv", m, ok)
		}
		if p := owner.get(t, "/app/p/"+id+"/members"); strings.Contains(p.body, "colleague@acme.test <span class=\"muted unconfirmed\">") {
			t.Errorf("the account is still marked unconfirmed")
		}
		// Confirmed now: a second invitation is refused.
		owner.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {"colleague@acme.test"}, "role": {"manager"}}, true).
			want(t, http.StatusConflict, "give them a role instead")
	})
}

// TestResetLink: an owner makes a user's password-reset link on the members page (a
// manager may not); its page sets the password, confirms the address and ends the user's
// other sessions; it works once, a newer link revokes it, and none works after 24 hours
// (fake clock).
func TestResetLink(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		var offset atomic.Int64
		e := newEnv(t, d, &tools.Options{Now: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }})
		id := e.f.Project.ID
		u := e.member(t, "forgot@acme.test", model.RoleTranslator, "nb")
		e.member(t, "lead@acme.test", model.RoleManager)
		owner, manager, old := e.browser(t), e.browser(t), e.browser(t)
		owner.signIn(t, e.f.User.Email)
		manager.signIn(t, "lead@acme.test")
		old.signIn(t, "forgot@acme.test")

		manager.post(t, "/app/p/"+id+"/members/reset", url.Values{"user": {u.ID}}, true).want(t, http.StatusForbidden)
		made := owner.post(t, "/app/p/"+id+"/members/reset", url.Values{"user": {u.ID}}, true).want(t, http.StatusCreated, "forgot@acme.test")
		m := resetLink.FindStringSubmatch(made.body)
		if m == nil {
			t.Fatalf("no reset link on the page: %.600s", made.body)
		}
		if again := owner.get(t, "/app/p/"+id+"/members"); strings.Contains(again.body, m[1]) {
			t.Errorf("the reset link is shown again on a reload")
		}

		user := e.browser(t)
		user.get(t, m[1]).want(t, http.StatusOK, "Set a new password", "forgot@acme.test")
		if p := user.accept(t, m[1], "a brand new password"); p.status != http.StatusSeeOther {
			t.Fatalf("resetting: %d %.400s", p.status, p.body)
		}
		user.get(t, "/app/p/"+id+"/").want(t, http.StatusOK, "your role: translator")
		if p := old.get(t, "/app/p/"+id+"/"); p.status == http.StatusOK {
			t.Errorf("the user's other session survived the reset")
		}
		if p := e.browser(t).trySignIn(t, "forgot@acme.test", password); p.status == http.StatusSeeOther {
			t.Errorf("the old password still signs in")
		}
		if p := e.browser(t).trySignIn(t, "forgot@acme.test", "a brand new password"); p.status != http.StatusSeeOther {
			t.Errorf("the new password: %d", p.status)
		}
		if mv, _ := e.memberOf(t, u.ID); !mv.Confirmed {
			t.Errorf("the address is not confirmed after the reset")
		}
		e.browser(t).get(t, m[1]).want(t, http.StatusNotFound, "password-reset link is not valid")

		// A new link revokes the one made before; the last expires after ResetLinkLifetime.
		made = owner.post(t, "/app/p/"+id+"/members/reset", url.Values{"user": {"forgot@acme.test"}}, true).want(t, http.StatusCreated)
		first := resetLink.FindStringSubmatch(made.body)
		made = owner.post(t, "/app/p/"+id+"/members/reset", url.Values{"user": {"forgot@acme.test"}}, true).want(t, http.StatusCreated)
		m = resetLink.FindStringSubmatch(made.body)
		if first == nil || m == nil {
			t.Fatalf("no second or third reset link")
		}
		e.browser(t).get(t, first[1]).want(t, http.StatusNotFound, "password-reset link is not valid")
		e.browser(t).get(t, m[1]).want(t, http.StatusOK, "forgot@acme.test")
		offset.Store(int64(tools.ResetLinkLifetime + time.Minute))
		e.browser(t).get(t, m[1]).want(t, http.StatusNotFound, "password-reset link is not valid")
		// An invitation's token is no reset link.
		e.browser(t).get(t, "/app/reset/inv_00").want(t, http.StatusNotFound)
	})
}
