package main_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

const deployToken = "ghp_cliTokenNeverPrinted0123456789"

// secretEnv is what storing a secret needs: on PostgreSQL a key (SQLite writes a key file).
func secretEnv(dsn string) []string {
	if strings.HasPrefix(dsn, "sqlite:") {
		return nil
	}
	return []string{"LOKAL_SECRET_KEY=" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))}
}

func keys(obj map[string]any) string {
	var ks []string
	for k := range obj {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// TestCLIWebhooks covers webhook add, list, disable and deliveries on each dialect.
func TestCLIWebhooks(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--database", dsn}
		env := append(secretEnv(dsn), "LOKAL_ALLOW_PRIVATE_NETS=127.0.0.1/32")

		// Loopback and private URLs are refused without the allow list, with the reason.
		for _, u := range []string{"http://127.0.0.1:9/x", "http://169.254.169.254/", "http://[::1]/", "http://10.0.0.1/"} {
			msg := aiFails(t, secretEnv(dsn), "", append([]string{"webhook", "add", "--project", f.project, "--url", u}, db...)...)
			if !strings.Contains(msg, "refused") || !strings.Contains(msg, "allow-private-nets") {
				t.Errorf("webhook add %s: %q, want a refusal naming --allow-private-nets", u, msg)
			}
		}
		aiFails(t, env, "", append([]string{"webhook", "add", "--project", f.project, "--url", "http://127.0.0.1:9/x", "--events", "translation.deleted"}, db...)...)

		add := aiJSON(t, env, "", append([]string{"webhook", "add", "--project", f.project, "--url", "http://127.0.0.1:9/hook",
			"--events", "translation.approved,translation.created"}, db...)...)
		if keys(add) != "events,id,secret,url" {
			t.Fatalf("webhook add printed %v", add)
		}
		secret := add["secret"].(string)
		if raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_")); err != nil || len(raw) != 24 || !strings.HasPrefix(secret, "whsec_") {
			t.Errorf("secret %q, want whsec_ and 24 bytes in base64", secret)
		}
		id := add["id"].(string)
		// The secret is stored sealed, never as given.
		if row := rawRow(t, dsn, "SELECT secret_enc FROM webhooks"); strings.Contains(row["secret_enc"], strings.TrimPrefix(secret, "whsec_")) {
			t.Error("the webhook secret is stored in the clear")
		}

		// A new URL rotates the secret: printed once, the old one gone from the row.
		sealedBefore := rawRow(t, dsn, "SELECT secret_enc FROM webhooks")["secret_enc"]
		aiFails(t, secretEnv(dsn), "", append([]string{"webhook", "set", "--id", id, "--url", "http://127.0.0.1:9/moved"}, db...)...)
		moved := aiJSON(t, env, "", append([]string{"webhook", "set", "--id", id, "--url", "http://127.0.0.1:9/moved"}, db...)...)
		if keys(moved) != "events,id,secret,url" || moved["url"] != "http://127.0.0.1:9/moved" || moved["id"] != id {
			t.Fatalf("webhook set printed %v", moved)
		}
		if s2 := moved["secret"].(string); s2 == secret || !strings.HasPrefix(s2, "whsec_") {
			t.Errorf("webhook set kept the secret or made a bad one: %q", s2)
		} else {
			secret = s2
		}
		if after := rawRow(t, dsn, "SELECT secret_enc FROM webhooks")["secret_enc"]; after == sealedBefore || !strings.HasPrefix(after, "v1:") {
			t.Error("webhook set did not store a new sealed secret")
		}

		list := aiJSON(t, nil, "", append([]string{"webhook", "list", "--project", f.project}, db...)...)
		hooks := list["webhooks"].([]any)
		if len(hooks) != 1 {
			t.Fatalf("list %v", list)
		}
		h := hooks[0].(map[string]any)
		if keys(h) != "enabled,events,id,last_outcome,url" || h["enabled"] != true || h["last_outcome"] != nil || h["id"] != id {
			t.Errorf("listed %v", h)
		}
		if strings.Contains(string(mustJSON(t, list)), secret) {
			t.Error("webhook list shows the secret")
		}
		ds := aiJSON(t, nil, "", append([]string{"webhook", "deliveries", "--id", id, "--limit", "10"}, db...)...)
		if keys(ds) != "deliveries" || len(ds["deliveries"].([]any)) != 0 {
			t.Errorf("deliveries %v", ds)
		}
		dis := aiJSON(t, nil, "", append([]string{"webhook", "disable", "--id", id}, db...)...)
		if dis["enabled"] != false {
			t.Errorf("disable printed %v", dis)
		}
		list = aiJSON(t, nil, "", append([]string{"webhook", "list", "--project", f.project}, db...)...)
		if list["webhooks"].([]any)[0].(map[string]any)["enabled"] != false {
			t.Errorf("after disable: %v", list)
		}
		aiFails(t, nil, "", append([]string{"webhook", "disable", "--id", "00000000-0000-4000-8000-000000000000"}, db...)...)
		aiFails(t, nil, "", append([]string{"webhook", "deliveries", "--id", id, "--limit", "0"}, db...)...)
	})
}

