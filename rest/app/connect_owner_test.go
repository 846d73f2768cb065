package app_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/workflows"
)

// receiver is a webhook endpoint or deploy hook on 127.0.0.1 answering status, counting
// the POSTs it gets.
type receiver struct {
	*httptest.Server
	status atomic.Int32
	posts  atomic.Int32
}

func newReceiver(t *testing.T, status int) *receiver {
	t.Helper()
	r := &receiver{}
	r.status.Store(int32(status))
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost {
			r.posts.Add(1)
		}
		w.WriteHeader(int(r.status.Load()))
	}))
	t.Cleanup(r.Close)
	return r
}

// deliver runs the webhook deliverer once, as lokal serve does in the background, and
// waits for its POSTs.
func (e *env) deliver(t *testing.T) {
	t.Helper()
	d := workflows.NewDeliverer(e.cat, &workflows.DeliveryOptions{Guard: e.opts.Outbound})
	if _, err := d.Pump(t.Context()); err != nil {
		t.Fatalf("delivering: %v", err)
	}
	d.Wait()
}

var secretValue = regexp.MustCompile(`id="secret-value" readonly value="(whsec_[^"]+)"`)

// TestWebhooksOnConnect: adding a webhook shows its secret once and lists it; a refused URL
// is explained on the page; disabling works; deliveries and their outcome are listed; a
// form without its CSRF token changes nothing.
func TestWebhooksOnConnect(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		recv := newReceiver(t, http.StatusNoContent)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		b.get(t, p+"/connect").want(t, http.StatusOK, "Webhooks", "No webhooks yet.", `for="hook-url"`, "translation.approved")

		form := url.Values{"url": {recv.URL + "/hooks"}, "events": {tools.EventApproved, tools.EventUpdated}}
		b.post(t, p+"/connect/webhooks", form, false).want(t, http.StatusForbidden, "CSRF")
		if hooks, _ := e.cat.ListWebhooks(e.sys(t), e.f.Project.ID); len(hooks) != 0 {
			t.Fatalf("a form without its CSRF token added a webhook: %+v", hooks)
		}
		created := b.post(t, p+"/connect/webhooks", form, true).want(t, http.StatusCreated, "shown once", recv.URL+"/hooks")
		secret := secretValue.FindStringSubmatch(created.body)
		if secret == nil {
			t.Fatalf("no webhook secret in the answer: %.3000s", created.body)
		}
		page := b.get(t, p+"/connect").want(t, http.StatusOK, recv.URL+"/hooks", "translation.approved, translation.updated", "enabled", "no delivery yet")
		if strings.Contains(page.body, secret[1]) {
			t.Fatal("the webhook secret is shown again on a later visit")
		}

		// The guard's refusal, on the page, with the typed URL kept.
		refused := b.post(t, p+"/connect/webhooks", url.Values{"url": {"http://10.1.2.3/hook"}}, true).
			want(t, http.StatusBadRequest, `id="form-error"`, "is refused", "private", `value="http://10.1.2.3/hook"`)
		if strings.Contains(refused.body, "whsec_") {
			t.Error("a refused webhook shows a secret")
		}
		hooks, err := e.cat.ListWebhooks(e.sys(t), e.f.Project.ID)
		if err != nil || len(hooks) != 1 {
			t.Fatalf("webhooks after one add and one refusal: %+v, %v", hooks, err)
		}
		id := hooks[0].ID

		// An approval in the editor is delivered; the outcome and the delivery are listed.
		v := versions(b.get(t, p+"/review/nb").body)["greeting"]
		b.post(t, p+"/review/nb/approve", url.Values{"sel": {"common\tgreeting\t" + v}}, true).want(t, http.StatusSeeOther)
		e.deliver(t)
		if n := recv.posts.Load(); n != 1 {
			t.Fatalf("the receiver got %d POSTs, want 1", n)
		}
		b.get(t, p+"/connect").want(t, http.StatusOK, "delivered, HTTP 204", `id="deliveries-`+id+`"`,
			`<td data-label="Event">translation.approved</td><td data-label="Key"><code>greeting</code></td><td data-label="Locale">nb</td><td data-label="Attempts">1</td><td data-label="State" class="state">delivered</td><td data-label="HTTP status" class="http">204</td>`)

		// Disable, then enable again.
		b.post(t, p+"/connect/webhooks/state", url.Values{"id": {id}, "enabled": {"0"}}, false).want(t, http.StatusForbidden)
		b.post(t, p+"/connect/webhooks/state", url.Values{"id": {id}, "enabled": {"0"}}, true).want(t, http.StatusSeeOther)
		b.get(t, p+"/connect").want(t, http.StatusOK, "disabled", "disabled by user:"+e.f.User.ID, `aria-label="Enable webhook`)
		b.post(t, p+"/connect/webhooks/state", url.Values{"id": {id}, "enabled": {"1"}}, true).want(t, http.StatusSeeOther)
		if hooks, _ := e.cat.ListWebhooks(e.sys(t), e.f.Project.ID); !hooks[0].Enabled {
			t.Error("the webhook is still disabled")
		}
		// A webhook of another project is not this page's.
		other, err := e.cat.AddWebhook(e.sys(t), e.f.Sibling.ID, recv.URL+"/sibling", nil)
		if err != nil {
			t.Fatal(err)
		}
		b.post(t, p+"/connect/webhooks/state", url.Values{"id": {other.ID}, "enabled": {"0"}}, true).want(t, http.StatusNotFound)
	})
}

