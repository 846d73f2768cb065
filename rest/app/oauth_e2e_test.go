package app_test

// End to end with real MCP clients and a real browser: the MCP TypeScript SDK's OAuth
// client (clients/mcp-oauth-client.mjs, run with node) and the go-sdk's
// auth.AuthorizationCodeHandler connect to lokal with the MCP URL alone. Each discovers the
// authorization server from the 401, names itself by a Client ID Metadata Document served
// over TLS on 127.0.0.1, and is approved by the person on the consent page in Chromium;
// then it calls tools, refreshes, and is refused after a revocation on the Connect page, a
// narrower role, the person's removal, a replayed refresh token and at another audience.
// Everything stays on loopback; time moves on a fake clock.

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"
)

// e2eEnv is env served at a base URL known before the catalogue is built (the issuer and
// the resources are made of it), on a clock the test moves, with a TLS server on
// 127.0.0.1 for the clients' metadata documents.
type e2eEnv struct {
	*env
	base   string
	offset atomic.Int64 // how far the fake clock is ahead of the real one
	cimd   *httptest.Server
	docs   sync.Map // path → metadata document
}

func newE2EEnv(t *testing.T, dialect string, set ...func(*tools.Options)) *e2eEnv {
	t.Helper()
	o := &e2eEnv{}
	o.cimd = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := o.docs.Load(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc.([]byte))
	}))
	t.Cleanup(o.cimd.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.base = "http://" + ln.Addr().String()
	roots := x509.NewCertPool()
	roots.AddCert(o.cimd.Certificate())
	opts := ownerOptions(t, &tools.Options{
		BaseURL:      o.base,
		OAuthRootCAs: roots,
		Now:          func() time.Time { return time.Now().Add(time.Duration(o.offset.Load())) },
	})
	for _, f := range set {
		f(opts)
	}

	dsn, f := storagetest.FixtureDSN(t, dialect)
	db := storagetest.MustOpen(t, dsn, nil)
	cat := storagetest.Catalog(db, opts)
	quiet := slog.New(slog.DiscardHandler)
	h := app.Mount(rest.New(cat, &rest.Options{Logger: quiet, Health: db.Ping}), app.New(cat, &app.Options{Logger: quiet, ClientIP: app.ClientIPFrom(loopback)}))
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	o.env = &env{dialect: dialect, dsn: dsn, db: db, cat: cat, srv: srv, f: f, opts: opts}
	for _, u := range []string{f.User.ID, f.OtherUser.ID} {
		if err := cat.SetPassword(o.sys(t), u, password); err != nil {
			t.Fatalf("setting a password: %v", err)
		}
	}
	return o
}

// clientDoc publishes a Client ID Metadata Document at path on the TLS server and returns
// its URL, the client's id.
func (o *e2eEnv) clientDoc(t *testing.T, path, name, redirect string) string {
	t.Helper()
	id := o.cimd.URL + path
	doc, err := json.Marshal(map[string]any{
		"client_id": id, "client_name": name, "redirect_uris": []string{redirect},
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": "none",
	})
	if err != nil {
		t.Fatal(err)
	}
	o.docs.Store(path, doc)
	return id
}

func (o *e2eEnv) mcpURL(projectID string) string {
	if projectID == "" {
		return o.base + "/api/mcp"
	}
	return o.base + "/api/" + projectID + "/mcp"
}

// rawMCP sends an MCP initialize with bearer to url, as a client holding a stolen or
// misdirected token would.
func (o *e2eEnv) rawMCP(t *testing.T, url, bearer string) (int, http.Header) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+bearer)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header
}

// refusedToken checks that url refuses bearer with 401 invalid_token and a challenge that
// names url's protected resource metadata.
func (o *e2eEnv) refusedToken(t *testing.T, url, bearer, why string) {
	t.Helper()
	status, h := o.rawMCP(t, url, bearer)
	challenge := h.Get("WWW-Authenticate")
	prm := o.base + "/.well-known/oauth-protected-resource" + strings.TrimPrefix(url, o.base)
	if status != http.StatusUnauthorized || !strings.Contains(challenge, `error="invalid_token"`) || !strings.Contains(challenge, `resource_metadata="`+prm+`"`) {
		t.Errorf("%s: %s answered %d with WWW-Authenticate %q; want 401 invalid_token naming %s", why, url, status, challenge, prm)
	}
}

