package app_test

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// oauthClient is an MCP client of lokal's authorization server, as the tests play it: its
// Client ID Metadata Document served over TLS on 127.0.0.1 and its loopback redirect,
// which records what the browser brought back.
type oauthClient struct {
	id, redirect, name  string
	verifier, challenge string
	docs                *httptest.Server

	mu  sync.Mutex
	got []url.Values // the callback's queries, in order
}

const clientName = "Test Assistant"

// grantID is the id of the first grant row of a Connect page, "" for none.
func grantID(page string) string {
	_, rest, ok := strings.Cut(page, `<tr class="grant" data-id="`)
	id, _, closed := strings.Cut(rest, `"`)
	if !ok || !closed {
		return ""
	}
	return id
}

func newOAuthClient(t *testing.T) *oauthClient {
	t.Helper()
	c := &oauthClient{name: clientName, verifier: "a-verifier-of-at-least-forty-three-characters-0123456789"}
	sum := sha256.Sum256([]byte(c.verifier))
	c.challenge = base64.RawURLEncoding.EncodeToString(sum[:])
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" { // a browser's favicon.ico
			http.NotFound(w, r)
			return
		}
		c.mu.Lock()
		c.got = append(c.got, r.URL.Query())
		c.mu.Unlock()
		io.WriteString(w, "<!doctype html><title>client</title><p id=landed>back at the client</p>") //nolint:errcheck
	}))
	t.Cleanup(cb.Close)
	c.redirect = cb.URL + "/callback"
	c.docs = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/client.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"client_id": c.id, "client_name": c.name, "redirect_uris": []string{c.redirect}, //nolint:errcheck
			"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"}, "token_endpoint_auth_method": "none"})
	}))
	t.Cleanup(c.docs.Close)
	c.id = c.docs.URL + "/client.json"
	return c
}

// callbacks returns what the client's redirect received so far.
func (c *oauthClient) callbacks() []url.Values {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]url.Values(nil), c.got...)
}

// newOAuthEnv is an env whose catalogue is the authorization server at the test server's
// address, with a client whose metadata document it may fetch.
func newOAuthEnv(t *testing.T, dialect string) (*env, *oauthClient) {
	t.Helper()
	c := newOAuthClient(t)
	srv := httptest.NewUnstartedServer(nil)
	opts := ownerOptions(t, &tools.Options{BaseURL: "http://" + srv.Listener.Addr().String()})
	trustClientDocs(opts, c.docs)
	return newEnvOn(t, dialect, opts, srv), c
}

// authorizeParams is a valid authorization request of c to the workspace endpoint.
func (c *oauthClient) authorizeParams(e *env) url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {c.id}, "redirect_uri": {c.redirect}, "state": {"st-" + e.dialect},
		"scope": {"lokal:read lokal:write"}, "resource": {e.cat.BaseURL() + "/api/mcp"},
		"code_challenge": {c.challenge}, "code_challenge_method": {"S256"}}
}

func authorizePath(q url.Values) string { return "/app/oauth/authorize?" + q.Encode() }

// answer posts the consent form: the request's fields and the person's choice.
func (b *browser) answer(t *testing.T, q url.Values, choice url.Values, withCSRF bool) page {
	t.Helper()
	form := url.Values{}
	for k, v := range q {
		form[k] = v
	}
	for k, v := range choice {
		form[k] = v
	}
	return b.post(t, "/app/oauth/authorize", form, withCSRF)
}

// noRedirect fails unless p stayed on lokal: no Location at all.
func noRedirect(t *testing.T, p page) {
	t.Helper()
	if loc := p.header.Get("Location"); loc != "" {
		t.Fatalf("redirected to %s (status %d)", loc, p.status)
	}
}