// TestRedeployOnConnect: a deploy hook is configured (its URL shown only masked), a
// dispatch calls it and is listed with who and the provider's status, a refusal is
// explained on the page and listed too.
func TestRedeployOnConnect(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		hook := newReceiver(t, http.StatusOK)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		b.get(t, p+"/connect").want(t, http.StatusOK, "Redeploy is not configured", "No attempts yet.")
		// Nothing configured: the refusal is on the page and recorded.
		b.post(t, p+"/connect/redeploy/dispatch", nil, true).want(t, http.StatusUnprocessableEntity, `id="form-error"`, "no redeploy workflow is configured", "not_configured")

		secretURL := hook.URL + "/deploy/s3cret-hook-id"
		form := url.Values{"provider": {"hook"}, "url": {secretURL}}
		b.post(t, p+"/connect/redeploy", form, false).want(t, http.StatusForbidden, "CSRF")
		if v, _ := e.cat.ShowRedeploy(e.sys(t), e.f.Project.ID); v.Provider != "" {
			t.Fatalf("a form without its CSRF token configured redeploy: %+v", v)
		}
		b.post(t, p+"/connect/redeploy", form, true).want(t, http.StatusSeeOther)
		page := b.get(t, p+"/connect").want(t, http.StatusOK, "Redeploy calls the deploy hook", hook.URL+"/…")
		if strings.Contains(page.body, "s3cret-hook-id") {
			t.Error("the deploy hook URL is shown on the page")
		}
		b.post(t, p+"/connect/redeploy/dispatch", nil, false).want(t, http.StatusForbidden)
		if n := hook.posts.Load(); n != 0 {
			t.Fatalf("a dispatch without its CSRF token called the hook %d times", n)
		}
		b.post(t, p+"/connect/redeploy/dispatch", nil, true).want(t, http.StatusSeeOther)
		if n := hook.posts.Load(); n != 1 {
			t.Fatalf("the hook got %d POSTs, want 1", n)
		}
		b.get(t, p+"/connect?done=x").want(t, http.StatusOK,
			`<td data-label="Who">`+e.f.User.Email+`</td><td data-label="Outcome" class="outcome">dispatched</td><td data-label="Provider status">HTTP 200</td>`)

		// The provider refuses: the message is on the page, the attempt listed with its status.
		hook.status.Store(http.StatusInternalServerError)
		b.post(t, p+"/connect/redeploy/dispatch", nil, true).want(t, http.StatusBadGateway, `id="form-error"`, "the deploy hook failed (HTTP 500)",
			`<td data-label="Outcome" class="outcome">refused</td><td data-label="Provider status">HTTP 500</td>`)

		// GitHub without a token, and a private address: refused on the page, nothing changes.
		// The GitHub API is the double: a test resolves no public name.
		b.post(t, p+"/connect/redeploy", url.Values{"provider": {"github"}, "repo": {"acme/site"}, "workflow": {"deploy.yml"}, "ref": {"main"}, "api_url": {hook.URL}}, true).
			want(t, http.StatusBadRequest, "GitHub needs a token")
		b.post(t, p+"/connect/redeploy", url.Values{"provider": {"hook"}, "url": {"http://169.254.169.254/latest"}}, true).
			want(t, http.StatusBadRequest, "is refused")
		if v, _ := e.cat.ShowRedeploy(e.sys(t), e.f.Project.ID); v.Provider != "hook" || v.URL != model.MaskURL(secretURL) {
			t.Errorf("refused forms changed the redeploy: %+v", v)
		}
		// GitHub with a token: shown without it.
		b.post(t, p+"/connect/redeploy", url.Values{"provider": {"github"}, "repo": {"acme/site"}, "workflow": {"deploy.yml"},
			"ref": {"main"}, "inputs": {"env=prod\n"}, "api_url": {hook.URL}, "token": {"ghp_pageTokenValue123"}}, true).want(t, http.StatusSeeOther)
		page = b.get(t, p+"/connect").want(t, http.StatusOK, "<code>deploy.yml</code> of <code>acme/site</code> on <code>main</code>", "stored (encrypted, never shown)", "env=prod")
		if strings.Contains(page.body, "ghp_pageTokenValue123") {
			t.Error("the GitHub token is shown on the page")
		}
	})
}

