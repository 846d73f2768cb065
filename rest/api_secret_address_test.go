package rest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/lokal-dev/lokal/workflows"
)

// recorder is a server on 127.0.0.1 that records every request's headers and body, then
// lets next answer (nil: 204).
type recorder struct {
	*httptest.Server
	mu  sync.Mutex
	got []recorded
}

type recorded struct {
	path   string
	header http.Header
	body   string
}

func newRecorder(t *testing.T, next http.Handler) *recorder {
	t.Helper()
	rc := &recorder{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, recorded{path: r.URL.Path, header: r.Header.Clone(), body: string(b)})
		rc.mu.Unlock()
		if next == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *recorder) requests() []recorded {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]recorded(nil), rc.got...)
}

// neverSaw fails when any request rc got carries secret in a header or its body.
func (rc *recorder) neverSaw(t *testing.T, what, secret string) {
	t.Helper()
	for _, r := range rc.requests() {
		for name, vs := range r.header {
			for _, v := range vs {
				if strings.Contains(v, secret) {
					t.Errorf("%s reached the new address in header %s of %s", what, name, r.path)
				}
			}
		}
		if strings.Contains(r.body, secret) {
			t.Errorf("%s reached the new address in the body of %s", what, r.path)
		}
	}
}

// proxyTo forwards to a model double, so that the new address answers like a provider.
func proxyTo(t *testing.T, model *aitest.Server) http.Handler {
	u, err := url.Parse(model.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = ""
	return httputil.NewSingleHostReverseProxy(u)
}

// TestStoredSecretsStayWithTheirAddress: a stored AI key or GitHub token is never sent to an
// address it was not given for. Moving the workspace AI base URL, the GitHub API URL or the
// repository without giving the secret again is refused and changes nothing; with it, both
// change. A webhook's secret is rotated with its URL. After each change a real call is made
// (a translation, a dispatch, a delivery) and the new address never sees the old secret.
func TestStoredSecretsStayWithTheirAddress(t *testing.T) {
	t.Parallel()
	opts := redeployOptions(t)
	forEachDialectWith(t, opts, func(t *testing.T, s *server) {
		sys := sys(t)
		s.sync(t, "en", "ui", map[string]string{"plain": "Cart"})

		// The workspace's AI provider.
		const oldKey, newKey = "sk-old-Ax81-never-moves", "sk-new-Qw52-given-again"
		oldAI := aitest.New(t, nbEcho)
		newAI := newRecorder(t, proxyTo(t, aitest.New(t, nbEcho)))
		ws := s.proj.WorkspaceID
		if _, err := s.cat.SetWorkspaceAI(sys, ws, oldAI.URL, "m", ptr(oldKey)); err != nil {
			t.Fatal(err)
		}
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"plain"}).wantStatus(t, http.StatusOK)
		if calls := oldAI.Calls(); len(calls) != 1 || calls[0].Authorization != "Bearer "+oldKey {
			t.Errorf("the old provider got %d calls, want 1 with its key", len(calls))
		}
		// A move without the key clears it: the next call reaches the new address keyless.
		v, err := s.cat.SetWorkspaceAI(sys, ws, newAI.URL+"/v1", "m", nil)
		if err != nil || v.KeySet || !v.KeyCleared {
			t.Fatalf("moving the AI provider without its key: %+v, %v; want saved with the key cleared", v, err)
		}
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"plain"}).wantStatus(t, http.StatusOK)
		if got := newAI.requests(); len(got) != 1 || got[0].header.Get("Authorization") != "" {
			t.Fatalf("the new address got %d requests after a keyless move, want 1 without a key: %v", len(got), got)
		}
		newAI.neverSaw(t, "the old AI key", oldKey)
		if _, err := s.cat.SetWorkspaceAI(sys, ws, newAI.URL+"/v1", "m", ptr(newKey)); err != nil {
			t.Fatalf("moving the provider with a key: %v", err)
		}
		s.call(t, "POST", s.retranslatePath("sv", "ui"), tokenAuth(s.rw), []string{"plain"}).wantStatus(t, http.StatusOK)
		got := newAI.requests()
		if len(got) != 2 || got[1].header.Get("Authorization") != "Bearer "+newKey {
			t.Errorf("the new provider got %d requests, want a second one with the new key", len(got))
		}
		newAI.neverSaw(t, "the old AI key", oldKey)

		// The GitHub redeploy: its API URL, then its repository.
		const oldTok, newTok = "ghp_oldTokenStaysHome0123", "ghp_newTokenGivenAgain0123"
		ghOld, ghNew := newFakeGitHub(t), newRecorder(t, nil)
		gh := func(api, repo string, tok *string) error {
			_, err := s.cat.SetRedeploy(sys, tools.RedeployIn{ProjectID: s.proj.ID, Provider: tools.DeployGitHub, Repo: repo,
				Workflow: "deploy.yml", Ref: "main", APIURL: api, Token: tok})
			return err
		}
		if err := gh(ghOld.srv.URL, "acme/site", ptr(oldTok)); err != nil {
			t.Fatal(err)
		}
		for _, move := range []struct{ api, repo, want string }{
			{ghNew.URL, "acme/site", "GitHub API URL"},
			{ghOld.srv.URL, "evil/site", "repository"},
			{ghNew.URL, "evil/site", "GitHub API URL"},
		} {
			err := gh(move.api, move.repo, nil)
			if model.ErrorCode(err) != model.CodeInvalid || !strings.Contains(model.ErrorMessage(err), "the "+move.want+" changes") ||
				!strings.Contains(model.ErrorMessage(err), "give the GitHub token again") {
				t.Errorf("moving the redeploy to %s %s without the token: %v", move.api, move.repo, err)
			}
		}
		if v, _ := s.cat.ShowRedeploy(sys, s.proj.ID); v.APIURL != ghOld.srv.URL || v.Repo != "acme/site" || !v.TokenSet {
			t.Fatalf("refused moves changed the redeploy: %+v", v)
		}
		// The workflow and ref may change and keep the token: the same repository.
		if err := gh(ghOld.srv.URL, "acme/site", nil); err != nil {
			t.Errorf("saving the same addresses without the token: %v", err)
		}
		s.call(t, "POST", "/api/"+s.proj.ID+"/redeploy", bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK)
		if c := ghOld.last(t); c.header.Get("Authorization") != "Bearer "+oldTok || c.path != "/repos/acme/site/actions/workflows/deploy.yml/dispatches" {
			t.Errorf("the dispatch went to %s", c.path)
		}
		if err := gh(ghNew.URL, "acme/site", ptr(newTok)); err != nil {
			t.Fatalf("moving the API with a token: %v", err)
		}
		s.call(t, "POST", "/api/"+s.proj.ID+"/redeploy", bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK)
		if err := gh(ghNew.URL, "acme/other", ptr(newTok)); err != nil {
			t.Fatalf("moving the repository with a token: %v", err)
		}
		s.call(t, "POST", "/api/"+s.proj.ID+"/redeploy", bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK)
		got = ghNew.requests()
		if len(got) != 2 || got[0].header.Get("Authorization") != "Bearer "+newTok || got[1].path != "/repos/acme/other/actions/workflows/deploy.yml/dispatches" {
			t.Errorf("the new API got %d dispatches, want 2 with the new token", len(got))
		}
		ghNew.neverSaw(t, "the old GitHub token", oldTok)

		// A webhook: the new URL gets a new secret, shown once, and never the old one.
		whOld, whNew := newRecorder(t, nil), newRecorder(t, nil)
		created, err := s.cat.AddWebhook(sys, s.proj.ID, whOld.URL+"/hook", nil)
		if err != nil {
			t.Fatal(err)
		}
		moved, err := s.cat.SetWebhookURL(sys, created.ID, whNew.URL+"/hook")
		if err != nil {
			t.Fatal(err)
		}
		if moved.Secret == created.Secret || !strings.HasPrefix(moved.Secret, tools.WebhookSecretPrefix) || moved.URL != whNew.URL+"/hook" {
			t.Fatalf("SetWebhookURL = %+v, want the new URL and a new secret", moved)
		}
		if _, err := s.cat.SetWebhookURL(sys, created.ID, "http://10.0.0.1/hook"); model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("moving a webhook into a private network: %v", err)
		}
		s.sync(t, "en", "ui", map[string]string{"plain": "Cart", "checkout": "Pay"})
		d := workflows.NewDeliverer(s.cat, &workflows.DeliveryOptions{Guard: opts.Outbound})
		if _, err := d.Pump(sys); err != nil {
			t.Fatal(err)
		}
		d.Wait()
		got = whNew.requests()
		if len(got) == 0 || got[0].header.Get("X-Webhook-Secret") != moved.Secret {
			t.Errorf("the new webhook URL got %d deliveries, want them with the new secret", len(got))
		}
		if n := len(whOld.requests()); n != 0 {
			t.Errorf("the old webhook URL got %d deliveries after the move", n)
		}
		whNew.neverSaw(t, "the old webhook secret", created.Secret)
	})
}

