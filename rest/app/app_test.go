package app_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

var versionOf = regexp.MustCompile(`data-key="([^"]+)" data-version="([^"]+)"`)

// versions maps the keys on a review page to the versions it shows.
func versions(body string) map[string]string {
	out := map[string]string{}
	for _, m := range versionOf.FindAllStringSubmatch(body, -1) {
		out[m[1]] = m[2]
	}
	return out
}

func TestSignInAndOut(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		b := e.browser(t)
		p := b.get(t, "/app/")
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/app/signin") {
			t.Fatalf("GET /app/ signed out: %d to %q, want 303 to the sign-in form", p.status, p.header.Get("Location"))
		}
		b.trySignIn(t, e.f.User.Email, "wrong password!").want(t, http.StatusUnauthorized, "wrong email or password")
		b.trySignIn(t, "nobody@example.com", password).want(t, http.StatusUnauthorized, "wrong email or password")
		// The sign-in form's own CSRF token is required.
		b.post(t, "/app/signin", url.Values{"email": {e.f.User.Email}, "password": {password}}, false).want(t, http.StatusForbidden)

		p = b.trySignIn(t, e.f.User.Email, password).want(t, http.StatusSeeOther)
		var cookie string
		for _, c := range p.header.Values("Set-Cookie") {
			if strings.HasPrefix(c, "lokal_session=") {
				cookie = c
			}
		}
		for _, attr := range []string{"HttpOnly", "SameSite=Lax", "Path=/app/"} {
			if !strings.Contains(cookie, attr) {
				t.Errorf("session cookie %q lacks %s", cookie, attr)
			}
		}
		if strings.Contains(cookie, "Secure") {
			t.Errorf("session cookie %q is Secure on plain http: the browser would drop it", cookie)
		}
		b.get(t, "/app/").want(t, http.StatusOK, e.f.Project.Title, e.f.Sibling.Title)
		if strings.Contains(b.get(t, "/app/").body, e.f.Other.Title) {
			t.Error("the project list shows another workspace's project")
		}
		// Sign-out without the CSRF token is refused and ends nothing.
		b.post(t, "/app/signout", nil, false).want(t, http.StatusForbidden)
		b.get(t, "/app/").want(t, http.StatusOK)

		// A copy of the cookie outlives nothing: sign-out deletes the session row.
		stolen := e.browser(t)
		u, _ := url.Parse(e.srv.URL + "/app/")
		stolen.c.Jar.SetCookies(u, b.c.Jar.Cookies(u))
		b.post(t, "/app/signout", nil, true).want(t, http.StatusSeeOther)
		if p := stolen.get(t, "/app/"); p.status != http.StatusSeeOther {
			t.Errorf("the session still opens /app/ after sign-out: %d", p.status)
		}
		var n int
		if err := storagetest.SQL(t, e.dsn).QueryRow("SELECT COUNT(*) FROM sessions WHERE user_id = '" + e.f.User.ID + "'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d sessions left in the database after sign-out", n)
		}
	})
}

// TestSignInRateLimit: wrong passwords for one email from one address shut that pair
// with 429 and Retry-After through the form; nothing else is shut by them.
func TestSignInRateLimit(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		b := e.browser(t)
		for i := 0; i < tools.SignInBudget.N; i++ {
			b.trySignIn(t, e.f.User.Email, "wrong password!").want(t, http.StatusUnauthorized)
		}
		p := b.trySignIn(t, e.f.User.Email, password).want(t, http.StatusTooManyRequests, "too many failed sign-ins")
		if p.header.Get("Retry-After") != "30" {
			t.Errorf("429 with Retry-After %q, want 30", p.header.Get("Retry-After"))
		}
		b.from = "203.0.113.9"
		b.trySignIn(t, e.f.User.Email, password).want(t, http.StatusSeeOther)
	})
}

