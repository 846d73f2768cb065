package rest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// echoingHost refuses every call with the status it holds and puts the request's
// Authorization header and body into its error's message, as some providers do.
func echoingHost(t *testing.T, status *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(status.Load()))
		msg := "Incorrect credentials " + r.Header.Get("Authorization") + " for " + string(body)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": msg,
			"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func noEcho(t *testing.T, where, s string, secrets ...string) {
	t.Helper()
	for _, bad := range append(secrets, "Incorrect credentials", "Bearer") {
		if strings.Contains(s, bad) {
			t.Errorf("%s shows %q of the provider's answer: %s", where, bad, s)
		}
	}
}

// TestProviderAnswerNeverInAPI: endpoint 6 and ai_translate_keys against a provider that
// echoes the API key into its 401 and 400 answer with lokal's reason, never the answer.
func TestProviderAnswerNeverInAPI(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		var status atomic.Int64
		llm := echoingHost(t, &status)
		const key = "sk-server-Secret-9191"
		s := newServer(t, dialect, &tools.Options{AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "test-model", APIKey: key}})
		s.sync(t, "en", "ui", map[string]string{"plain": "Shopping cart total"})
		for _, c := range []struct {
			status int
			reason string
		}{{http.StatusUnauthorized, "refused the API key"}, {http.StatusBadRequest, ""}} {
			status.Store(int64(c.status))
			r := s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"plain"})
			noEcho(t, "endpoint 6", string(r.body), key, "Shopping cart total")
			if c.reason != "" && !strings.Contains(string(r.body), c.reason) {
				t.Errorf("HTTP %d: endpoint 6 answers %d %s, want %q", c.status, r.status, r.body, c.reason)
			}
			res := s.mcpProject(t, tokenAuth(s.rw)).call(t, "ai_translate_keys",
				map[string]any{"namespace_key": "ui", "translation_keys": []string{"plain"}, "target_lang": "nb"})
			structured, _ := json.Marshal(res.StructuredContent)
			noEcho(t, "ai_translate_keys", mcpText(res)+string(structured), key, "Shopping cart total")
		}
	})
}

// TestCodeHostAnswerNeverInAPI: endpoint 8 against a GitHub that echoes the token into its
// 401, 404 and 422 answers with the status's code and lokal's reason; the attempts keep the
// status and that reason.
func TestCodeHostAnswerNeverInAPI(t *testing.T) {
	t.Parallel()
	forEachDialectWith(t, redeployOptions(t), func(t *testing.T, s *server) {
		var status atomic.Int64
		gh := echoingHost(t, &status)
		tok := ghToken
		if _, err := s.cat.SetRedeploy(sys(t), tools.RedeployIn{ProjectID: s.proj.ID, Provider: tools.DeployGitHub, Repo: "acme/site",
			Workflow: "deploy.yml", Ref: "main", APIURL: gh.URL, Token: &tok}); err != nil {
			t.Fatal(err)
		}
		reasons := map[int]string{
			http.StatusUnauthorized:        "the code host refused the token",
			http.StatusNotFound:            "the code host could not find the repository or workflow",
			http.StatusUnprocessableEntity: "the code host refused the dispatch",
		}
		for _, st := range []int{http.StatusUnauthorized, http.StatusNotFound, http.StatusUnprocessableEntity} {
			status.Store(int64(st))
			r := s.call(t, "POST", "/api/"+s.proj.ID+"/redeploy", bearerAuth(s.pat), nil)
			noEcho(t, "endpoint 8", string(r.body), ghToken)
			if !strings.Contains(string(r.body), reasons[st]) {
				t.Errorf("HTTP %d: endpoint 8 answers %d %s, want %q", st, r.status, r.body, reasons[st])
			}
		}
		as, err := s.cat.RedeployAttempts(sys(t), s.proj.ID, 10)
		if err != nil || len(as) != 3 {
			t.Fatalf("attempts %v, %v", as, err)
		}
		for _, a := range as {
			noEcho(t, "a stored attempt", a.Message, ghToken)
			if a.HTTPStatus == nil || !strings.Contains(a.Message, reasons[*a.HTTPStatus]) {
				t.Errorf("attempt %+v, want its status and lokal's reason", a)
			}
		}
	})
}
