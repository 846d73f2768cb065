package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestEditorOperatorVerbs: an owner archives, restores and deletes a project from its
// settings page (deleting needs the title typed back) and disables, enables and deletes a
// user from the members page; a manager is shown none of it and is refused if they post.
// A disabled user's browser session ends at once.
func TestEditorOperatorVerbs(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		ctx := e.sys(t)
		mgr, err := e.cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: e.f.Workspace.ID, Email: "mgr@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.SetMember(ctx, tools.SetMemberIn{ProjectID: e.f.Project.ID, User: mgr.ID, Role: model.RoleManager}); err != nil {
			t.Fatal(err)
		}
		if err := e.cat.SetPassword(ctx, mgr.ID, password); err != nil {
			t.Fatal(err)
		}
		settings := "/app/p/" + e.f.Project.ID + "/settings"
		members := "/app/p/" + e.f.Project.ID + "/members"

		mb := e.browser(t)
		mb.signIn(t, mgr.Email)
		if p := mb.get(t, settings).want(t, http.StatusOK); strings.Contains(p.body, `id="archive"`) {
			t.Error("a manager is shown the archive form")
		}
		mb.post(t, settings+"/archive", url.Values{"archive": {"1"}}, true).want(t, http.StatusForbidden)

		ob := e.browser(t)
		ob.signIn(t, e.f.User.Email)
		ob.get(t, settings).want(t, http.StatusOK, `id="archive"`, "Archive project")
		ob.post(t, settings+"/archive", url.Values{"archive": {"1"}}, true).want(t, http.StatusSeeOther)
		ob.get(t, settings).want(t, http.StatusOK, `id="archived-note"`, "Restore project")
		ob.get(t, "/app/").want(t, http.StatusOK, e.f.Project.Title+`</a> <span class="badge">archived</span>`)
		mb.get(t, "/app/p/"+e.f.Project.ID+"/").want(t, http.StatusOK, `id="archived-banner"`)
		ob.post(t, settings+"/title", url.Values{"title": {"Renamed"}}, true).want(t, http.StatusConflict, "archived")
		ob.post(t, settings+"/archive", url.Values{"archive": {"0"}}, true).want(t, http.StatusSeeOther)
		ob.post(t, settings+"/title", url.Values{"title": {e.f.Project.Title}}, true).want(t, http.StatusSeeOther)

		// Users: the manager is disabled (their session ends), enabled, then deleted.
		ob.get(t, members).want(t, http.StatusOK, "Disable mgr@acme.test")
		ob.post(t, members+"/user-state", url.Values{"user": {mgr.ID}, "state": {"disable"}}, true).want(t, http.StatusSeeOther)
		mb.get(t, settings).want(t, http.StatusSeeOther)
		ob.get(t, members).want(t, http.StatusOK, "mgr@acme.test (disabled)", "Enable mgr@acme.test")
		ob.post(t, members+"/user-state", url.Values{"user": {mgr.ID}, "state": {"enable"}}, true).want(t, http.StatusSeeOther)
		// A state the form does not offer is refused, even with the delete box ticked.
		ob.post(t, members+"/user-state", url.Values{"user": {mgr.ID}, "state": {"bogus"}, "confirm": {"1"}}, true).want(t, http.StatusBadRequest, "choose disable, enable or delete")
		ob.get(t, members).want(t, http.StatusOK, "Disable mgr@acme.test")
		ob.post(t, members+"/user-state", url.Values{"user": {mgr.ID}, "state": {"delete"}}, true).want(t, http.StatusBadRequest, "tick the box")
		ob.post(t, members+"/user-state", url.Values{"user": {mgr.ID}, "state": {"delete"}, "confirm": {"1"}}, true).want(t, http.StatusSeeOther)
		ob.post(t, members+"/user-state", url.Values{"user": {e.f.User.ID}, "state": {"disable"}}, true).want(t, http.StatusConflict, "your own account")

		ob.post(t, settings+"/delete", url.Values{"confirm_title": {"wrong"}}, true).want(t, http.StatusBadRequest, `id="archive-error"`, "type the project")
		ob.post(t, settings+"/delete", url.Values{"confirm_title": {e.f.Project.Title}}, true).want(t, http.StatusSeeOther)
		ob.get(t, settings).want(t, http.StatusNotFound)
	})
}
