package rest_test

// Helpers of the OAuth tests (issue 35): a server whose base URL is its own loopback
// address (the issuer a client checks), a TLS server on 127.0.0.1 serving client metadata
// documents (the go-sdk and lokal take https ones only), PKCE pairs, the consent done
// through the catalogue as the editor's consent page does it, and the token endpoint.
//
// Every identifier here starts with "oauth".

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// oauthRedirect is the loopback redirect URI of the test clients' documents.
const oauthRedirect = "http://127.0.0.1:1/callback"

// oauthDocs serves client metadata documents over TLS on 127.0.0.1. Paths:
//   - /client.json: a good document (client_id is its own URL, redirect oauthRedirect);
//   - /readonly.json: another good one, to keep clients apart;
//   - /evil-redirect.json: a document whose redirect host lokal does not allow;
//   - /redirect.json: a 302 to /client.json;
//   - /big.json: over 16 KiB;
//   - /other-id.json: a document whose client_id is another URL.
type oauthDocs struct {
	srv      *httptest.Server
	requests atomic.Int64
}

func oauthNewDocs(t *testing.T) *oauthDocs {
	t.Helper()
	d := &oauthDocs{}
	d.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.requests.Add(1)
		self := "https://" + r.Host + r.URL.Path
		doc := map[string]any{"client_id": self, "client_name": "Test client", "redirect_uris": []string{oauthRedirect},
			"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
			"token_endpoint_auth_method": "none"}
		switch r.URL.Path {
		case "/client.json", "/readonly.json":
		case "/evil-redirect.json":
			doc["redirect_uris"] = []string{"https://evil.example/callback"}
		case "/redirect.json":
			http.Redirect(w, r, "https://"+r.Host+"/client.json", http.StatusFound)
			return
		case "/big.json":
			doc["client_name"] = strings.Repeat("x", 17<<10)
		case "/other-id.json":
			doc["client_id"] = "https://" + r.Host + "/client.json"
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(doc)
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *oauthDocs) url(path string) string { return d.srv.URL + path }

func (d *oauthDocs) roots() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(d.srv.Certificate())
	return p
}

// oauthEnv is a server of one dialect with the fixture, its issuer its own address, a
// settable clock and the documents' server; the outbound guard lets 127.0.0.1 through, as
// the outbound tests do, so that the documents can be fetched.
type oauthEnv struct {
	*server
	clock *fakeClock
	docs  *oauthDocs
}

// oauthServe builds the env on dialect; edit changes the catalogue options first.
func oauthServe(t *testing.T, dialect string, edit func(*tools.Options)) *oauthEnv {
	t.Helper()
	docs := oauthNewDocs(t)
	clock := &fakeClock{t: time.Now().UTC().Truncate(time.Second)}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts := &tools.Options{BaseURL: "http://" + ln.Addr().String(), Now: clock.now, OAuthRootCAs: docs.roots(),
		Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})}
	if edit != nil {
		edit(opts)
	}
	db, f := storagetest.MustOpenFixture(t, dialect)
	cat := storagetest.Catalog(db, opts)
	hs := httptest.NewUnstartedServer(rest.New(cat, &rest.Options{Health: db.Ping, Logger: slog.New(slog.DiscardHandler)}))
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	t.Cleanup(client.CloseIdleConnections)
	s := &server{dialect: dialect, db: db, cat: cat, http: hs, client: client}
	s.useFixture(f)
	return &oauthEnv{server: s, clock: clock, docs: docs}
}

// oauthForEachDialect runs fn on a fresh env of each dialect.
func oauthForEachDialect(t *testing.T, edit func(*tools.Options), fn func(t *testing.T, e *oauthEnv)) {
	t.Helper()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		fn(t, oauthServe(t, dialect, edit))
	})
}

