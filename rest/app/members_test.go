package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

var inviteLink = regexp.MustCompile(`<code id="invite-link">[^<]*(/app/invite/inv_[0-9a-f]+)</code>`)

// TestInvitationEndToEnd: the owner invites a translator of nb from the members page; the
// link, shown once, lets the invitee set a password and lands them signed in; it works
// once. The new translator sees the project, saves nb, and the server refuses their
// approval and the Connect page (a manager's) whatever the page shows.
func TestInvitationEndToEnd(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		owner := e.browser(t)
		owner.signIn(t, e.f.User.Email)
		id := e.f.Project.ID
		owner.get(t, "/app/p/"+id+"/members").want(t, http.StatusOK, "Invite someone", "No one has a role")
		bad := owner.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {"new@acme.test"}, "role": {"translator"}, "languages": {"fr"}}, true)
		bad.want(t, http.StatusBadRequest, "invite-error", `value="new@acme.test"`)
		p := owner.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {"new@acme.test"}, "role": {"translator"}, "languages": {"nb"}}, true)
		p.want(t, http.StatusCreated, "new@acme.test")
		m := inviteLink.FindStringSubmatch(p.body)
		if m == nil {
			t.Fatalf("no invitation link on the page: %.800s", p.body)
		}
		if again := owner.get(t, "/app/p/"+id+"/members"); strings.Contains(again.body, m[1]) {
			t.Errorf("the link is shown again on a reload")
		}

		guest := e.browser(t)
		form := guest.get(t, m[1]).want(t, http.StatusOK, "new@acme.test")
		csrf := signinCSRF(t, form.body)
		guest.post(t, m[1], url.Values{"csrf": {csrf}, "password": {"long enough pw"}, "password2": {"different pw!"}}, false).
			want(t, http.StatusBadRequest, "differ")
		done := guest.post(t, m[1], url.Values{"csrf": {csrf}, "password": {"long enough pw"}, "password2": {"long enough pw"}}, false)
		if done.status != http.StatusSeeOther {
			t.Fatalf("accepting: %d %.400s", done.status, done.body)
		}
		guest.get(t, "/app/").want(t, http.StatusOK, "Web app")
		guest.get(t, "/app/p/"+id+"/").want(t, http.StatusOK, "your role: translator")
		if p := e.browser(t).get(t, m[1]); p.status != http.StatusNotFound {
			t.Errorf("the link a second time: %d, want 404", p.status)
		}

		// The translator's rights are the server's: save nb, no approval, no Connect page.
		rows, err := e.cat.ReviewQueue(e.sys(t), tools.ReviewIn{ProjectID: id, Language: "nb"})
		if err != nil || len(rows.Rows) == 0 {
			t.Fatalf("queue: %v", err)
		}
		r := rows.Rows[0]
		save := guest.post(t, "/app/p/"+id+"/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hei du"},
			"version": {r.Version}}, true)
		if save.status >= 400 {
			t.Errorf("the translator saving nb: %d %.300s", save.status, save.body)
		}
		approve := guest.post(t, "/app/p/"+id+"/review/nb/approve", url.Values{"sel": {"common\tgreeting\t" + r.Version}}, true)
		if approve.status != http.StatusForbidden {
			t.Errorf("the translator approving: %d, want 403; %.300s", approve.status, approve.body)
		}
		// Connect keeps to the translator's own tokens, which carry the role: the token
		// minted there writes nb and is refused sv.
		if c := guest.get(t, "/app/p/"+id+"/connect").want(t, http.StatusOK, "tokens-only"); strings.Contains(c.body, `id="keys-h"`) {
			t.Errorf("a translator's Connect page lists the project's keys")
		}
		if p := guest.post(t, "/app/p/"+id+"/connect/keys/revoke", url.Values{"id": {"x"}, "confirm": {"1"}}, true); p.status != http.StatusForbidden {
			t.Errorf("a translator revoking a key: %d, want 403", p.status)
		}
		made := guest.post(t, "/app/p/"+id+"/connect/tokens", url.Values{"scope": {"workspace"}}, true).want(t, http.StatusCreated)
		tok := regexp.MustCompile(`pat_ws_[0-9a-f]+`).FindString(made.body)
		pr, err := e.cat.Authenticate(t.Context(), tok)
		if err != nil {
			t.Fatalf("the minted token %q: %v", tok, err)
		}
		as := model.WithPrincipal(t.Context(), pr)
		if _, err := e.cat.UpdateTranslation(as, tools.UpdateTranslationIn{RowRef: e.ref("common", "greeting", "sv"), Value: "Hej"}); model.ErrorCode(err) != model.CodeForbidden {
			t.Errorf("the translator's minted token writing sv: %v, want forbidden", err)
		}
		if _, err := e.cat.UpdateTranslation(as, tools.UpdateTranslationIn{RowRef: e.ref("common", "greeting", "nb"), Value: "Hei igjen"}); err != nil {
			t.Errorf("the translator's minted token writing nb: %v", err)
		}
		guest.get(t, "/app/p/"+id+"/members").want(t, http.StatusForbidden)
		if p := guest.post(t, "/app/p/"+id+"/members/invite", url.Values{"email": {"x@acme.test"}, "role": {"reviewer"}}, true); p.status != http.StatusForbidden {
			t.Errorf("the translator inviting: %d, want 403", p.status)
		}
		ms, err := e.cat.ListMembers(e.sys(t), id)
		if err != nil || len(ms) != 1 || ms[0].Email != "new@acme.test" || ms[0].Role != model.RoleTranslator {
			t.Errorf("members after the invitation: %+v %v", ms, err)
		}
	})
}

func signinCSRF(t *testing.T, body string) string {
	t.Helper()
	m := signinField.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF field: %.300s", body)
	}
	return m[1]
}