// redirectedTo parses p's Location and checks it goes to the client's redirect.
func redirectedTo(t *testing.T, p page, redirect string) url.Values {
	t.Helper()
	if p.status != http.StatusSeeOther {
		t.Fatalf("status %d, want 303; body: %.600s", p.status, p.body)
	}
	u, err := url.Parse(p.header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Scheme + "://" + u.Host + u.Path; got != redirect {
		t.Fatalf("redirected to %s, want the client's %s", p.header.Get("Location"), redirect)
	}
	return u.Query()
}

// exchange trades a code for tokens at the token endpoint, as the client would.
func (c *oauthClient) exchange(t *testing.T, e *env, code, resource string) string {
	t.Helper()
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {c.redirect}, "client_id": {c.id},
		"code_verifier": {c.verifier}, "resource": {resource}}
	res, err := http.PostForm(e.srv.URL+"/oauth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
		Scope       string `json:"scope"`
	}
	body, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(body, &out); err != nil || res.StatusCode != http.StatusOK || out.AccessToken == "" {
		t.Fatalf("exchanging the code: %d %s", res.StatusCode, body)
	}
	return out.AccessToken
}

// mcpStatus is the status of an MCP initialize sent to path with token.
func mcpStatus(t *testing.T, e *env, path, token string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, e.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body) //nolint:errcheck
	res.Body.Close()
	return res.StatusCode
}

func forEachOAuthEnv(t *testing.T, fn func(t *testing.T, e *env, c *oauthClient)) {
	t.Helper()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		e, c := newOAuthEnv(t, d)
		fn(t, e, c)
	})
}

// An unknown client or a redirect_uri that is not the client's is an error page on lokal,
// signed in or not: the browser is never sent to the redirect_uri, nor to sign in first.
func TestConsentRefusesUnknownClientOnPage(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		unknown := c.authorizeParams(e)
		unknown.Set("client_id", c.docs.URL+"/nobody.json") // answers 404
		foreign := c.authorizeParams(e)
		foreign.Set("redirect_uri", "http://127.0.0.1:9/elsewhere")
		b := e.browser(t)
		for _, signedIn := range []bool{false, true} {
			if signedIn {
				b.signIn(t, e.f.User.Email)
			}
			for name, q := range map[string]url.Values{"unknown client": unknown, "foreign redirect": foreign} {
				p := b.get(t, authorizePath(q))
				noRedirect(t, p)
				p.want(t, http.StatusBadRequest, `id="oauth-error"`)
				if strings.Contains(p.body, `action="/app/oauth/authorize"`) {
					t.Errorf("%s (signed in %v): the error page offers the consent form", name, signedIn)
				}
			}
		}
		if got := c.callbacks(); len(got) != 0 {
			t.Errorf("the client's redirect was reached: %v", got)
		}
	})
}

// Other errors of a known client's request go back to its redirect_uri with error, state and
// iss, without asking anyone to sign in.
func TestConsentRedirectsOtherErrors(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		q := c.authorizeParams(e)
		q.Set("code_challenge_method", "plain")
		got := redirectedTo(t, e.browser(t).get(t, authorizePath(q)), c.redirect)
		if got.Get("error") != "invalid_request" || got.Get("state") != q.Get("state") || got.Get("iss") != e.cat.BaseURL() || got.Get("code") != "" {
			t.Errorf("the error redirect carries %v", got)
		}
	})
}

// Signed out, the request goes through sign-in and comes back whole; a next outside the
// editor is still refused.
func TestConsentSignInKeepsRequest(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		q := c.authorizeParams(e)
		b := e.browser(t)
		p := b.get(t, authorizePath(q))
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/app/signin?next=") {
			t.Fatalf("signed out: %d to %q", p.status, p.header.Get("Location"))
		}
		loc, _ := url.Parse(p.header.Get("Location"))
		next := loc.Query().Get("next")
		back, _ := url.Parse(next)
		if back.Path != "/app/oauth/authorize" || back.Query().Encode() != q.Encode() {
			t.Fatalf("sign-in would come back to %q", next)
		}
		form := b.get(t, loc.RequestURI()).want(t, http.StatusOK, `name="next"`)
		m := signinField.FindStringSubmatch(form.body)
		p = b.post(t, "/app/signin", url.Values{"csrf": {m[1]}, "email": {e.f.User.Email}, "password": {password}, "next": {next}}, false)
		if p.status != http.StatusSeeOther || p.header.Get("Location") != next {
			t.Fatalf("after signing in: %d to %q, want %q", p.status, p.header.Get("Location"), next)
		}
		b.get(t, next).want(t, http.StatusOK, clientName, `id="redirect-host"`, strings.TrimPrefix(c.redirect[:strings.LastIndex(c.redirect, "/")], "http://"))

		// An open redirect through next stays closed.
		b2 := e.browser(t)
		m = signinField.FindStringSubmatch(b2.get(t, "/app/signin").body)
		for _, evil := range []string{"https://evil.example/", "//evil.example/app/", "/app//evil.example"} {
			p = b2.post(t, "/app/signin", url.Values{"csrf": {m[1]}, "email": {e.f.User.Email}, "password": {password}, "next": {evil}}, false)
			if p.header.Get("Location") != "/app/" {
				t.Errorf("next %q sent the browser to %q", evil, p.header.Get("Location"))
			}
			b2.post(t, "/app/signout", nil, true)
			m = signinField.FindStringSubmatch(b2.get(t, "/app/signin").body)
		}
	})
}