// TestOwnerFormsAcrossWorkspaces: another workspace's user finds none of it.
func TestOwnerFormsAcrossWorkspaces(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		recv := newReceiver(t, http.StatusOK)
		hook, err := e.cat.AddWebhook(e.sys(t), e.f.Project.ID, recv.URL+"/hooks", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.SetRedeploy(e.sys(t), tools.RedeployIn{ProjectID: e.f.Project.ID, Provider: tools.DeployHook, URL: recv.URL + "/deploy"}); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, e.f.OtherUser.Email)
		p := "/app/p/" + e.f.Project.ID
		for _, f := range []struct {
			path string
			form url.Values
		}{
			{p + "/connect/webhooks", url.Values{"url": {recv.URL + "/evil"}}},
			{p + "/connect/webhooks/state", url.Values{"id": {hook.ID}, "enabled": {"0"}}},
			{p + "/connect/redeploy", url.Values{"provider": {"hook"}, "url": {recv.URL + "/evil"}}},
			{p + "/connect/redeploy/dispatch", nil},
			// Their own project's page with this project's webhook.
			{"/app/p/" + e.f.Other.ID + "/connect/webhooks/state", url.Values{"id": {hook.ID}, "enabled": {"0"}}},
		} {
			b.post(t, f.path, f.form, true).want(t, http.StatusNotFound)
		}
		hooks, _ := e.cat.ListWebhooks(e.sys(t), e.f.Project.ID)
		if len(hooks) != 1 || !hooks[0].Enabled {
			t.Errorf("another workspace's user changed the webhooks: %+v", hooks)
		}
		if v, _ := e.cat.ShowRedeploy(e.sys(t), e.f.Project.ID); v.URL != model.MaskURL(recv.URL+"/deploy") {
			t.Errorf("another workspace's user changed the redeploy: %+v", v)
		}
		if n := recv.posts.Load(); n != 0 {
			t.Errorf("another workspace's user dispatched: %d POSTs", n)
		}
	})
}

// TestUsageOnConnect: after the editor's "translate with AI" against the model double, the
// AI section shows the calls, tokens and strings.
func TestUsageOnConnect(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		model := aitest.New(t, aitest.Echo(func(_, masked string) string { return "NB " + masked }))
		e := newEnv(t, d, &tools.Options{AIDefault: tools.AIProvider{BaseURL: model.URL, Model: "test-model"}})
		e.source(t, "common", "greeting", "Hello", "farewell", "Goodbye")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		b.get(t, p+"/connect").want(t, http.StatusOK, "0 model calls")
		b.post(t, p+"/review/nb/translate", url.Values{"all": {"1"}}, true).want(t, http.StatusSeeOther)
		if len(model.Calls()) != 1 {
			t.Fatalf("model calls: %d, want 1", len(model.Calls()))
		}
		b.get(t, p+"/connect").want(t, http.StatusOK,
			"1 model call, 20 prompt and 16 completion tokens (what the provider bills); 2 strings translated, 0 failed, 0 from translation memory",
			`<td data-label="Model"><code>test-model</code></td><td data-label="Calls">1</td><td data-label="Prompt tokens">20</td><td data-label="Completion tokens">16</td><td data-label="Translated">2</td><td data-label="Failed">0</td>`)
	})
}