// TestSignInCannotLockOut: the lockout of issue 31 through the editor's form: wrong
// passwords for a user's email from many addresses leave their correct password accepted
// from a new one, and twenty colleagues behind one office address all sign in.
func TestSignInCannotLockOut(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		attacker := e.browser(t)
		for i := range 25 {
			attacker.from = fmt.Sprintf("198.51.100.%d", i%12)
			attacker.trySignIn(t, e.f.User.Email, "wrong password!")
		}
		user := e.browser(t)
		user.from = "192.0.2.44"
		user.trySignIn(t, e.f.User.Email, password).want(t, http.StatusSeeOther)

		sys := e.sys(t)
		for i := range 20 {
			u, err := e.cat.CreateUser(sys, tools.CreateUserIn{WorkspaceID: e.f.Workspace.ID, Email: fmt.Sprintf("colleague%d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.cat.SetPassword(sys, u.ID, password); err != nil {
				t.Fatal(err)
			}
			office := e.browser(t)
			office.from = "192.0.2.80"
			office.trySignIn(t, u.Email, password).want(t, http.StatusSeeOther)
		}
	})
}

func TestPasswordChangeEndsSessions(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		if err := e.cat.SetPassword(e.sys(t), e.f.User.ID, "another long password"); err != nil {
			t.Fatal(err)
		}
		if p := b.get(t, "/app/"); p.status != http.StatusSeeOther {
			t.Errorf("a session outlived a password change: %d", p.status)
		}
		if err := e.cat.SetPassword(e.sys(t), e.f.User.ID, "short"); model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("a 5-byte password: %v, want invalid", err)
		}
	})
}

// TestPagesAndForms: every page answers, every form refuses a missing CSRF token and
// changes nothing then, and works with it.
func TestPagesAndForms(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello %{name}", "farewell", "Goodbye <b>friend</b>", "untranslated", "Not yet")
		e.draft(t, "common", "greeting", "nb", "Hei %{name}")
		e.draft(t, "common", "farewell", "nb", "Ha det <b>venn</b>")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		b.get(t, p+"/").want(t, http.StatusOK, "Review a language", `href="`+p+`/review/nb"`)
		q := b.get(t, p+"/review/nb").want(t, http.StatusOK, "greeting", "farewell", `<mark class="ph" title="placeholder">%{name}</mark>`, "AI draft")
		v := versions(q.body)
		b.get(t, p+"/review/nb/row?ns=common&key=greeting").want(t, http.StatusOK, "History", "AI (test-model)")
		b.get(t, p+"/review/nb/revision").want(t, http.StatusOK, `"revision"`)
		b.get(t, p+"/review/nb/rows?keys=1,2,3").want(t, http.StatusOK)
		b.get(t, p+"/connect").want(t, http.StatusOK, "API keys", "personal access tokens", "Embed", "data-lokal-token")
		b.get(t, "/app/static/editor.js").want(t, http.StatusOK, "approve")
		b.get(t, "/app/nothing-here").want(t, http.StatusNotFound)

		forms := []struct {
			path string
			form url.Values
			want int
		}{
			{p + "/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hei på deg %{name}"}, "version": {v["greeting"]}}, http.StatusSeeOther},
			{p + "/review/nb/approve", url.Values{"sel": {"common\tfarewell\t" + v["farewell"]}}, http.StatusSeeOther},
			{p + "/review/nb/comment", url.Values{"ns": {"common"}, "key": {"greeting"}, "body": {"Check the tone"}}, http.StatusSeeOther},
			{p + "/review/nb/flag", url.Values{"ns": {"common"}, "key": {"greeting"}, "flag": {"language_locked:1"}}, http.StatusSeeOther},
			{p + "/review/nb/translate", url.Values{"all": {"1"}}, http.StatusUnprocessableEntity}, // no AI configured: not_configured
			{p + "/connect/keys", url.Values{"access": {"read"}}, http.StatusCreated},
			{p + "/connect/tokens", url.Values{"scope": {"project"}}, http.StatusCreated},
			{p + "/connect/ai", url.Values{"model": {"gpt-test"}, "instructions": {"Be brief."}}, http.StatusSeeOther},
			{p + "/connect/embed", url.Values{"hosts": {"shop.example.com"}, "allowed_origins": {"https://shop.example.com"}, "mode": {"swap"}, "show_switcher": {"1"}}, http.StatusSeeOther},
		}
		for _, f := range forms {
			b.post(t, f.path, f.form, false).want(t, http.StatusForbidden, "CSRF")
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hei %{name}" || len(got.Comments) != 0 || got.LanguageLocked {
			t.Fatalf("a form without its CSRF token changed the row: %+v", got)
		}
		for _, f := range forms {
			b.post(t, f.path, f.form, true).want(t, f.want)
		}
		got := e.row(t, "common", "greeting", "nb")
		if got.Value != "Hei på deg %{name}" || got.Status != model.StatusNeedsReview || len(got.Comments) != 1 || !got.LanguageLocked {
			t.Errorf("greeting after the forms: %+v", got)
		}
		if got := e.row(t, "common", "farewell", "nb"); got.Status != model.StatusApproved {
			t.Errorf("farewell after batch approval: %s", got.Status)
		}
		c := b.get(t, p+"/connect").want(t, http.StatusOK, "shop.example.com", "gpt-test", "Be brief.")
		if strings.Count(c.body, "<code>lk_") != 3 || strings.Count(c.body, "<code>pat_") < 1 {
			t.Errorf("the connect page does not list the new key and token")
		}
		// The JSON check endpoint with and without its header token.
		b.json(t, p+"/review/nb/check", `{"namespace_key":"common","translation_key":"greeting","value":"Hei"}`, false).want(t, http.StatusForbidden)
		b.json(t, p+"/review/nb/check", `{"namespace_key":"common","translation_key":"greeting","value":"Hei"}`, true).want(t, http.StatusOK, "placeholder_mismatch", "%{name}")
	})
}