// The consent page cannot be framed and may only send its forms to lokal and the client's
// redirect; it names the client, the host it sends to, and what it asks for.
func TestConsentPage(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		q := c.authorizeParams(e)
		p := b.get(t, authorizePath(q)).want(t, http.StatusOK, clientName, "metadata document", c.id,
			`<option value="`+e.f.Project.ID+`"`, `value="workspace"`, `<option value="write"`)
		csp := p.header.Get("Content-Security-Policy")
		cb, _ := url.Parse(c.redirect)
		if !strings.Contains(csp, "frame-ancestors 'none'") || p.header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("the consent page may be framed: CSP %q, X-Frame-Options %q", csp, p.header.Get("X-Frame-Options"))
		}
		if !strings.Contains(csp, "form-action 'self' http://"+cb.Host+";") {
			t.Errorf("form-action does not name the client's redirect: %q", csp)
		}
		if !strings.Contains(p.body, `<p class="host" id="redirect-host">`+cb.Host+`</p>`) {
			t.Errorf("the redirect host is not shown: %.2000s", p.body)
		}

		// A project endpoint: its project, fixed; no workspace to choose.
		q.Set("resource", e.cat.BaseURL()+"/api/"+e.f.Project.ID+"/mcp")
		p = b.get(t, authorizePath(q)).want(t, http.StatusOK, `id="consent-fixed"`, `name="project" value="`+e.f.Project.ID+`"`)
		if strings.Contains(p.body, `value="workspace"`) || strings.Contains(p.body, `id="consent-project"`) {
			t.Error("a project endpoint's consent offers another choice")
		}

		// Read only asked: read-write is not offered.
		q = c.authorizeParams(e)
		q.Set("scope", "lokal:read")
		if p = b.get(t, authorizePath(q)).want(t, http.StatusOK, `id="consent-access"`); strings.Contains(p.body, `<option value="write"`) {
			t.Error("read-write offered for a read-only request")
		}
	})
}

// Without the session's CSRF token an approval is refused on lokal: no code, no grant.
func TestConsentRefusesWithoutCSRF(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		q := c.authorizeParams(e)
		b.get(t, authorizePath(q)).want(t, http.StatusOK)
		choice := url.Values{"action": {"approve"}, "project": {e.f.Project.ID}, "access": {"read"}}
		p := b.answer(t, q, choice, false)
		noRedirect(t, p)
		p.want(t, http.StatusForbidden, "CSRF")
		choice.Set("csrf", "0123456789abcdef")
		p = b.answer(t, q, choice, false)
		noRedirect(t, p)
		p.want(t, http.StatusForbidden)
		b.get(t, "/app/p/"+e.f.Project.ID+"/connect").want(t, http.StatusOK, "No connected clients.")
		if got := c.callbacks(); len(got) != 0 {
			t.Errorf("the client's redirect was reached: %v", got)
		}
	})
}

// Deny sends the browser back to the client with access_denied, its state and the issuer.
func TestConsentDenyRedirects(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		q := c.authorizeParams(e)
		b.get(t, authorizePath(q)).want(t, http.StatusOK)
		got := redirectedTo(t, b.answer(t, q, url.Values{"action": {"deny"}}, true), c.redirect)
		if got.Get("error") != "access_denied" || got.Get("state") != q.Get("state") || got.Get("iss") != e.cat.BaseURL() || got.Get("code") != "" {
			t.Errorf("deny redirected with %v", got)
		}
		b.get(t, "/app/p/"+e.f.Project.ID+"/connect").want(t, http.StatusOK, "No connected clients.")
	})
}

