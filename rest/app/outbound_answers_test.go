package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// echoingHost is a provider or code host that refuses every call with 401 (or status)
// and puts the request's Authorization header and body into its error's message, as some
// do: whatever lokal shows of such an answer shows the key.
func echoingHost(t *testing.T, status func() int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status())
		msg := "Incorrect credentials " + r.Header.Get("Authorization") + " for " + string(body)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": msg,
			"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": "invalid_api_key"}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// noEcho fails when s carries any of what the echoing host answered.
func noEcho(t *testing.T, where, s string, secrets ...string) {
	t.Helper()
	for _, bad := range append(secrets, "Incorrect credentials", "Bearer") {
		if strings.Contains(s, bad) {
			t.Errorf("%s shows %q of the provider's answer: %s", where, bad, s)
		}
	}
}

// TestProviderAnswerNeverShown: a translator's AI suggestion and the editor's AI
// translation, against a provider that echoes the workspace's API key into its 401,
// say lokal's reason and the status, never the answer.
func TestProviderAnswerNeverShown(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		var status atomic.Int64
		status.Store(http.StatusUnauthorized)
		llm := echoingHost(t, func() int { return int(status.Load()) })
		key := "sk-workspace-Secret-4242"
		if _, err := e.cat.SetWorkspaceAI(e.sys(t), e.f.Workspace.ID, llm.URL, "test-model", &key); err != nil {
			t.Fatal(err)
		}
		e.source(t, "common", "greeting", "Hello there friend")
		p := "/app/p/" + e.f.Project.ID

		tr := e.memberBrowser(t, "translator@example.com", "translator", "nb")
		got := tr.post(t, p+"/review/nb/suggest", url.Values{"ns": {"common"}, "key": {"greeting"}}, true)
		noEcho(t, "the suggestion", got.body, key, "Hello there friend")
		if !strings.Contains(got.body, "the provider refused the API key") || !strings.Contains(got.body, "401") {
			t.Errorf("the suggestion says %d %s, want lokal's reason and the status", got.status, got.body)
		}

		// A 400 is a failure of the string, whose reason the editor lists.
		status.Store(http.StatusBadRequest)
		got = tr.post(t, p+"/review/nb/suggest", url.Values{"ns": {"common"}, "key": {"greeting"}}, true)
		noEcho(t, "the suggestion", got.body, key, "Hello there friend")
		if !strings.Contains(got.body, "the provider refused the request (HTTP 400)") {
			t.Errorf("the suggestion says %d %s, want lokal's reason and the status", got.status, got.body)
		}
		owner := e.browser(t)
		owner.signIn(t, e.f.User.Email)
		for _, st := range []int{http.StatusUnauthorized, http.StatusBadRequest} {
			status.Store(int64(st))
			res := owner.post(t, p+"/review/nb/translate", url.Values{"all": {"1"}}, true)
			done := res.header.Get("Location") + res.body
			if loc, err := url.Parse(res.header.Get("Location")); err == nil {
				done += loc.Query().Get("done") + loc.Query().Get("error")
			}
			noEcho(t, "the editor's AI translation", done, key)
			page := owner.get(t, p+"/review/nb")
			noEcho(t, "the review page", page.body, key)
		}
	})
}

// TestCodeHostAnswerNeverShown: redeploy attempts against a GitHub double that echoes the
// token into its 401, 404 and 422 keep the status and lokal's reason, on the Connect page
// a manager reads and in the dispatch's own answer, never the token or the answer.
func TestCodeHostAnswerNeverShown(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		var status atomic.Int64
		gh := echoingHost(t, func() int { return int(status.Load()) })
		token := "ghp_echoedTokenValue777"
		if _, err := e.cat.SetRedeploy(e.sys(t), tools.RedeployIn{ProjectID: e.f.Project.ID, Provider: tools.DeployGitHub, Repo: "acme/site",
			Workflow: "deploy.yml", Ref: "main", APIURL: gh.URL, Token: &token}); err != nil {
			t.Fatal(err)
		}
		m := e.memberBrowser(t, "manager@example.com", "manager")
		p := "/app/p/" + e.f.Project.ID
		for _, c := range []struct {
			status int
			reason string
		}{
			{http.StatusUnauthorized, "the code host refused the token"},
			{http.StatusNotFound, "the code host could not find the repository or workflow"},
			{http.StatusUnprocessableEntity, "the code host refused the dispatch"},
		} {
			status.Store(int64(c.status))
			res := m.post(t, p+"/connect/redeploy/dispatch", nil, true)
			noEcho(t, "the dispatch's answer", res.body, token)
			if !strings.Contains(res.body, c.reason) {
				t.Errorf("HTTP %d: the dispatch says %s, want %q", c.status, res.body, c.reason)
			}
		}
		page := m.get(t, p+"/connect")
		noEcho(t, "the Connect page", page.body, token)
		for _, want := range []string{"HTTP 401", "HTTP 404", "HTTP 422", "the code host refused the token"} {
			if !strings.Contains(page.body, want) {
				t.Errorf("the Connect page lacks %q", want)
			}
		}
		as, err := e.cat.RedeployAttempts(e.sys(t), e.f.Project.ID, 10)
		if err != nil || len(as) != 3 {
			t.Fatalf("attempts %v, %v", as, err)
		}
		for _, a := range as {
			noEcho(t, "a stored attempt", a.Message, token)
		}
	})
}
