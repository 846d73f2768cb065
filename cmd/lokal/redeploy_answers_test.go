package main_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/lokal-dev/lokal/workflows"
)

// TestCLIRedeployAttemptsNoAnswer: attempts refused by a GitHub double that echoes the
// token into its 401, 404 and 422 are listed by `lokal redeploy attempts` (text and
// JSON) with the status and lokal's reason, never the token or the answer.
func TestCLIRedeployAttemptsNoAnswer(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		var status atomic.Int64
		gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			w.WriteHeader(int(status.Load()))
			_ = json.NewEncoder(w).Encode(map[string]string{"message": "Bad credentials " + r.Header.Get("Authorization") + " for " + string(body)})
		}))
		t.Cleanup(gh.Close)
		f := makeFixture(t, dsn)
		db := []string{"--database", dsn}
		key := bytes.Repeat([]byte{9}, secrets.KeySize)
		env := []string{"LOKAL_SECRET_KEY=" + base64.StdEncoding.EncodeToString(key), "LOKAL_ALLOW_PRIVATE_NETS=127.0.0.1/32"}
		if r := lokalIn(t, env, deployToken+"\n", append([]string{"redeploy", "set", "--project", f.project, "--provider", "github",
			"--repo", "acme/site", "--workflow", "deploy.yml", "--ref", "main", "--api-url", gh.URL, "--token-stdin"}, db...)...); r.code != 0 {
			t.Fatalf("redeploy set: %d %s", r.code, r.stderr)
		}
		// The dispatches are made as the server makes them, with the same key.
		store, err := storage.Open(t.Context(), dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		box, err := secrets.New(key)
		if err != nil {
			t.Fatal(err)
		}
		cat := tools.NewCatalog(store, &tools.Options{Secrets: box, Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})})
		for _, st := range []int64{401, 404, 422} {
			status.Store(st)
			if _, err := cat.Redeploy(model.WithPrincipal(t.Context(), tools.System), f.project, workflows.Dispatch); err == nil {
				t.Fatalf("HTTP %d: the dispatch succeeded", st)
			}
		}
		text := lokal(t, nil, append([]string{"redeploy", "attempts", "--project", f.project}, db...)...)
		asJSON := lokal(t, nil, append([]string{"redeploy", "attempts", "--project", f.project, "--json"}, db...)...)
		for _, out := range []string{text.stdout + text.stderr, asJSON.stdout + asJSON.stderr} {
			for _, bad := range []string{deployToken, "Bad credentials", "Bearer"} {
				if strings.Contains(out, bad) {
					t.Errorf("redeploy attempts shows %q: %s", bad, out)
				}
			}
		}
		for _, want := range []string{"HTTP 401", "the code host refused the token", "HTTP 404", "the code host could not find the repository or workflow",
			"HTTP 422", "the code host refused the dispatch"} {
			if !strings.Contains(text.stdout, want) {
				t.Errorf("redeploy attempts lacks %q: %s", want, text.stdout)
			}
		}
		if !strings.Contains(asJSON.stdout, `"http_status": 401`) && !strings.Contains(asJSON.stdout, `"http_status":401`) {
			t.Errorf("redeploy attempts --json lacks the status: %s", asJSON.stdout)
		}
	})
}