// tokenRequest posts form to the token endpoint and returns the status and the JSON answer.
func (o *e2eEnv) tokenRequest(t *testing.T, form url.Values) (int, map[string]any) {
	t.Helper()
	res, err := http.PostForm(o.base+"/oauth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("the token endpoint answered %d %q, not JSON", res.StatusCode, b)
	}
	return res.StatusCode, out
}

// callback is a client's loopback redirect listener (RFC 8252): each authorization
// response that reaches it is sent on got.
type callback struct {
	url string
	got chan url.Values
}

func newCallback(t *testing.T) *callback {
	t.Helper()
	cb := &callback{got: make(chan url.Values, 4)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "lokal e2e: you may close this window")
		cb.got <- r.URL.Query()
	}))
	t.Cleanup(srv.Close)
	cb.url = srv.URL + "/callback"
	return cb
}

// consent does in the browser what the person does: opens the authorization URL, signs in
// as email when asked, checks that the page names the client, chooses the project (or
// "workspace") and read-write or read-only, allows, and waits until the browser lands on
// the client's redirect. It returns what the page says of how the client is known, and
// errors rather than failing the test: the go-sdk calls it from its own flow.
func consent(ctx context.Context, authURL, email, clientName, projectID string, readWrite bool, redirect string) (knownBy string, err error) {
	if err := chromedp.Do(ctx, chromedp.Navigate(authURL)); err != nil {
		return "", fmt.Errorf("opening the authorization URL: %w", err)
	}
	if err := pollPage(ctx, "the sign-in or the consent form", `!!(document.querySelector('#email') || document.querySelector('#approve'))`); err != nil {
		return "", err
	}
	signIn, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('#email')`))
	if err != nil {
		return "", err
	}
	if signIn {
		if err := chromedp.Do(ctx,
			chromedp.SendKeys(chromedp.CSS(`#email`), email),
			chromedp.SendKeys(chromedp.CSS(`#password`), password),
			chromedp.Submit(chromedp.CSS(`#password`))); err != nil {
			return "", fmt.Errorf("signing in: %w", err)
		}
		if err := pollPage(ctx, "the consent form after signing in", `!!document.querySelector('#approve')`); err != nil {
			return "", err
		}
	}
	if knownBy, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#client-source').textContent`)); err != nil {
		return "", err
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#client-name').textContent + ' | ' + document.querySelector('#redirect-host').textContent`))
	if err != nil {
		return "", err
	}
	if want := clientName + " | 127.0.0.1"; !strings.HasPrefix(shown, want) {
		return "", fmt.Errorf("the consent page names %q, want %q", shown, want)
	}
	// At a project endpoint the project is fixed (a hidden field); at the workspace
	// endpoint the person picks it.
	fixed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#consent-project') ? '' : document.querySelector('section.consent input[name="project"]').value`))
	if err != nil {
		return "", err
	}
	if fixed == "" {
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`#consent-project`), projectID)); err != nil {
			return "", fmt.Errorf("choosing the project: %w", err)
		}
	} else if fixed != projectID {
		return "", fmt.Errorf("the consent page fixes project %s, want %s", fixed, projectID)
	}
	access := "read"
	if readWrite {
		access = "write"
	}
	offered, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector('#consent-access option[value=%q]')`, access)))
	if err != nil {
		return "", err
	}
	if !offered {
		return "", fmt.Errorf("the consent page does not offer %s access", access)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`#consent-access`), access), chromedp.Click(chromedp.CSS(`#approve`))); err != nil {
		return "", fmt.Errorf("allowing: %w", err)
	}
	return knownBy, pollPage(ctx, "the redirect to "+redirect, fmt.Sprintf(`location.href.startsWith(%q)`, redirect+"?"))
}

