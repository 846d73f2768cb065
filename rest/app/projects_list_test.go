package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestProjectsListNamesTargets: the projects list shows the source language, then the
// target languages without the source again, each named.
func TestProjectsListNamesTargets(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		b.get(t, "/app/").want(t, http.StatusOK, "en — English → nb — Norwegian Bokmål, sv — Swedish</span>")
	})
}

// TestProjectsListWithoutARole: a user of the workspace with no role on any of its
// projects reads that they have none yet and the owners to ask, not that the workspace has
// no projects.
func TestProjectsListWithoutARole(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		u, err := e.cat.CreateUser(e.sys(t), tools.CreateUserIn{WorkspaceID: e.f.Workspace.ID, Email: "new@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.cat.SetPassword(e.sys(t), u.ID, password); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, "new@acme.test")
		p := b.get(t, "/app/").want(t, http.StatusOK, `id="no-role"`, "You have no role on a project yet", e.f.User.Email)
		if strings.Contains(p.body, "has no projects yet") {
			t.Errorf("a member without a role is told the workspace has no projects")
		}
	})
}