func ptr[T any](v T) *T { return &v }

// TestUpgradeSealsDeployHookURLs: a deploy hook URL an older lokal stored in plain text is
// sealed by the upgrade: the row no longer holds it, it is shown masked, and a dispatch
// still calls it. Without a secret key the upgrade stops, naming the key, and leaves it.
func TestUpgradeSealsDeployHookURLs(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		hook := newRecorder(t, nil)
		plain := hook.URL + "/deploy/plain-hook-secret-7f3a"
		// As an older version left it: the URL in plain text, this migration not run.
		raw := storagetest.SQL(t, dsn)
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{"UPDATE projects SET deploy_provider = 'hook', deploy_url = $1 WHERE id = $2", []any{plain, f.Project.ID}},
			{"DELETE FROM bun_migrations WHERE name = '20261124500001'", nil},
		} {
			if res, err := raw.ExecContext(t.Context(), q.sql, q.args...); err != nil {
				t.Fatal(err)
			} else if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%s: %d rows", q.sql, n)
			}
		}
		storedURL := func() string {
			var v string
			if err := raw.QueryRowContext(t.Context(), "SELECT deploy_url FROM projects WHERE id = $1", f.Project.ID).Scan(&v); err != nil {
				t.Fatal(err)
			}
			return v
		}

		if _, err := storage.Open(t.Context(), dsn, &storage.Options{}); err == nil || !strings.Contains(err.Error(), secrets.EnvKey) {
			t.Fatalf("upgrading without a secret key: %v, want an error naming %s", err, secrets.EnvKey)
		}
		if storedURL() != plain {
			t.Fatal("a failed upgrade changed the row")
		}

		box, err := secrets.New(make([]byte, secrets.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		db := storagetest.MustOpen(t, dsn, &storage.Options{Secrets: box})
		if v := storedURL(); !strings.HasPrefix(v, "v1:") || strings.Contains(v, "plain-hook-secret") || strings.Contains(v, hook.URL) {
			t.Fatalf("after the upgrade the row holds %q, want it sealed", v)
		}
		opts := redeployOptions(t)
		opts.Secrets = box
		s := serve(t, dialect, db, opts)
		s.useFixture(f)
		v, err := s.cat.ShowRedeploy(sys(t), f.Project.ID)
		if err != nil || v.Provider != tools.DeployHook || v.URL != hook.URL+"/…7f3a" {
			t.Errorf("ShowRedeploy after the upgrade = %+v, %v; want the URL masked", v, err)
		}
		s.call(t, "POST", "/api/"+f.Project.ID+"/redeploy", bearerAuth(f.PAT), nil).wantStatus(t, http.StatusOK)
		if got := hook.requests(); len(got) != 1 || got[0].path != "/deploy/plain-hook-secret-7f3a" {
			t.Errorf("the hook got %+v, want one POST to its URL", got)
		}
		// Reopening does not seal twice.
		before := storedURL()
		storagetest.MustOpen(t, dsn, &storage.Options{Secrets: box})
		if storedURL() != before {
			t.Error("a second start changed the sealed URL")
		}
	})
}
