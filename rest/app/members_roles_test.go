package app_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// member adds a user of the fixture's workspace with a password and, unless role is "",
// a role on the fixture's project.
func (e *env) member(t *testing.T, email, role string, langs ...string) model.User {
	t.Helper()
	u, err := e.cat.CreateUser(e.sys(t), tools.CreateUserIn{WorkspaceID: e.f.Workspace.ID, Email: email})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cat.SetPassword(e.sys(t), u.ID, password); err != nil {
		t.Fatal(err)
	}
	if role != "" {
		if _, err := e.cat.SetMember(e.sys(t), tools.SetMemberIn{ProjectID: e.f.Project.ID, User: u.ID, Role: role, Languages: langs}); err != nil {
			t.Fatal(err)
		}
	}
	return u
}

func (e *env) memberOf(t *testing.T, userID string) (tools.MemberView, bool) {
	t.Helper()
	ms, err := e.cat.ListMembers(e.sys(t), e.f.Project.ID)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ms, func(m tools.MemberView) bool { return m.UserID == userID })
	if i < 0 {
		return tools.MemberView{}, false
	}
	return ms[i], true
}

// TestMembersPage: a manager changes a member's role and languages and removes them (the
// removal asks for the box to be ticked); a refused change is said beside its form with
// what was typed; an owner makes another user an owner, never leaves the workspace
// without one and gives up their own ownership only when they confirm it. Translators,
// reviewers and managers get 403 from the server for what is not theirs, forged or not.
func TestMembersPage(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		id := e.f.Project.ID
		p := "/app/p/" + id + "/members"
		manager := e.member(t, "manager@acme.test", model.RoleManager)
		tr := e.member(t, "translator@acme.test", model.RoleTranslator, "nb")
		rv := e.member(t, "reviewer@acme.test", model.RoleReviewer, "sv")

		mb := e.browser(t)
		mb.signIn(t, manager.Email)
		page := mb.get(t, p).want(t, http.StatusOK, `id="member-`+tr.ID+`"`, "Norwegian Bokmål", `aria-label="Remove translator@acme.test from this project"`)
		if strings.Contains(page.body, `id="users"`) {
			t.Errorf("a manager sees the workspace's owners form")
		}
		// A translator made a reviewer of nb and sv.
		mb.post(t, p+"/set", url.Values{"user": {tr.ID}, "role": {"reviewer"}, "languages": {"nb", "sv"}}, true).want(t, http.StatusSeeOther)
		if m, _ := e.memberOf(t, tr.ID); m.Role != model.RoleReviewer || !slices.Equal(m.Languages, []string{"nb", "sv"}) {
			t.Errorf("after the change: %+v", m)
		}
		mb.get(t, p+"?done=x").want(t, http.StatusOK)
		// A language the project lacks: refused in place, the typed role and languages kept.
		bad := mb.post(t, p+"/set", url.Values{"user": {tr.ID}, "role": {"translator"}, "languages": {"sv", "de"}}, true).
			want(t, http.StatusBadRequest, `id="set-error-`+tr.ID+`"`)
		row := bad.body[strings.Index(bad.body, `id="member-`+tr.ID+`"`):]
		row = row[:strings.Index(row, "</tr>")]
		if !strings.Contains(row, `<option value="translator" selected>`) || !strings.Contains(row, `value="sv" checked`) || strings.Contains(row, `value="nb" checked`) {
			t.Errorf("the refused form does not keep what was typed: %s", row)
		}
		if m, _ := e.memberOf(t, tr.ID); m.Role != model.RoleReviewer {
			t.Errorf("a refused change changed the member: %+v", m)
		}
		// Removing asks for the box first.
		mb.post(t, p+"/remove", url.Values{"user": {rv.ID}}, true).want(t, http.StatusBadRequest, `id="remove-error-`+rv.ID+`"`, "tick the box")
		if _, ok := e.memberOf(t, rv.ID); !ok {
			t.Fatalf("removed without the confirmation")
		}
		mb.post(t, p+"/remove", url.Values{"user": {rv.ID}, "confirm": {"1"}}, true).want(t, http.StatusSeeOther)
		if _, ok := e.memberOf(t, rv.ID); ok {
			t.Errorf("still a member after a confirmed removal")
		}
		mb.post(t, p+"/remove", url.Values{"user": {rv.ID}, "confirm": {"1"}}, true).want(t, http.StatusNotFound, `id="form-error"`)
		// A user of the workspace without a role is given one by email; an unknown email is
		// said beside that form, what was typed kept.
		later := e.member(t, "later@acme.test", "")
		mb.post(t, p+"/set", url.Values{"add": {"1"}, "user": {"ghost@acme.test"}, "role": {"reviewer"}, "languages": {"sv"}}, true).
			want(t, http.StatusNotFound, `id="add-error"`, `value="ghost@acme.test"`, `<option value="reviewer" selected>`, `value="sv" checked`)
		mb.post(t, p+"/set", url.Values{"add": {"1"}, "user": {"later@acme.test"}, "role": {"reviewer"}, "languages": {"sv"}}, true).want(t, http.StatusSeeOther)
		if m, ok := e.memberOf(t, later.ID); !ok || m.Role != model.RoleReviewer || !slices.Equal(m.Languages, []string{"sv"}) {
			t.Errorf("the user given a role: %+v %v", m, ok)
		}
		// A manager stepping down asks first; the catalogue then narrows them at once.
		mb.get(t, p).want(t, http.StatusOK, "I give up managing this project")
		mb.post(t, p+"/set", url.Values{"user": {manager.ID}, "role": {"translator"}, "languages": {"nb"}}, true).
			want(t, http.StatusBadRequest, `id="set-error-`+manager.ID+`"`, "no longer manage")
		if m, _ := e.memberOf(t, manager.ID); m.Role != model.RoleManager {
			t.Fatalf("stepped down without the confirmation: %+v", m)
		}
		// A manager does not make owners.
		mb.post(t, p+"/owner", url.Values{"user": {manager.ID}, "role": {"owner"}}, true).want(t, http.StatusForbidden, "Not allowed")

		// A reviewer (the translator made one) is refused every form, and the page.
		rb := e.browser(t)
		rb.signIn(t, tr.Email)
		rb.get(t, p).want(t, http.StatusForbidden)
		for path, form := range map[string]url.Values{
			"/set":    {"user": {tr.ID}, "role": {"manager"}},
			"/remove": {"user": {manager.ID}, "confirm": {"1"}},
			"/owner":  {"user": {tr.ID}, "role": {"owner"}},
			"/invite": {"email": {"friend@acme.test"}, "role": {"manager"}},
		} {
			rb.post(t, p+path, form, true).want(t, http.StatusForbidden, "Not allowed")
		}
		if m, _ := e.memberOf(t, tr.ID); m.Role != model.RoleReviewer {
			t.Errorf("a forged post changed the reviewer's role: %+v", m)
		}

		// The owner: the last owner stays one; another owner is made, then the owner gives
		// up their own ownership only with the box ticked.
		ob := e.browser(t)
		ob.signIn(t, e.f.User.Email)
		ob.get(t, p).want(t, http.StatusOK, `id="users"`, `id="wsrole-`+manager.ID+`"`, "I give up owning the workspace")
		last := ob.post(t, p+"/owner", url.Values{"user": {e.f.User.ID}, "role": {"member"}, "confirm": {"1"}}, true).
			want(t, http.StatusConflict, `id="owner-error-`+e.f.User.ID+`"`, "only owner")
		own := last.body[strings.Index(last.body, `id="user-`+e.f.User.ID+`"`):]
		if own = own[:strings.Index(own, "</tr>")]; !strings.Contains(own, `<option value="member" selected>`) {
			t.Errorf("the refused workspace role is not kept: %s", own)
		}
		ob.post(t, p+"/owner", url.Values{"user": {manager.ID}, "role": {"owner"}}, true).want(t, http.StatusSeeOther)
		ob.post(t, p+"/owner", url.Values{"user": {e.f.User.ID}, "role": {"member"}}, true).
			want(t, http.StatusBadRequest, `id="owner-error-`+e.f.User.ID+`"`, "tick the box")
		if u := ob.post(t, p+"/owner", url.Values{"user": {e.f.User.ID}, "role": {"member"}, "confirm": {"1"}}, true); u.status != http.StatusSeeOther || u.header.Get("Location") != "/app/" {
			t.Fatalf("giving up ownership: %d %s", u.status, u.header.Get("Location"))
		}
		// No role on the project: the former owner sees nothing of it now.
		ob.get(t, p).want(t, http.StatusForbidden)
		mb.get(t, p).want(t, http.StatusOK, `id="users"`)
	})
}