// TestKeyShownOnce: a new key is in the answer that made it and never again, and a revoked
// key stops working.
func TestKeyShownOnce(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		created := b.post(t, p+"/connect/keys", url.Values{"access": {"write"}}, true).want(t, http.StatusCreated, "shown once", "read/write")
		key := regexp.MustCompile(`id="secret-value" readonly value="(lk_[0-9a-f]+)"`).FindStringSubmatch(created.body)
		if key == nil {
			t.Fatalf("no key in the answer: %.2000s", created.body)
		}
		page := b.get(t, p+"/connect")
		if strings.Contains(page.body, key[1]) {
			t.Fatal("the key is shown again on a later visit")
		}
		read := func() int {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, e.srv.URL+"/api/"+e.f.Project.ID+"/latest/en/common", nil)
			req.Header.Set("Authorization", "Token token="+key[1])
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		if s := read(); s == http.StatusUnauthorized {
			t.Fatalf("the new key is refused: %d", s)
		}
		keys, err := e.cat.ListKeys(e.sys(t), e.f.Project.ID)
		if err != nil {
			t.Fatal(err)
		}
		id := keys[len(keys)-1].ID
		b.post(t, p+"/connect/keys/revoke", url.Values{"id": {id}}, false).want(t, http.StatusForbidden)
		b.post(t, p+"/connect/keys/revoke", url.Values{"id": {id}}, true).want(t, http.StatusBadRequest) // not confirmed
		b.post(t, p+"/connect/keys/revoke", url.Values{"id": {id}, "confirm": {"1"}}, true).want(t, http.StatusSeeOther)
		if s := read(); s != http.StatusUnauthorized {
			t.Errorf("the revoked key answers %d", s)
		}
		// Another project's key cannot be revoked from this project's page.
		others, _ := e.cat.ListKeys(e.sys(t), e.f.Other.ID)
		b.post(t, p+"/connect/keys/revoke", url.Values{"id": {others[0].ID}, "confirm": {"1"}}, true).want(t, http.StatusNotFound)
	})
}