// pollPage is waitFor without a test: true once expr holds, an error after 30 s.
func pollPage(ctx context.Context, what, expr string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return nil
		}
		navigated := strings.Contains(err.Error(), "navigated or closed") || strings.Contains(err.Error(), "context was destroyed") ||
			strings.Contains(err.Error(), "Cannot find context")
		if !navigated || time.Now().After(deadline) {
			url, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ' ' + (document.querySelector('main')?.innerText ?? '').slice(0, 400)`))
			return fmt.Errorf("waiting for %s: %v (page: %s)", what, err, url)
		}
	}
}

// revokeOnConnect revokes the grant of clientName, used already, on the project's Connect
// page (ticking its "sure" box) and waits until the list no longer shows it.
func revokeOnConnect(t *testing.T, ctx context.Context, base, projectID, clientName string) {
	t.Helper()
	do(t, ctx, "opening Connect", chromedp.Navigate(base+"/app/p/"+projectID+"/connect#grants"), chromedp.WaitVisible(chromedp.CSS(`#grants`)))
	row := fmt.Sprintf(`[...document.querySelectorAll('#grants tr.grant')].find((r) => r.querySelector('.client').textContent === %q)`, clientName)
	waitFor(t, ctx, "the grant is listed", "!!"+row)
	if got := eval[string](t, ctx, row+".innerText"); !strings.Contains(got, "127.0.0.1") || !strings.Contains(got, "read/write") || strings.Contains(got, "never") {
		t.Errorf("the grant's row says %q, want its redirect host, read/write and a last use", got)
	}
	sel := `#grants tr.grant[data-id="` + eval[string](t, ctx, row+".dataset.id") + `"]`
	do(t, ctx, "revoking", chromedp.Click(chromedp.CSS(sel+` input[name=confirm]`)), chromedp.Click(chromedp.CSS(sel+` button[type=submit]`)))
	waitFor(t, ctx, "the grant is gone", "!document.querySelector('"+sel+"')")
}

// nodeClient is a running clients/mcp-oauth-client.mjs: commands go in on stdin, events
// come out on stdout, one JSON object a line.
type nodeClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan map[string]any
	stderr *syncBuffer

	mu     sync.Mutex
	tokens []map[string]any
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// clientsDir is clients/ with its packages installed; without node or node_modules the
// test skips, except under CI=true (.ci/run installs both), where it fails.
func clientsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "clients"))
	if err != nil {
		t.Fatal(err)
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		missing = "clients/node_modules is missing (cd clients && npm ci)"
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the TypeScript SDK's client cannot run: %s", missing)
		}
		t.Skipf("the TypeScript SDK's client cannot run: %s", missing)
	}
	return dir
}

func startNodeClient(t *testing.T, dir string, env ...string) *nodeClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute) // a guard on a hung client
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "node", "--import", "./loopback-only.mjs", "mcp-oauth-client.mjs")
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LOKAL_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	n := &nodeClient{cmd: cmd, events: make(chan map[string]any, 64), stderr: &syncBuffer{}}
	cmd.Stderr = n.stderr
	var err error
	if n.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting node: %v", err)
	}
	go func() {
		dec := json.NewDecoder(stdout)
		for {
			var ev map[string]any
			if err := dec.Decode(&ev); err != nil {
				close(n.events)
				return
			}
			if ev["event"] == "tokens" {
				n.mu.Lock()
				n.tokens = append(n.tokens, ev)
				n.mu.Unlock()
				continue
			}
			n.events <- ev
		}
	}()
	t.Cleanup(func() {
		n.stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if strings.Contains(n.stderr.String(), "loopback-only: refused") {
			t.Errorf("the TypeScript client sent a request to another host than loopback:\n%s", n.stderr)
		}
		if t.Failed() {
			t.Logf("node stderr:\n%s", n.stderr)
		}
	})
	return n
}

func (n *nodeClient) send(t *testing.T, cmd map[string]any) {
	t.Helper()
	b, _ := json.Marshal(cmd)
	if _, err := n.stdin.Write(append(b, '\n')); err != nil {
		t.Fatalf("writing to the client: %v", err)
	}
}

// next is the client's next event other than tokens; it fails unless its kind is want.
func (n *nodeClient) next(t *testing.T, want string) map[string]any {
	t.Helper()
	select {
	case ev, ok := <-n.events:
		if !ok {
			t.Fatalf("the client ended before %s:\n%s", want, n.stderr)
		}
		if ev["event"] != want {
			t.Fatalf("the client said %v, want %s", ev, want)
		}
		return ev
	case <-time.After(90 * time.Second):
		t.Fatalf("no %s from the client after 90 s:\n%s", want, n.stderr)
	}
	return nil
}

// savedTokens are the token answers the client saved so far.
func (n *nodeClient) savedTokens() []map[string]any {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.tokens)
}

// call runs a tool and returns the client's event: a result or an error.
func (n *nodeClient) call(t *testing.T, name string, args map[string]any) map[string]any {
	t.Helper()
	n.send(t, map[string]any{"op": "call", "name": name, "arguments": args})
	select {
	case ev, ok := <-n.events:
		if !ok {
			t.Fatalf("the client ended during %s:\n%s", name, n.stderr)
		}
		return ev
	case <-time.After(90 * time.Second):
		t.Fatalf("no answer to %s after 90 s:\n%s", name, n.stderr)
	}
	return nil
}