// TestCLIRedeploy covers redeploy set, show and attempts; the token is read from stdin,
// stored sealed and never printed.
func TestCLIRedeploy(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--database", dsn}
		env := append(secretEnv(dsn), "LOKAL_ALLOW_PRIVATE_NETS=127.0.0.1/32")
		show := append([]string{"redeploy", "show", "--project", f.project}, db...)
		fields := "api_url,provider,ref,repo,token_set,url,workflow"
		if got := aiJSON(t, nil, "", show...); keys(got) != fields || got["provider"] != "" || got["token_set"] != false {
			t.Fatalf("show before set: %v", got)
		}
		set := append([]string{"redeploy", "set", "--project", f.project, "--provider", "github", "--repo", "acme/site",
			"--workflow", "deploy.yml", "--ref", "main", "--inputs", "reason=translations,env=prod",
			"--api-url", "http://127.0.0.1:9/api/v3", "--token-stdin"}, db...)
		// Without a token GitHub cannot be configured; a private API URL is refused.
		aiFails(t, env, "", append([]string{"redeploy", "set", "--project", f.project, "--provider", "github", "--repo", "acme/site",
			"--workflow", "deploy.yml", "--ref", "main"}, db...)...)
		if msg := aiFails(t, secretEnv(dsn), deployToken, set...); !strings.Contains(msg, "refused") {
			t.Errorf("private API URL: %q", msg)
		}
		r := lokalIn(t, env, deployToken+"\n", append(set, "--json")...)
		if r.code != 0 {
			t.Fatalf("redeploy set: %d %s", r.code, r.stderr)
		}
		for _, out := range []string{r.stdout, r.stderr} {
			if strings.Contains(out, deployToken) {
				t.Fatal("redeploy set printed the token")
			}
		}
		got := aiJSON(t, nil, "", show...)
		if keys(got) != fields || got["provider"] != "github" || got["repo"] != "acme/site" || got["workflow"] != "deploy.yml" ||
			got["ref"] != "main" || got["api_url"] != "http://127.0.0.1:9/api/v3" || got["token_set"] != true {
			t.Errorf("show: %v", got)
		}
		text := lokal(t, nil, show...)
		if strings.Contains(text.stdout, deployToken) || !strings.Contains(text.stdout, "env=prod") {
			t.Errorf("show as text: %q", text.stdout)
		}
		if row := rawRow(t, dsn, "SELECT deploy_token FROM projects WHERE id = '"+f.project+"'"); row["deploy_token"] == "" ||
			strings.Contains(row["deploy_token"], deployToken) {
			t.Error("the deploy token is not stored sealed")
		}
		// A new API URL or repository without the token is refused, naming the token, and
		// changes nothing; a new workflow or ref keeps it.
		gh := func(repo, api string) []string {
			return append([]string{"redeploy", "set", "--project", f.project, "--provider", "github", "--repo", repo,
				"--workflow", "deploy.yml", "--ref", "main", "--api-url", api}, db...)
		}
		for _, args := range [][]string{gh("acme/site", "http://127.0.0.1:10/api/v3"), gh("evil/site", "http://127.0.0.1:9/api/v3")} {
			if msg := aiFails(t, env, "", args...); !strings.Contains(msg, "give the GitHub token again") || !strings.Contains(msg, "--token-stdin") {
				t.Errorf("redeploy set %v without the token: %q, want a refusal naming the token", args[8:], msg)
			}
		}
		if got := aiJSON(t, nil, "", show...); got["repo"] != "acme/site" || got["api_url"] != "http://127.0.0.1:9/api/v3" || got["token_set"] != true {
			t.Errorf("after refused moves: %v", got)
		}
		if got := aiJSON(t, env, "", append(gh("acme/site", "http://127.0.0.1:9/api/v3"), "--ref", "release")...); got["token_set"] != true || got["ref"] != "release" {
			t.Errorf("a new ref dropped the token: %v", got)
		}
		if got := aiJSON(t, env, deployToken, append(gh("acme/site2", "http://127.0.0.1:10/api/v3"), "--token-stdin")...); got["token_set"] != true ||
			got["repo"] != "acme/site2" || got["api_url"] != "http://127.0.0.1:10/api/v3" {
			t.Errorf("a move with the token: %v", got)
		}
		p := aiJSON(t, nil, "", append([]string{"project", "show", "--project", f.project}, db...)...)
		if p["deploy_configured"] != true {
			t.Errorf("project show: deploy_configured %v", p["deploy_configured"])
		}
		// Switching to a deploy hook drops the GitHub settings and the token.
		hook := aiJSON(t, env, "", append([]string{"redeploy", "set", "--project", f.project, "--provider", "hook",
			"--url", "http://127.0.0.1:9/hooks/deploy"}, db...)...)
		// The hook URL is a secret: shown masked, stored sealed.
		if hook["provider"] != "hook" || hook["url"] != "http://127.0.0.1:9/…" || hook["token_set"] != false || hook["repo"] != "" {
			t.Errorf("hook set: %v", hook)
		}
		if got := aiJSON(t, env, "", show...); got["url"] != "http://127.0.0.1:9/…" {
			t.Errorf("show of a hook: %v", got)
		}
		if row := rawRow(t, dsn, "SELECT deploy_url FROM projects WHERE id = '"+f.project+"'"); !strings.HasPrefix(row["deploy_url"], "v1:") ||
			strings.Contains(row["deploy_url"], "hooks/deploy") {
			t.Errorf("the deploy hook URL is stored as %q, want sealed", row["deploy_url"])
		}
		att := aiJSON(t, nil, "", append([]string{"redeploy", "attempts", "--project", f.project, "--limit", "5"}, db...)...)
		if keys(att) != "attempts" || len(att["attempts"].([]any)) != 0 {
			t.Errorf("attempts %v", att)
		}
		aiFails(t, env, "", append([]string{"redeploy", "set", "--project", f.project, "--provider", "gitlab", "--url", "http://127.0.0.1:9/"}, db...)...)
	})
}