// TestAcrossWorkspaces: a user of another workspace finds none of this workspace's pages or
// forms, and changes nothing through them.
func TestAcrossWorkspaces(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		owner := e.browser(t)
		owner.signIn(t, e.f.User.Email)
		v := versions(owner.get(t, "/app/p/"+e.f.Project.ID+"/review/nb").body)["greeting"]

		b := e.browser(t)
		b.signIn(t, e.f.OtherUser.Email)
		p := "/app/p/" + e.f.Project.ID
		for _, path := range []string{p + "/", p + "/review/nb", p + "/review/nb/row?ns=common&key=greeting", p + "/review/nb/revision", p + "/connect"} {
			b.get(t, path).want(t, http.StatusNotFound)
		}
		for _, f := range []struct {
			path string
			form url.Values
		}{
			{p + "/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hacked"}, "version": {v}, "action": {"approve"}}},
			{p + "/review/nb/approve", url.Values{"sel": {"common\tgreeting\t" + v}}},
			{p + "/review/nb/comment", url.Values{"ns": {"common"}, "key": {"greeting"}, "body": {"x"}}},
			{p + "/review/nb/flag", url.Values{"ns": {"common"}, "key": {"greeting"}, "flag": {"language_locked:1"}}},
			{p + "/connect/keys", url.Values{"access": {"write"}}},
			{p + "/connect/tokens", url.Values{"scope": {"project"}}},
			{p + "/connect/ai", url.Values{"model": {"x"}}},
			{p + "/connect/embed", url.Values{"hosts": {"evil.example"}}},
		} {
			b.post(t, f.path, f.form, true).want(t, http.StatusNotFound)
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hei" || got.Status != model.StatusNeedsReview || got.LanguageLocked || len(got.Comments) != 0 {
			t.Errorf("another workspace's user changed the row: %+v", got)
		}
		b.json(t, p+"/review/nb/check", `{"namespace_key":"common","translation_key":"greeting","value":"x"}`, true).want(t, http.StatusNotFound)
	})
}

// TestEditableLanguages: a reviewer reads every language and changes only the editable ones.
func TestEditableLanguages(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "sv", "Hej")
		only := []string{"nb"}
		if _, err := e.cat.SetProject(e.sys(t), e.f.Project.ID, tools.SetProjectIn{Editable: &only}); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		page := b.get(t, p+"/review/sv").want(t, http.StatusOK, "not an editable language", "readonly")
		v := versions(page.body)["greeting"]
		for _, f := range []struct {
			path string
			form url.Values
		}{
			{p + "/review/sv/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hallå"}, "version": {v}, "action": {"approve"}}},
			{p + "/review/sv/approve", url.Values{"sel": {"common\tgreeting\t" + v}}},
			{p + "/review/sv/comment", url.Values{"ns": {"common"}, "key": {"greeting"}, "body": {"x"}}},
			{p + "/review/sv/flag", url.Values{"ns": {"common"}, "key": {"greeting"}, "flag": {"language_locked:1"}}},
			{p + "/review/sv/translate", url.Values{"all": {"1"}}},
		} {
			b.post(t, f.path, f.form, true).want(t, http.StatusForbidden, "not an editable language")
		}
		if got := e.row(t, "common", "greeting", "sv"); got.Value != "Hej" || got.Status != model.StatusNeedsReview || got.LanguageLocked || len(got.Comments) != 0 {
			t.Errorf("a non-editable row changed: %+v", got)
		}
		b.get(t, p+"/review/en").want(t, http.StatusBadRequest, "source language")
		b.get(t, p+"/review/fr").want(t, http.StatusNotFound)
	})
}

