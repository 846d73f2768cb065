package rest_test

import (
	"encoding/json"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// fakeGitHub is GitHub's workflow_dispatch endpoint on 127.0.0.1: it records each call and
// answers with the status set for it.
type fakeGitHub struct {
	srv     *httptest.Server
	mu      sync.Mutex
	status  int
	calls   []ghCall
	release chan struct{}
}

type ghCall struct {
	path   string
	header http.Header
	body   map[string]any
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	t.Helper()
	g := &fakeGitHub{status: http.StatusNoContent, release: make(chan struct{})}
	t.Cleanup(func() { close(g.release) })
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		g.mu.Lock()
		g.calls = append(g.calls, ghCall{path: r.URL.Path, header: r.Header.Clone(), body: body})
		st := g.status
		g.mu.Unlock()
		switch st {
		case 0: // never answers in time
			select {
			case <-g.release:
			case <-r.Context().Done():
			}
			return
		case http.StatusFound:
			http.Redirect(w, r, "http://127.0.0.2:9/steal", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(st)
		if st >= 400 {
			io.WriteString(w, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`)
		}
	}))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *fakeGitHub) set(status int) {
	g.mu.Lock()
	g.status = status
	g.mu.Unlock()
}

func (g *fakeGitHub) last(t *testing.T) ghCall {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.calls) == 0 {
		t.Fatal("GitHub was not called")
	}
	return g.calls[len(g.calls)-1]
}

// testClock is a settable time for the catalogue and its limiter.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func redeployOptions(t *testing.T) *tools.Options {
	box, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return &tools.Options{Secrets: box, Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}),
		DispatchTimeout: 2 * time.Second} // long enough for a loaded race run; the hanging provider hits it
}

const ghToken = "ghp_s3cretTokenValue0123456789"

// Endpoint 8 against a fake GitHub: the dispatch's shape, and every answer mapped to the
// spec's status; every attempt recorded, the token never shown.
func TestRedeployGitHub(t *testing.T) {
	t.Parallel()
	clk := &testClock{t: time.Now()}
	opts := redeployOptions(t)
	opts.Now = clk.now
	forEachDialectWith(t, opts, func(t *testing.T, s *server) {
		gh := newFakeGitHub(t)
		path := "/api/" + s.proj.ID + "/redeploy"

		// Nothing configured: 422 {ok:false, error:not_configured}.
		r := s.call(t, "POST", path, bearerAuth(s.pat), nil)
		if r.status != 422 || !sameJSONFields(t, r.body, map[string]any{"ok": false, "error": "not_configured"}) {
			t.Fatalf("unconfigured: %d %s", r.status, r.body)
		}
		tok := ghToken
		if _, err := s.cat.SetRedeploy(sys(t), tools.RedeployIn{ProjectID: s.proj.ID, Provider: tools.DeployGitHub, Repo: "acme/site",
			Workflow: "deploy.yml", Ref: "main", Inputs: map[string]string{"reason": "translations"}, APIURL: gh.srv.URL, Token: &tok}); err != nil {
			t.Fatal(err)
		}
		me := s.call(t, "GET", "/api/me", bearerAuth(s.pat), nil)
		if !strings.Contains(string(me.body), `"deploy_configured":true`) {
			t.Errorf("/api/me: %s, want deploy_configured true", me.body)
		}

		// Project keys are refused before anything is dispatched; other projects' tokens are
		// unauthorized.
		for _, c := range []struct {
			auth, code string
			status     int
		}{
			{tokenAuth(s.rw), "pat_required", 403}, {tokenAuth(s.ro), "pat_required", 403},
			{tokenAuth(s.otherRW), "unauthorized", 401}, {"", "unauthorized", 401}, {bearerAuth(s.otherWSToken), "unauthorized", 401},
		} {
			r := s.call(t, "POST", path, c.auth, nil)
			if r.status != c.status || !strings.Contains(string(r.body), `"error":"`+c.code+`"`) {
				t.Errorf("auth %q: %d %s, want %d %s", c.auth, r.status, r.body, c.status, c.code)
			}
		}
		gh.mu.Lock()
		if len(gh.calls) != 0 {
			t.Errorf("refused callers reached GitHub %d times", len(gh.calls))
		}
		gh.mu.Unlock()

		for _, c := range []struct {
			github int
			status int
			code   string
		}{
			{204, 200, ""}, {200, 200, ""},
			{401, 422, "not_configured"}, {403, 422, "not_configured"}, {404, 422, "not_configured"},
			{422, 502, "dispatch_failed"}, {500, 502, "dispatch_failed"}, {503, 502, "dispatch_failed"},
			{0, 502, "dispatch_failed"}, {http.StatusFound, 502, "dispatch_failed"},
		} {
			gh.set(c.github)
			auth := bearerAuth(s.pat)
			if c.github == 200 {
				auth = bearerAuth(s.wsToken) // a workspace token is a personal access token too
			}
			clk.add(11 * time.Second) // under the limit of 6 a minute
			r := s.call(t, "POST", path, auth, nil)
			if r.status != c.status {
				t.Errorf("GitHub %d: status %d %s, want %d", c.github, r.status, r.body, c.status)
				continue
			}
			if strings.Contains(string(r.body), ghToken) {
				t.Errorf("GitHub %d: the answer carries the token: %s", c.github, r.body)
			}
			var got map[string]any
			json.Unmarshal(r.body, &got)
			if c.status == 200 {
				at, _ := got["dispatched_at"].(string)
				if got["ok"] != true || at == "" {
					t.Errorf("GitHub %d: %s, want ok and dispatched_at", c.github, r.body)
				} else if _, err := time.Parse(time.RFC3339, at); err != nil {
					t.Errorf("dispatched_at %q is not ISO 8601", at)
				}
			} else if got["ok"] != false || got["error"] != c.code {
				t.Errorf("GitHub %d: %s, want ok false and %s", c.github, r.body, c.code)
			}
		}
		call := gh.last(t)
		if call.path != "/repos/acme/site/actions/workflows/deploy.yml/dispatches" {
			t.Errorf("path %s", call.path)
		}
		if call.header.Get("Authorization") != "Bearer "+ghToken || call.header.Get("Accept") != "application/vnd.github+json" ||
			call.header.Get("X-GitHub-Api-Version") != "2022-11-28" {
			t.Errorf("headers %v", call.header)
		}
		if call.body["ref"] != "main" || call.body["inputs"].(map[string]any)["reason"] != "translations" {
			t.Errorf("body %v", call.body)
		}

		attempts, err := s.cat.RedeployAttempts(sys(t), s.proj.ID, 100)
		if err != nil {
			t.Fatal(err)
		}
		// The unconfigured call and the ten dispatches; refused callers are not attempts.
		if len(attempts) != 11 {
			t.Fatalf("%d attempts, want 11", len(attempts))
		}
		outcomes := map[string]int{}
		for _, a := range attempts {
			outcomes[a.Outcome]++
			if strings.Contains(a.Message, ghToken) {
				t.Errorf("attempt %+v carries the token", a)
			}
			if a.By != "user:"+s.user.ID {
				t.Errorf("attempt by %q, want user:%s", a.By, s.user.ID)
			}
		}
		if outcomes["dispatched"] != 2 || outcomes["not_configured"] != 4 || outcomes["refused"] != 4 || outcomes["error"] != 1 {
			t.Errorf("outcomes %v", outcomes)
		}
		if a := attempts[len(attempts)-1]; a.Outcome != "not_configured" || a.HTTPStatus != nil {
			t.Errorf("oldest attempt %+v, want not_configured without a provider status", a)
		}
		if v, _ := s.cat.ShowRedeploy(sys(t), s.proj.ID); !v.TokenSet || v.Repo != "acme/site" {
			t.Errorf("show %+v", v)
		}
	})
}

func sameJSONFields(t *testing.T, body []byte, want map[string]any) bool {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// A deploy hook is POSTed with an empty body; the refresh moves the project's revision so
// cached reads see the latest values; the limit is 6 a minute.
func TestRedeployHookAndLimit(t *testing.T) {
	t.Parallel()
	forEachDialectWith(t, redeployOptions(t), func(t *testing.T, s *server) {
		var mu sync.Mutex
		var bodies []string
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			bodies = append(bodies, r.Method+" "+string(b))
			mu.Unlock()
			io.WriteString(w, `{"job":{"id":"x","state":"PENDING"}}`)
		}))
		t.Cleanup(hook.Close)
		if _, err := s.cat.SetRedeploy(sys(t), tools.RedeployIn{ProjectID: s.proj.ID, Provider: tools.DeployHook, URL: hook.URL + "/deploy/hook"}); err != nil {
			t.Fatal(err)
		}
		path := "/api/" + s.proj.ID + "/redeploy"
		for i := 0; i < 6; i++ {
			if r := s.call(t, "POST", path, bearerAuth(s.pat), nil); r.status != 200 {
				t.Fatalf("redeploy %d: %d %s", i, r.status, r.body)
			}
		}
		r := s.call(t, "POST", path, bearerAuth(s.pat), nil)
		if r.status != 429 || r.header.Get("Retry-After") == "" {
			t.Fatalf("7th redeploy in a minute: %d %s, want 429 with Retry-After", r.status, r.body)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(bodies) != 6 || bodies[0] != "POST " {
			t.Errorf("hook calls %q, want six POSTs with empty bodies", bodies)
		}
	})
}

// A deploy hook URL that turned private (DNS) is refused where the connection is made.
func TestRedeployGuardAtDialTime(t *testing.T) {
	t.Parallel()
	opts := redeployOptions(t)
	s := newServer(t, "sqlite", opts)
	ln, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		t.Skip(err)
	}
	var conns atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	// Configured through a catalogue that allows 127.0.0.0/8; served by one that does not.
	wide := *opts
	wide.Outbound = outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})
	if _, err := storagetest.Catalog(s.db, &wide).SetRedeploy(sys(t), tools.RedeployIn{ProjectID: s.proj.ID, Provider: tools.DeployHook,
		URL: "http://" + ln.Addr().String() + "/hook"}); err != nil {
		t.Fatal(err)
	}
	r := s.call(t, "POST", "/api/"+s.proj.ID+"/redeploy", bearerAuth(s.pat), nil)
	if r.status != 502 || !strings.Contains(string(r.body), "outbound guard") {
		t.Fatalf("%d %s, want 502 refused by the guard", r.status, r.body)
	}
	if n := conns.Load(); n != 0 {
		t.Errorf("the listener got %d connections", n)
	}
}