// ok fails unless ev is a successful tool result; it returns the result's text.
func ok(t *testing.T, what string, ev map[string]any) string {
	t.Helper()
	if ev["event"] != "result" || ev["is_error"] != false {
		t.Fatalf("%s: %v", what, ev)
	}
	s, _ := json.Marshal(ev["structured"])
	return fmt.Sprint(ev["text"]) + string(s)
}

// refused fails unless ev is an error or a tool result marked as one, saying want.
func refused(t *testing.T, what string, ev map[string]any, want string) {
	t.Helper()
	b, _ := json.Marshal(ev)
	if (ev["event"] == "result" && ev["is_error"] == false) || !strings.Contains(string(b), want) {
		t.Errorf("%s: the client got %s, want a refusal saying %s", what, b, want)
	}
}

var (
	readArgs = map[string]any{"language": "nb", "namespace_key": "common", "format": "json"}
)

func writeArgs(value string) map[string]any {
	return map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "value": value}
}

// TestOAuthTypeScriptSDK: the MCP TypeScript SDK's OAuth client, given the project's MCP URL
// alone, is approved read-write in Chromium, lists the tools, reads and writes as the
// person, refreshes when its access token expires, is refused at another audience and
// after the grant is revoked on the Connect page; approved again, it writes, and is
// refused the write once the person's role narrows and everything once they are removed.
func TestOAuthTypeScriptSDK(t *testing.T) {
	t.Parallel()
	chromium(t)
	dir := clientsDir(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		o := newE2EEnv(t, dialect)
		o.source(t, "common", "greeting", "Hello")
		o.draft(t, "common", "greeting", "nb", "Hei")
		person := o.member(t, "assistant-user@acme.test", model.RoleManager)
		project := o.f.Project.ID
		mcpURL := o.mcpURL(project)
		const name = "lokal e2e (TypeScript SDK)"
		clientID := o.cimd.URL + "/ts-client.json"
		nc := startNodeClient(t, dir, "LOKAL_MCP_URL="+mcpURL, "LOKAL_REDIRECT_URL=http://127.0.0.1:0/callback", "LOKAL_CLIENT_ID_URL="+clientID)
		redirect := fmt.Sprint(nc.next(t, "listening")["redirect_url"])
		o.clientDoc(t, "/ts-client.json", name, redirect)
		ctx := newBrowser(t)

		authorize := func() {
			t.Helper()
			nc.send(t, map[string]any{"op": "authorize"})
			u, err := url.Parse(fmt.Sprint(nc.next(t, "authorize")["url"]))
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			if u.String() != o.base+"/app/oauth/authorize?"+u.RawQuery || q.Get("client_id") != clientID || q.Get("code_challenge_method") != "S256" ||
				q.Get("code_challenge") == "" || q.Get("resource") != mcpURL || q.Get("redirect_uri") != redirect {
				t.Errorf("the client's authorization request: %s", u)
			}
			knownBy, err := consent(ctx, u.String(), person.Email, name, project, true, redirect)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(knownBy, clientID) {
				t.Errorf("the consent page says the client is known by %q, want its metadata document %s", knownBy, clientID)
			}
			nc.next(t, "connected")
		}

		// Approved read-write: the tools, a read and a write, as the person.
		authorize()
		nc.send(t, map[string]any{"op": "list"})
		names := nc.next(t, "tools")["names"].([]any)
		for _, want := range []string{"get_translations", "update_translation"} {
			if !slices.Contains(names, any(want)) {
				t.Errorf("tools/list gave %v, without %s", names, want)
			}
		}
		if got := ok(t, "get_translations", nc.call(t, "get_translations", readArgs)); !strings.Contains(got, "Hei") {
			t.Errorf("get_translations gave %s", got)
		}
		ok(t, "update_translation", nc.call(t, "update_translation", writeArgs("Hei fra assistenten")))
		if row := o.row(t, "common", "greeting", "nb"); row.Value != "Hei fra assistenten" || row.UpdatedBy != "user:"+person.ID {
			t.Errorf("after the write the row is %q by %q, want the value by user:%s", row.Value, row.UpdatedBy, person.ID)
		}

		// An hour on, the access token is refused; the SDK refreshes and calls again.
		first := nc.savedTokens()
		if len(first) != 1 || !strings.HasPrefix(fmt.Sprint(first[0]["access_token"]), "lka_") || !strings.HasPrefix(fmt.Sprint(first[0]["refresh_token"]), "lkr_") {
			t.Fatalf("the client saved %v, want one answer with an lka_ access and an lkr_ refresh token", first)
		}
		o.offset.Add(int64(61 * time.Minute))
		o.refusedToken(t, mcpURL, first[0]["access_token"].(string), "an expired access token")
		if got := ok(t, "get_translations after expiry", nc.call(t, "get_translations", readArgs)); !strings.Contains(got, "Hei fra assistenten") {
			t.Errorf("get_translations after the refresh gave %s", got)
		}
		saved := nc.savedTokens()
		if len(saved) != 2 {
			t.Fatalf("the client saved %d token answers, want 2 (the refresh's)", len(saved))
		}
		now := saved[1]
		if now["access_token"] == first[0]["access_token"] || now["refresh_token"] == first[0]["refresh_token"] || !strings.HasPrefix(fmt.Sprint(now["refresh_token"]), "lkr_") {
			t.Errorf("the refresh gave %v after %v: both tokens must be new", now, first[0])
		}

		// A token for this project's endpoint is refused at the others.
		access := now["access_token"].(string)
		if status, _ := o.rawMCP(t, mcpURL, access); status != http.StatusOK {
			t.Errorf("the access token at its own resource answered %d", status)
		}
		o.refusedToken(t, o.mcpURL(""), access, "a project's token at the workspace endpoint")
		o.refusedToken(t, o.mcpURL(o.f.Sibling.ID), access, "a project's token at another project's endpoint")

		// Revoked on the Connect page: refused, and the SDK asks for a new consent.
		revokeOnConnect(t, ctx, o.base, project, name)
		ev := nc.call(t, "get_translations", readArgs)
		if ev["event"] == "authorize" {
			ev = nc.next(t, "error")
		} else {
			t.Errorf("after the revocation the client did not ask for a new authorization: %v", ev)
		}
		refused(t, "a read after the revocation", ev, `"name":"UnauthorizedError"`)
		o.refusedToken(t, mcpURL, access, "a revoked grant's access token")

		// Approved again: it writes until the role narrows, reads until the person is removed,
		// and the removal ends it.
		authorize()
		ok(t, "update_translation on the new grant", nc.call(t, "update_translation", writeArgs("Hei igjen")))
		if _, err := o.cat.SetMember(o.sys(t), tools.SetMemberIn{ProjectID: project, User: person.ID, Role: model.RoleTranslator, Languages: []string{"sv"}}); err != nil {
			t.Fatal(err)
		}
		refused(t, "a write in nb by a translator of sv", nc.call(t, "update_translation", writeArgs("Hei en gang til")), "does not allow editing nb")
		if row := o.row(t, "common", "greeting", "nb"); row.Value != "Hei igjen" {
			t.Errorf("after the refused write the row is %q", row.Value)
		}
		ok(t, "get_translations by a translator of sv", nc.call(t, "get_translations", readArgs))
		if _, err := o.cat.RemoveMember(o.sys(t), project, person.ID); err != nil {
			t.Fatal(err)
		}
		// Removed, the grant ends: the client must ask for consent anew.
		ev = nc.call(t, "get_translations", readArgs)
		if ev["event"] == "authorize" {
			ev = nc.next(t, "error")
		} else {
			t.Errorf("once the person was removed from the project the client did not ask for a new authorization: %v", ev)
		}
		refused(t, "a read by a person removed from the project", ev, `"name":"UnauthorizedError"`)
		if _, err := o.cat.SetMember(o.sys(t), tools.SetMemberIn{ProjectID: project, User: person.ID, Role: model.RoleTranslator, Languages: []string{"sv"}}); err != nil {
			t.Fatal(err)
		}
		ev = nc.call(t, "get_translations", readArgs)
		if ev["event"] != "authorize" {
			t.Errorf("given the role back, the ended grant worked again: %v", ev)
		} else {
			nc.next(t, "error")
		}
		authorize()
		ok(t, "get_translations on a grant made after the role came back", nc.call(t, "get_translations", readArgs))

		// Disabled, the person's grant ends: its tokens and its refresh are refused.
		access = nc.savedTokens()[len(nc.savedTokens())-1]["access_token"].(string)
		if _, err := o.cat.DisableUser(o.sys(t), person.ID); err != nil {
			t.Fatal(err)
		}
		o.refusedToken(t, mcpURL, access, "a disabled person's access token")
		ev = nc.call(t, "get_translations", readArgs)
		if ev["event"] == "authorize" {
			ev = nc.next(t, "error")
		} else {
			t.Errorf("once the person was disabled the client did not ask for a new authorization: %v", ev)
		}
		refused(t, "a read by a disabled person", ev, `"name":"UnauthorizedError"`)
		nc.send(t, map[string]any{"op": "quit"})
	})
}