// Approving a project read-only redirects with a code; the grant is listed on the Connect
// page until revoked there, and then its access token is refused by the MCP endpoint.
func TestConsentApproveListRevoke(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		q := c.authorizeParams(e)
		b.get(t, authorizePath(q)).want(t, http.StatusOK)

		// No choice of project: the page again, saying so.
		p := b.answer(t, q, url.Values{"action": {"approve"}, "access": {"read"}}, true)
		noRedirect(t, p)
		p.want(t, http.StatusBadRequest, `id="consent-error"`, clientName)

		got := redirectedTo(t, b.answer(t, q, url.Values{"action": {"approve"}, "project": {e.f.Project.ID}, "access": {"read"}}, true), c.redirect)
		if got.Get("code") == "" || got.Get("state") != q.Get("state") || got.Get("iss") != e.cat.BaseURL() || got.Get("error") != "" {
			t.Fatalf("approve redirected with %v", got)
		}
		token := c.exchange(t, e, got.Get("code"), q.Get("resource"))
		if s := mcpStatus(t, e, "/api/mcp", token); s != http.StatusOK {
			t.Fatalf("the grant's token at the MCP endpoint: %d", s)
		}

		connect := "/app/p/" + e.f.Project.ID + "/connect"
		page := b.get(t, connect).want(t, http.StatusOK, `id="grants"`, `<td data-label="Client" class="client">`+clientName+`</td>`,
			`<td data-label="Access" class="access">read-only</td>`, `<td data-label="Project" class="project">`+e.f.Project.Title+`</td>`)
		id := grantID(page.body)
		if id == "" {
			t.Fatalf("no grant row: %.2000s", page.body)
		}
		// Revoking needs the confirmation box, as a token's does.
		b.post(t, connect+"/grants/revoke", url.Values{"id": {id}}, true).want(t, http.StatusBadRequest, "tick the box")
		p = b.post(t, connect+"/grants/revoke", url.Values{"id": {id}, "confirm": {"1"}}, true)
		if p.status != http.StatusSeeOther {
			t.Fatalf("revoking: %d %.600s", p.status, p.body)
		}
		b.get(t, connect).want(t, http.StatusOK, "No connected clients.")
		if s := mcpStatus(t, e, "/api/mcp", token); s != http.StatusUnauthorized {
			t.Errorf("the revoked grant's token at the MCP endpoint: %d, want 401", s)
		}
	})
}

// trustClientDocs lets the catalogue fetch metadata documents from docs, a test's TLS
// server on loopback (ownerOptions' guard allows 127.0.0.1).
func trustClientDocs(opts *tools.Options, docs *httptest.Server) {
	pool := x509.NewCertPool()
	pool.AddCert(docs.Certificate())
	opts.OAuthRootCAs = pool
}

// The choices are the person's: the projects they have a role on, read-write only when
// their role writes somewhere, and nothing to approve without a role.
func TestConsentOffersWhatTheRoleAllows(t *testing.T) {
	t.Parallel()
	forEachOAuthEnv(t, func(t *testing.T, e *env, c *oauthClient) {
		e.member(t, "reader@example.com", model.RoleTranslator) // no languages: reads only
		e.member(t, "nobody@example.com", "")
		q := c.authorizeParams(e)

		b := e.browser(t)
		b.signIn(t, "reader@example.com")
		p := b.get(t, authorizePath(q)).want(t, http.StatusOK, `<option value="`+e.f.Project.ID+`"`, `id="read-only-role"`)
		if strings.Contains(p.body, `<option value="write"`) || strings.Contains(p.body, `<option value="`+e.f.Sibling.ID+`"`) {
			t.Errorf("a reader of one project is offered write or another project: %.3000s", p.body[strings.Index(p.body, "<form method=\"post\" action=\"/app/oauth"):])
		}

		b = e.browser(t)
		b.signIn(t, "nobody@example.com")
		p = b.get(t, authorizePath(q)).want(t, http.StatusOK, `id="no-project"`, `id="deny"`)
		if strings.Contains(p.body, `id="approve"`) || strings.Contains(p.body, `value="workspace"`) {
			t.Error("a person without a role is offered something to approve")
		}
	})
}