// oauthPKCE is a fresh verifier and its S256 challenge.
func oauthPKCE(t *testing.T) (verifier, challenge string) {
	t.Helper()
	b := make([]byte, 32)
	rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// session is the fixture user signed in to the editor.
func (e *oauthEnv) session(t *testing.T) *model.Principal {
	return &model.Principal{Kind: tools.KindSession, TokenID: "session", UserID: e.user.ID, WorkspaceID: e.ws.ID}
}

// request is an authorization request of the documents' client for resource ("" for the
// default), with a fresh PKCE pair; it returns the verifier too.
func (e *oauthEnv) request(t *testing.T, doc, resource, scope string) (tools.AuthorizeRequest, string) {
	t.Helper()
	v, c := oauthPKCE(t)
	return tools.AuthorizeRequest{ResponseType: "code", ClientID: e.docs.url(doc), RedirectURI: oauthRedirect, State: "st-" + v[:8],
		Scope: scope, Resource: resource, CodeChallenge: c, CodeChallengeMethod: "S256"}, v
}

// approve consents as the fixture user and returns the code the redirect carries, having
// checked the redirect's state and iss.
func (e *oauthEnv) approve(t *testing.T, req tools.AuthorizeRequest, choice tools.Consent) string {
	t.Helper()
	to, err := e.cat.ApproveAuthorize(model.WithPrincipal(t.Context(), *e.session(t)), req, choice)
	if err != nil {
		t.Fatalf("ApproveAuthorize: %v", err)
	}
	u, err := url.Parse(to)
	if err != nil || !strings.HasPrefix(to, req.RedirectURI+"?") {
		t.Fatalf("ApproveAuthorize redirected to %q, want %s?...", to, req.RedirectURI)
	}
	q := u.Query()
	if q.Get("state") != req.State || q.Get("iss") != e.cat.Issuer() || q.Get("code") == "" {
		t.Fatalf("redirect %s: want state %q, iss %q and a code", to, req.State, e.cat.Issuer())
	}
	return q.Get("code")
}

// oauthTokens is the token endpoint's success.
type oauthTokens struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// oauthFailure is the token endpoint's refusal (RFC 6749 §5.2).
type oauthFailure struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// post sends a form to path.
func (e *oauthEnv) post(t *testing.T, path string, form url.Values) *response {
	t.Helper()
	return e.do(t, request{Method: "POST", Path: path, Body: form.Encode(),
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
}

// exchange trades a code; it must succeed.
func (e *oauthEnv) exchange(t *testing.T, req tools.AuthorizeRequest, code, verifier string) oauthTokens {
	t.Helper()
	r := e.post(t, "/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {req.RedirectURI},
		"client_id": {req.ClientID}, "code_verifier": {verifier}, "resource": {req.Resource}})
	return oauthWantTokens(t, r)
}

// refresh trades a refresh token; the answer is returned as it is.
func (e *oauthEnv) refresh(t *testing.T, clientID, refresh string) *response {
	t.Helper()
	return e.post(t, "/oauth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {clientID}})
}

func oauthWantTokens(t *testing.T, r *response) oauthTokens {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("token endpoint answered %d: %s", r.status, r.body)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("token answer Cache-Control = %q, want no-store", r.header.Get("Cache-Control"))
	}
	var out oauthTokens
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.AccessToken, tools.PrefixOAuthAccess) || !strings.HasPrefix(out.RefreshToken, tools.PrefixOAuthRefresh) ||
		out.TokenType != "Bearer" || out.ExpiresIn != 3600 {
		t.Fatalf("token answer %s: want lka_ and lkr_ tokens, Bearer, 3600 s", r.body)
	}
	return out
}

// oauthWantFailure checks a token endpoint refusal's status and error code.
func oauthWantFailure(t *testing.T, r *response, status int, code string) {
	t.Helper()
	var f oauthFailure
	json.Unmarshal(r.body, &f)
	if r.status != status || f.Error != code || f.Description == "" {
		t.Fatalf("answered %d %s, want %d with error %s and a description", r.status, r.body, status, code)
	}
}

// grant runs the whole flow for the documents' client at resource with choice.
func (e *oauthEnv) grant(t *testing.T, doc, resource string, choice tools.Consent) (tools.AuthorizeRequest, oauthTokens) {
	t.Helper()
	req, v := e.request(t, doc, resource, "")
	return req, e.exchange(t, req, e.approve(t, req, choice), v)
}

// mcpPath is the path of the MCP endpoint of a project ("" for the workspace's).
func mcpPath(projectID string) string {
	if projectID == "" {
		return "/api/mcp"
	}
	return "/api/" + projectID + "/mcp"
}

// rpc posts a JSON-RPC tools/call (or tools/list when tool is "") to an MCP endpoint.
func (e *oauthEnv) rpc(t *testing.T, path, token, tool string, args map[string]any) *response {
	t.Helper()
	body := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": map[string]any{}}
	if tool != "" {
		if args == nil {
			args = map[string]any{}
		}
		body["method"], body["params"] = "tools/call", map[string]any{"name": tool, "arguments": args}
	}
	auth := ""
	if token != "" {
		auth = bearerAuth(token)
	}
	return e.do(t, request{Method: "POST", Path: path, Auth: auth, Body: body,
		Header: map[string]string{"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": mcpProtocolInitialize}})
}

// wantChallenge checks a 401 from an MCP endpoint: the challenge names that endpoint's
// metadata and the scopes, and says invalid_token when a token was presented.
func (e *oauthEnv) wantChallenge(t *testing.T, r *response, projectID string, presented bool) {
	t.Helper()
	if r.status != http.StatusUnauthorized {
		t.Fatalf("answered %d %s, want 401", r.status, r.body)
	}
	h := r.header.Get("WWW-Authenticate")
	meta := e.cat.Issuer() + "/.well-known/oauth-protected-resource" + mcpPath(projectID)
	want := fmt.Sprintf(`Bearer resource_metadata="%s", scope="lokal:read lokal:write"`, meta)
	if presented {
		want += `, error="invalid_token"`
	}
	if h != want {
		t.Fatalf("WWW-Authenticate = %q, want %q", h, want)
	}
	var b struct{ Error string }
	if json.Unmarshal(r.body, &b) != nil || b.Error != "unauthorized" {
		t.Errorf("401 body %s: want the spec's error shape", r.body)
	}
}