// tokenBox is the go-sdk client's token source (auth.AuthorizationCodeHandlerConfig's
// NewTokenSource): oauth2's own refreshing source, which expire makes refresh on its next
// use, and a record of every token it handed out.
type tokenBox struct {
	mu   sync.Mutex
	ctx  context.Context
	cfg  *oauth2.Config
	src  oauth2.TokenSource
	seen []*oauth2.Token
}

func (b *tokenBox) newSource(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ctx, b.cfg, b.src = ctx, cfg, cfg.TokenSource(ctx, tok)
	b.seen = append(b.seen, tok)
	return b, nil
}

func (b *tokenBox) Token() (*oauth2.Token, error) {
	b.mu.Lock()
	src := b.src
	b.mu.Unlock()
	tok, err := src.Token()
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if last := b.seen[len(b.seen)-1]; last.AccessToken != tok.AccessToken {
		b.seen = append(b.seen, tok)
	}
	b.mu.Unlock()
	return tok, nil
}

// expire makes the source refresh on its next use, as it would an hour on.
func (b *tokenBox) expire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	last := b.seen[len(b.seen)-1]
	b.src = b.cfg.TokenSource(b.ctx, &oauth2.Token{AccessToken: last.AccessToken, RefreshToken: last.RefreshToken, Expiry: time.Unix(1, 0)})
}