// TestConnectSecretsStayWithTheirAddress: on the Connect page, moving the workspace's AI
// provider or the GitHub redeploy to another address without giving the key or token again
// is refused on the page and changes nothing; with it, both change. Changing a webhook's URL
// shows its new secret once.
func TestConnectSecretsStayWithTheirAddress(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		oldAI, newAI := newReceiver(t, http.StatusOK), newReceiver(t, http.StatusOK)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		ws := url.Values{"base_url": {oldAI.URL + "/v1"}, "model": {"m"}, "api_key": {"sk-page-old-key"}}
		b.post(t, p+"/connect/ai/workspace", ws, true).want(t, http.StatusSeeOther)
		// A move without the key clears the stored key and says so.
		ws = url.Values{"base_url": {newAI.URL + "/v1"}, "model": {"m"}}
		movedAI := b.post(t, p+"/connect/ai/workspace", ws, true).want(t, http.StatusSeeOther)
		b.get(t, movedAI.header.Get("Location")).want(t, http.StatusOK, "the stored API key was removed because the base URL changed")
		if v, _ := e.cat.ShowAI(e.sys(t), e.f.Project.ID); v.BaseURL != newAI.URL+"/v1" {
			t.Fatalf("a keyless move: %+v, want the new URL without a key", v)
		}
		ws.Set("api_key", "sk-page-new-key")
		b.post(t, p+"/connect/ai/workspace", ws, true).want(t, http.StatusSeeOther)
		if v, _ := e.cat.ShowAI(e.sys(t), e.f.Project.ID); v.BaseURL != newAI.URL+"/v1" {
			t.Errorf("a move with the key: %+v", v)
		}

		gh := url.Values{"provider": {"github"}, "repo": {"acme/site"}, "workflow": {"deploy.yml"}, "ref": {"main"},
			"api_url": {oldAI.URL}, "token": {"ghp_pageOldToken123"}}
		b.post(t, p+"/connect/redeploy", gh, true).want(t, http.StatusSeeOther)
		gh.Del("token")
		gh.Set("api_url", newAI.URL)
		b.post(t, p+"/connect/redeploy", gh, true).want(t, http.StatusBadRequest, `id="form-error"`, "give the GitHub token again")
		gh.Set("api_url", oldAI.URL)
		gh.Set("repo", "evil/site")
		b.post(t, p+"/connect/redeploy", gh, true).want(t, http.StatusBadRequest, `id="form-error"`, "the repository changes", "give the GitHub token again")
		if v, _ := e.cat.ShowRedeploy(e.sys(t), e.f.Project.ID); v.APIURL != oldAI.URL || v.Repo != "acme/site" || !v.TokenSet {
			t.Fatalf("refused moves changed the redeploy: %+v", v)
		}
		gh.Set("token", "ghp_pageNewToken123")
		b.post(t, p+"/connect/redeploy", gh, true).want(t, http.StatusSeeOther)
		if v, _ := e.cat.ShowRedeploy(e.sys(t), e.f.Project.ID); v.Repo != "evil/site" || !v.TokenSet {
			t.Errorf("a move with the token: %+v", v)
		}

		recv := newReceiver(t, http.StatusNoContent)
		created, err := e.cat.AddWebhook(e.sys(t), e.f.Project.ID, recv.URL+"/old", nil)
		if err != nil {
			t.Fatal(err)
		}
		form := url.Values{"id": {created.ID}, "url": {recv.URL + "/new"}}
		b.post(t, p+"/connect/webhooks/url", form, false).want(t, http.StatusForbidden, "CSRF")
		b.post(t, p+"/connect/webhooks/url", url.Values{"id": {created.ID}, "url": {"http://10.1.2.3/hook"}}, true).
			want(t, http.StatusBadRequest, `id="form-error"`, "is refused")
		moved := b.post(t, p+"/connect/webhooks/url", form, true).want(t, http.StatusOK, "New signing secret", recv.URL+"/new")
		secret := secretValue.FindStringSubmatch(moved.body)
		if secret == nil || secret[1] == created.Secret {
			t.Fatalf("no new webhook secret in the answer: %.3000s", moved.body)
		}
		if page := b.get(t, p+"/connect").want(t, http.StatusOK, recv.URL+"/new"); strings.Contains(page.body, secret[1]) {
			t.Error("the new webhook secret is shown again on a later visit")
		}
		// Another project's webhook is not this page's.
		other, err := e.cat.AddWebhook(e.sys(t), e.f.Sibling.ID, recv.URL+"/sibling", nil)
		if err != nil {
			t.Fatal(err)
		}
		b.post(t, p+"/connect/webhooks/url", url.Values{"id": {other.ID}, "url": {recv.URL + "/evil"}}, true).want(t, http.StatusNotFound)
	})
}
