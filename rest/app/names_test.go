package app_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestNamesNotIDs: people read who changed a row by email or key prefix, languages by name
// and counts in words; no internal id of a user or key reaches the page.
func TestNamesNotIDs(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPut, e.srv.URL+"/api/sync/"+e.f.Project.ID+"/latest/nb/common", strings.NewReader(`{"greeting":"Hei fra bygget"}`))
		req.Header.Set("Authorization", "Token token="+e.f.RW)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("writing with the key: %d", res.StatusCode)
		}
		keys, err := e.cat.ListKeys(e.sys(t), e.f.Project.ID)
		if err != nil {
			t.Fatal(err)
		}
		var key tools.KeyListing
		for _, k := range keys {
			if strings.HasPrefix(e.f.RW, k.Prefix) {
				key = k
			}
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		b.post(t, p+"/review/nb/comment", url.Values{"ns": {"common"}, "key": {"greeting"}, "body": {"Ser bra ut"}}, true).want(t, http.StatusSeeOther)

		row := b.get(t, p+"/review/nb/row?ns=common&key=greeting").want(t, http.StatusOK, "API key "+key.Prefix+"…", html.EscapeString(e.f.User.Email), "Ser bra ut")
		review := b.get(t, p+"/review/nb").want(t, http.StatusOK, "1 comment<", "nb — Norwegian Bokmål", "from en — English")
		b.get(t, p+"/").want(t, http.StatusOK, "sv — Swedish")
		for _, pg := range []page{row, review} {
			for _, id := range []string{e.f.User.ID, key.ID, "user:", "key:"} {
				if strings.Contains(pg.body, id) {
					t.Errorf("a page shows the internal id %q", id)
				}
			}
		}
	})
}

// TestErrorsInPlace: a refused form answers with its own page again, the message beside
// the form and what was typed still in it, never the error page.
func TestErrorsInPlace(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello {name}")
		e.draft(t, "common", "greeting", "nb", "Hei {name}")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		v := versions(b.get(t, p+"/review/nb?filter=ai").body)["greeting"]

		// Approving a broken placeholder is refused; the typed text stays in the box.
		pg := b.post(t, p+"/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hei {navn} og velkommen"}, "version": {v},
			"action": {"approve"}, "back": {p + "/review/nb?filter=ai"}}, true).
			want(t, http.StatusUnprocessableEntity, `class="error form-error" role="alert" id="error-`, "QA finding", "Hei {navn} og velkommen</textarea>")
		if strings.Contains(pg.body, "Something went wrong") {
			t.Error("a refused save answered the error page")
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hei {name}" {
			t.Errorf("a refused save changed the row: %q", got.Value)
		}

		// From a page of the queue the row is not on, the row's own page keeps the text.
		b.post(t, p+"/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hei {navn} igjen"}, "version": {v},
			"action": {"approve"}, "back": {p + "/review/nb?filter=missing"}}, true).
			want(t, http.StatusUnprocessableEntity, `<h1><code>common · greeting</code></h1>`, `id="error-`, "Hei {navn} igjen</textarea>")

		// A comment over the limit: the row page again, with the comment typed.
		long := strings.Repeat("Lang merknad ", tools.MaxCommentBytes/12+1)
		b.post(t, p+"/review/nb/comment", url.Values{"ns": {"common"}, "key": {"greeting"}, "body": {long}, "back": {p + "/review/nb"}}, true).
			want(t, http.StatusBadRequest, `id="comment-error-`, ">"+long+"</textarea>")

		// Batch translation of nothing: the review page, the message beside the batch form.
		b.post(t, p+"/review/nb/translate", url.Values{"back": {p + "/review/nb"}}, true).
			want(t, http.StatusBadRequest, `id="batch-error"`, "no rows to translate")

		// Connect: revoking without the confirmation is said in the keys section.
		c := b.post(t, p+"/connect/keys/revoke", url.Values{"id": {"x"}}, true).want(t, http.StatusBadRequest, `id="form-error"`, "tick the box")
		keys, errAt := strings.Index(c.body, `id="keys-h"`), strings.Index(c.body, `id="form-error"`)
		if tokens := strings.Index(c.body, `id="tokens-h"`); !(keys < errAt && errAt < tokens) {
			t.Errorf("the error is not in the keys section (keys %d, error %d, tokens %d)", keys, errAt, tokens)
		}
		// The workspace provider's refused URL keeps what was typed.
		b.post(t, p+"/connect/ai/workspace", url.Values{"base_url": {"http://10.0.0.1/v1"}, "model": {"mini-model"}}, true).
			want(t, http.StatusBadRequest, `id="form-error"`, `value="http://10.0.0.1/v1"`, `value="mini-model"`)
	})
}

// TestTranslateFailuresSayWhy: a key the AI could not translate is listed with the reason.
func TestTranslateFailuresSayWhy(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		ai := aitest.New(t, aitest.Echo(func(_, masked string) string {
			if strings.Contains(masked, "Bye") {
				return "Ha\x00det"
			}
			return "NB " + masked
		}))
		e := newEnv(t, d, &tools.Options{AIDefault: tools.AIProvider{BaseURL: ai.URL, Model: "test-model"}})
		e.source(t, "common", "farewell", "Bye", "greeting", "Hello")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		res := b.post(t, p+"/review/nb/translate", url.Values{"all": {"1"}}, true).want(t, http.StatusSeeOther)
		loc, _ := url.Parse(res.header.Get("Location"))
		if done := loc.Query().Get("done"); !strings.Contains(done, "AI translated 1 row;") || !strings.Contains(done, "failed: farewell (") || !strings.Contains(done, "NUL") {
			t.Errorf("the editor says %q", done)
		}
	})
}

// TestNamedKeys: a key and a token made with a name on the Connect page are listed by it,
// and what the key writes is credited to it by name and prefix; a name too long is said
// beside the form with the name kept.
func TestNamedKeys(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		b.post(t, p+"/connect/keys", url.Values{"access": {"write"}, "name": {"CI deploy"}}, true).want(t, http.StatusCreated, `<span class="token-name">CI deploy</span>`)
		b.post(t, p+"/connect/tokens", url.Values{"scope": {"project"}, "name": {"laptop CLI"}}, true).want(t, http.StatusCreated, `<span class="token-name">laptop CLI</span>`)
		long := strings.Repeat("n", tools.MaxTokenName+1)
		b.post(t, p+"/connect/keys", url.Values{"name": {long}}, true).want(t, http.StatusBadRequest, `id="form-error"`, `value="`+long+`"`)

		// What a named key writes is credited to it by name and prefix.
		secret, err := e.cat.CreateAPIKey(e.sys(t), tools.CreateAPIKeyIn{ProjectID: e.f.Project.ID, Name: "nightly build"})
		if err != nil {
			t.Fatal(err)
		}
		keys, err := e.cat.ListKeys(e.sys(t), e.f.Project.ID)
		if err != nil {
			t.Fatal(err)
		}
		var prefix string
		for _, k := range keys {
			if k.Name == "nightly build" {
				prefix = k.Prefix
			}
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPut, e.srv.URL+"/api/sync/"+e.f.Project.ID+"/latest/nb/common", strings.NewReader(`{"greeting":"Hei"}`))
		req.Header.Set("Authorization", "Token token="+secret.Key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if prefix == "" || res.StatusCode != http.StatusOK {
			t.Fatalf("prefix %q, write %d", prefix, res.StatusCode)
		}
		b.get(t, p+"/review/nb/row?ns=common&key=greeting").want(t, http.StatusOK, html.EscapeString("API key “nightly build” ("+prefix+"…)"))
	})
}