func (b *tokenBox) tokens() []*oauth2.Token {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.seen)
}

// goClient is a go-sdk MCP session authorized by a person in Chromium.
type goClient struct {
	sess     *mcp.ClientSession
	box      *tokenBox
	consents atomic.Int32 // the times the fetcher was called; the second one fails
	clientID string
}

// connectGo connects the go-sdk's OAuth client (a metadata document named name, a loopback
// redirect listener) to mcpURL; the fetcher has email approve choice (a project id or
// "workspace") on the consent page in ctx, read-write or not, once.
func connectGo(t *testing.T, o *e2eEnv, ctx context.Context, name, email, mcpURL, choice string, readWrite bool) *goClient {
	t.Helper()
	g := &goClient{box: &tokenBox{}}
	cb := newCallback(t)
	g.clientID = o.clientDoc(t, "/"+strings.ReplaceAll(strings.ToLower(name), " ", "-")+".json", name, cb.url)
	fetcher := func(fctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if g.consents.Add(1) > 1 {
			return nil, errors.New("asked for a second consent")
		}
		if _, err := consent(ctx, args.URL, email, name, choice, readWrite, cb.url); err != nil {
			return nil, err
		}
		select {
		case q := <-cb.got:
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		case <-fctx.Done():
			return nil, fctx.Err()
		}
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: g.clientID},
		RedirectURL:                    cb.url,
		AuthorizationCodeFetcher:       fetcher,
		NewTokenSource:                 g.box.newSource,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "lokal-e2e-go", Version: "1.0.0"}, nil)
	g.sess, err = client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: mcpURL, OAuthHandler: h}, nil)
	if err != nil {
		t.Fatalf("connecting with OAuth: %v", err)
	}
	t.Cleanup(func() { g.sess.Close() })
	if g.consents.Load() != 1 {
		t.Fatalf("the person was asked %d times", g.consents.Load())
	}
	return g
}

