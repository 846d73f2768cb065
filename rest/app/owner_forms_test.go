package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

// TestWorkspaceAIFormOwnersOnly: the Connect page offers the workspace's own AI provider
// form to owners only; a manager reads who sets it instead, and a manager's post is still
// refused (403) with nothing stored.
func TestWorkspaceAIFormOwnersOnly(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		p := "/app/p/" + e.f.Project.ID
		owner := e.browser(t)
		owner.signIn(t, e.f.User.Email)
		owner.get(t, p+"/connect").want(t, http.StatusOK, `action="`+p+`/connect/ai/workspace"`)

		mgr := e.memberBrowser(t, "mgr@acme.test", model.RoleManager)
		page := mgr.get(t, p+"/connect").want(t, http.StatusOK, `action="`+p+`/connect/ai"`, `id="workspace-ai-owners"`)
		if strings.Contains(page.body, "/connect/ai/workspace") {
			t.Errorf("a manager's Connect page offers the owners' workspace AI form")
		}
		mgr.post(t, p+"/connect/ai/workspace", url.Values{"base_url": {"http://127.0.0.1:9/v1"}, "model": {"m"}}, true).want(t, http.StatusForbidden)
		if page := owner.get(t, p+"/connect"); strings.Contains(page.body, "127.0.0.1:9") {
			t.Errorf("a manager's refused post changed the workspace's provider")
		}
	})
}

// TestLimitsSayCharacters: a length limit the editor refuses is said in characters, with
// how letters beyond ASCII count, not in bytes.
func TestLimitsSayCharacters(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		mgr := e.memberBrowser(t, "mgr@acme.test", model.RoleManager)
		tp := "/app/p/" + e.f.Project.ID + "/terminology"
		page := mgr.post(t, tp+"/glossary", url.Values{"source": {"Cart"}, "target": {strings.Repeat("ü", 300)}, "locale": {"nb"}}, true).
			want(t, http.StatusBadRequest, `id="glossary-error"`, "target_term must be 1 to 500 characters of text (letters beyond ASCII count 2 to 4 each)")
		if strings.Contains(page.body, "bytes") {
			t.Errorf("the refusal speaks of bytes")
		}
	})
}