// crashReceiver is a receiver that verifies each delivery's signature and records the keys.
type crashReceiver struct {
	mu     sync.Mutex
	secret string
	keys   map[string]int
	bad    []string
}

func (c *crashReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(c.secret, "whsec_"))
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "." + string(body)))
	if r.Header.Get("webhook-signature") != "v1,"+base64.StdEncoding.EncodeToString(m.Sum(nil)) || r.Header.Get("X-Webhook-Secret") != c.secret {
		c.bad = append(c.bad, string(body))
	}
	var b struct {
		Data struct {
			Key string `json:"key"`
		} `json:"data"`
	}
	json.Unmarshal(body, &b)
	c.keys[b.Data.Key]++
	w.WriteHeader(http.StatusOK)
}

// TestServeWebhooksSurviveSIGKILL: the receiver is down while events queue, lokal serve is
// killed with SIGKILL, started again, the receiver comes up: every event arrives.
//
// A server killed and the leases it held waited out (13-33 s of wall time per database,
// idle, in make test): make test-long runs it.
func TestServeWebhooksSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	storagetest.Long(t)
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--database", dsn}
		// The receiver's port, free while it is down.
		hold, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		recvAddr := hold.Addr().String()
		hold.Close()
		env := append(secretEnv(dsn), "LOKAL_ALLOW_PRIVATE_NETS=127.0.0.1/32", "LOKAL_WEBHOOK_BACKOFF=10s,20s,40s")
		add := aiJSON(t, env, "", append([]string{"webhook", "add", "--project", f.project, "--url", "http://" + recvAddr + "/hook"}, db...)...)
		pat := str(t, jsonObject(t, []string{"token"}, "token", "create", "--user", f.user, "--project", f.project, "--json", "--database", dsn), "token")

		addr := freeAddr(t)
		p := startServeWith(t, addr, env, "serve", "--listen", addr, "--database", dsn)
		const n = 25
		tr := map[string]string{}
		for i := 0; i < n; i++ {
			tr["crash.k"+strings.Repeat("x", i)] = "v"
		}
		body, _ := json.Marshal(tr)
		if st, b := p.do(t, "PUT", "/api/sync/"+f.project+"/latest/en/app", "Bearer "+pat, string(body)); st != 200 {
			t.Fatalf("sync: %d %s", st, b)
		}
		// Let the deliverer make its first, failing, attempts; then kill it mid-flight.
		poll(t, 30*time.Second, "a first failed attempt", func() bool {
			r := lokal(t, nil, append([]string{"webhook", "list", "--project", f.project, "--json"}, db...)...)
			return strings.Contains(r.stdout, `"status":"failed"`)
		})
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-p.done

		rc := &crashReceiver{secret: add["secret"].(string), keys: map[string]int{}}
		ln, err := net.Listen("tcp4", recvAddr)
		if err != nil {
			t.Skipf("the receiver's port was taken meanwhile: %v", err)
		}
		srv := httptest.NewUnstartedServer(rc)
		srv.Listener.Close()
		srv.Listener = ln
		srv.Start()
		t.Cleanup(srv.Close)

		addr2 := freeAddr(t)
		p2 := startServeWith(t, addr2, env, "serve", "--listen", addr2, "--database", dsn)
		// Leases of the killed process end within 30 s; a minute and a half is a guard.
		poll(t, 90*time.Second, "every event delivered after the restart", func() bool {
			rc.mu.Lock()
			defer rc.mu.Unlock()
			return len(rc.keys) == n
		})
		rc.mu.Lock()
		if len(rc.bad) > 0 {
			t.Errorf("%d deliveries with a bad signature or secret: %q", len(rc.bad), rc.bad[0])
		}
		rc.mu.Unlock()
		if code := p2.stop(t); code != 0 {
			t.Errorf("lokal serve exited %d after SIGTERM", code)
		}
	})
}