// TestOAuthGoSDK: the go-sdk's OAuth client (auth.NewAuthorizationCodeHandler with a Client
// ID Metadata Document) connects to the project's MCP URL: its code fetcher has the
// person approve in Chromium and takes the code from the loopback redirect. It lists the
// tools, reads and writes, refreshes after the access token expired, is refused at
// another audience, and once its replaced refresh token is replayed (stolen) the whole
// grant ends.
func TestOAuthGoSDK(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		o := newE2EEnv(t, dialect)
		o.source(t, "common", "greeting", "Hello")
		o.draft(t, "common", "greeting", "nb", "Hei")
		person := o.member(t, "go-assistant@acme.test", model.RoleManager)
		project := o.f.Project.ID
		mcpURL := o.mcpURL(project)
		const goName = "lokal e2e (Go SDK)"
		g := connectGo(t, o, newBrowser(t), goName, person.Email, mcpURL, project, true)
		sess, box, consents, clientID := g.sess, g.box, &g.consents, g.clientID
		call := func(name string, args map[string]any) (*mcp.CallToolResult, error) {
			return sess.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
		}
		text := func(r *mcp.CallToolResult) string {
			var b strings.Builder
			for _, c := range r.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					b.WriteString(tc.Text)
				}
			}
			s, _ := json.Marshal(r.StructuredContent)
			return b.String() + string(s)
		}
		mustCall := func(what, name string, args map[string]any) string {
			t.Helper()
			r, err := call(name, args)
			if err != nil || r.IsError {
				t.Fatalf("%s: %v %v", what, err, r)
			}
			return text(r)
		}

		list, err := sess.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		if !slices.Contains(names, "get_translations") || !slices.Contains(names, "update_translation") {
			t.Errorf("tools/list gave %v", names)
		}
		if got := mustCall("get_translations", "get_translations", readArgs); !strings.Contains(got, "Hei") {
			t.Errorf("get_translations gave %s", got)
		}
		mustCall("update_translation", "update_translation", writeArgs("Hei fra Go"))
		if row := o.row(t, "common", "greeting", "nb"); row.Value != "Hei fra Go" || row.UpdatedBy != "user:"+person.ID {
			t.Errorf("after the write the row is %q by %q", row.Value, row.UpdatedBy)
		}

		// An hour on: the old access token is refused, oauth2 refreshes at the token endpoint.
		first := box.tokens()
		if len(first) != 1 || !strings.HasPrefix(first[0].AccessToken, "lka_") || !strings.HasPrefix(first[0].RefreshToken, "lkr_") {
			t.Fatalf("tokens after the code exchange: %v", first)
		}
		o.offset.Add(int64(61 * time.Minute))
		o.refusedToken(t, mcpURL, first[0].AccessToken, "an expired access token")
		box.expire()
		if got := mustCall("get_translations after the refresh", "get_translations", readArgs); !strings.Contains(got, "Hei fra Go") {
			t.Errorf("get_translations after the refresh gave %s", got)
		}
		seen := box.tokens()
		if len(seen) != 2 || seen[1].AccessToken == first[0].AccessToken || seen[1].RefreshToken == first[0].RefreshToken || !strings.HasPrefix(seen[1].RefreshToken, "lkr_") {
			t.Fatalf("tokens after the refresh: %v", seen)
		}
		access := seen[1].AccessToken

		// Another audience.
		o.refusedToken(t, o.mcpURL(""), access, "a project's token at the workspace endpoint")
		o.refusedToken(t, o.mcpURL(o.f.Sibling.ID), access, "a project's token at another project's endpoint")
		o.refusedToken(t, o.mcpURL(o.f.Other.ID), access, "a project's token at another workspace's project")

		// The replaced refresh token, replayed by a thief: refused, and the grant ends.
		status, answer := o.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {first[0].RefreshToken},
			"client_id": {clientID}, "resource": {mcpURL}})
		if status != http.StatusBadRequest || answer["error"] != "invalid_grant" {
			t.Errorf("a replayed refresh token: %d %v, want 400 invalid_grant", status, answer)
		}
		o.refusedToken(t, mcpURL, access, "the access token of a grant whose refresh token was replayed")
		status, answer = o.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {seen[1].RefreshToken},
			"client_id": {clientID}, "resource": {mcpURL}})
		if status != http.StatusBadRequest || answer["error"] != "invalid_grant" {
			t.Errorf("the current refresh token after a replay: %d %v, want 400 invalid_grant", status, answer)
		}
		if r, err := call("get_translations", readArgs); err == nil && !r.IsError {
			t.Errorf("the client still reads after its grant ended: %s", text(r))
		}
		if consents.Load() != 2 {
			t.Errorf("after its grant ended the client asked for consent %d times in all, want a second time", consents.Load())
		}
	})
}