// TestConflict: two reviewers open the same row; the second save is refused, names who
// changed it, and keeps the first reviewer's text.
func TestConflict(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		p := "/app/p/" + e.f.Project.ID
		first, second := e.browser(t), e.browser(t)
		first.signIn(t, e.f.User.Email)
		second.signIn(t, e.f.User.Email)
		v1 := versions(first.get(t, p+"/review/nb").body)["greeting"]
		v2 := versions(second.get(t, p+"/review/nb").body)["greeting"]
		if v1 == "" || v1 != v2 {
			t.Fatalf("versions %q and %q", v1, v2)
		}
		first.post(t, p+"/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hallo"}, "version": {v1}, "action": {"approve"}}, true).want(t, http.StatusSeeOther)
		form := url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Heisann"}, "version": {v2}, "csrf": {second.csrf}}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, e.srv.URL+p+"/review/nb/save", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Lokal-Fragment", "1")
		second.do(t, req).want(t, http.StatusConflict, "was changed by "+e.f.User.Email, `"updated_by":"`+e.f.User.Email, `"value":"Hallo"`, `"status":"approved"`)
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hallo" || got.Status != model.StatusApproved {
			t.Errorf("after the conflict the row is %+v", got)
		}
		// Batch approval leaves a row changed since it was shown.
		e.draft(t, "common", "greeting", "nb", "Hei igjen")
		b := first.post(t, p+"/review/nb/approve", url.Values{"sel": {"common\tgreeting\t" + v1}}, true).want(t, http.StatusSeeOther)
		if loc := b.header.Get("Location"); !strings.Contains(loc, "changed+meanwhile") {
			t.Errorf("batch approval of a changed row answered %q", loc)
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Status != model.StatusNeedsReview {
			t.Errorf("batch approval approved a row changed since: %+v", got)
		}
	})
}

// TestFilters: each filter of the queue selects what it names.
func TestFilters(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "a.ai", "Hello %{name}", "b.ai_ok", "Welcome", "c.human", "Save", "d.missing", "Cancel", "e.stale", "Open the door")
		e.draft(t, "common", "a.ai", "nb", "Hei")
		e.draft(t, "common", "b.ai_ok", "nb", "Velkommen")
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "c.human", "nb"), Value: "Lagre", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "e.stale", "nb"), Value: "Åpne", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "e.stale", "en"), Value: "Open the door now"}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.AddComment(e.sys(t), tools.AddCommentIn{RowRef: e.ref("common", "b.ai_ok", "nb"), Body: "ok?"}); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/nb"
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"", []string{"a.ai", "b.ai_ok", "c.human", "d.missing", "e.stale"}},
			{"?filter=ai", []string{"a.ai", "b.ai_ok"}},
			{"?filter=needs_review", []string{"a.ai", "b.ai_ok"}},
			{"?filter=approved", []string{"c.human", "e.stale"}},
			{"?filter=stale", []string{"e.stale"}},
			{"?filter=missing", []string{"d.missing"}},
			{"?filter=qa", []string{"a.ai"}},
			{"?filter=comments", []string{"b.ai_ok"}},
			{"?q=velkom", []string{"b.ai_ok"}},
			{"?q=DOOR", []string{"e.stale"}},
			{"?q=c.hum", []string{"c.human"}},
			{"?filter=ai&q=100%25", nil},
			{"?q=%25%7B", []string{"a.ai"}},
		} {
			got := versions(b.get(t, p+tc.query).want(t, http.StatusOK).body)
			if len(got) != len(tc.want) {
				t.Errorf("%s shows %v, want %v", tc.query, got, tc.want)
				continue
			}
			for _, k := range tc.want {
				if _, ok := got[k]; !ok {
					t.Errorf("%s shows %v, want %v", tc.query, got, tc.want)
				}
			}
		}
		b.get(t, p+"?filter=bogus").want(t, http.StatusBadRequest)
	})
}