// TestOAuthTypeScriptSDKRegistration: with the operator's switch on, the TypeScript SDK
// without a metadata document registers itself (RFC 7591), and the consent page says that
// nobody checked who runs it. Allowed read-only, the client is offered the read tools, reads,
// and its write is refused with 403 insufficient_scope, which its refresh does not widen;
// nothing changes. With the switch off, the default, it cannot register and never gets to
// the consent page.
func TestOAuthTypeScriptSDKRegistration(t *testing.T) {
	t.Parallel()
	chromium(t)
	dir := clientsDir(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		o := newE2EEnv(t, dialect, func(opts *tools.Options) { opts.OAuthDynamicRegistration = true })
		o.source(t, "common", "greeting", "Hello")
		o.draft(t, "common", "greeting", "nb", "Hei")
		person := o.member(t, "reader@acme.test", model.RoleManager)
		project := o.f.Project.ID
		mcpURL := o.mcpURL(project)
		nc := startNodeClient(t, dir, "LOKAL_MCP_URL="+mcpURL, "LOKAL_REDIRECT_URL=http://127.0.0.1:0/callback")
		redirect := fmt.Sprint(nc.next(t, "listening")["redirect_url"])
		nc.send(t, map[string]any{"op": "authorize"})
		u, err := url.Parse(fmt.Sprint(nc.next(t, "authorize")["url"]))
		if err != nil {
			t.Fatal(err)
		}
		if id := u.Query().Get("client_id"); id == "" || strings.HasPrefix(id, "https://") {
			t.Errorf("the registered client's id is %q", id)
		}
		knownBy, err := consent(newBrowser(t), u.String(), person.Email, "lokal e2e (TypeScript SDK)", project, false, redirect)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(knownBy, "registration") {
			t.Errorf("the consent page says the client is known by %q, want its registration", knownBy)
		}
		nc.next(t, "connected")
		if saved := nc.savedTokens(); len(saved) != 1 || saved[0]["scope"] != "lokal:read" {
			t.Errorf("the read-only grant's token answer: %v, want scope lokal:read", saved)
		}
		nc.send(t, map[string]any{"op": "list"})
		names := nc.next(t, "tools")["names"].([]any)
		if !slices.Contains(names, any("get_translations")) || slices.Contains(names, any("update_translation")) {
			t.Errorf("a read-only grant is offered %v", names)
		}
		if got := ok(t, "get_translations", nc.call(t, "get_translations", readArgs)); !strings.Contains(got, "Hei") {
			t.Errorf("get_translations gave %s", got)
		}
		refused(t, "a write on a read-only grant", nc.call(t, "update_translation", writeArgs("Skrevet")), "403")
		if row := o.row(t, "common", "greeting", "nb"); row.Value != "Hei" {
			t.Errorf("a read-only grant changed the row to %q", row.Value)
		}
		if saved := nc.savedTokens(); len(saved) < 2 || saved[len(saved)-1]["scope"] != "lokal:read" {
			t.Errorf("after the refused write the client's tokens are %v: its refresh must stay read-only", saved)
		}
	})
	t.Run("switched off", func(t *testing.T) {
		t.Parallel()
		o := newE2EEnv(t, "sqlite")
		nc := startNodeClient(t, dir, "LOKAL_MCP_URL="+o.mcpURL(o.f.Project.ID), "LOKAL_REDIRECT_URL=http://127.0.0.1:0/callback")
		nc.next(t, "listening")
		nc.send(t, map[string]any{"op": "authorize"})
		if ev := nc.next(t, "error"); !strings.Contains(fmt.Sprint(ev["message"]), "registration") {
			t.Errorf("without registration the client says %v", ev)
		}
	})
}

// TestOAuthGoSDKWorkspace: at the workspace endpoint the person picks the whole workspace on
// the consent page; the go-sdk client then lists the projects and reads one by its id, and
// its token is refused at a project's endpoint.
func TestOAuthGoSDKWorkspace(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		o := newE2EEnv(t, dialect)
		o.source(t, "common", "greeting", "Hello")
		o.draft(t, "common", "greeting", "nb", "Hei")
		person := o.member(t, "workspace-assistant@acme.test", model.RoleTranslator, "nb")
		g := connectGo(t, o, newBrowser(t), "lokal e2e (Go SDK, workspace)", person.Email, o.mcpURL(""), "workspace", true)
		r, err := g.sess.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_projects", Arguments: map[string]any{}})
		if err != nil || r.IsError {
			t.Fatalf("list_projects: %v %v", err, r)
		}
		if s, _ := json.Marshal(r); !strings.Contains(string(s), o.f.Project.ID) || strings.Contains(string(s), o.f.Other.ID) {
			t.Errorf("list_projects gave %s, want the person's project and not another workspace's", s)
		}
		args := map[string]any{"project_id": o.f.Project.ID, "language": "nb", "namespace_key": "common", "format": "json"}
		if r, err := g.sess.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_translations", Arguments: args}); err != nil || r.IsError {
			t.Errorf("get_translations in the project: %v %v", err, r)
		}
		o.refusedToken(t, o.mcpURL(o.f.Project.ID), g.box.tokens()[0].AccessToken, "a workspace grant's token at a project's endpoint")
	})
}
