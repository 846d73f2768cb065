package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOAuthClientMetadataDocuments: a client's metadata document is fetched through the
// outbound guard, over https only, without following redirects, within 16 KiB, and must
// name itself; a good one is cached for an hour.
func TestOAuthClientMetadataDocuments(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		for name, clientID := range map[string]string{
			"redirecting":     e.docs.url("/redirect.json"),
			"too large":       e.docs.url("/big.json"),
			"other client_id": e.docs.url("/other-id.json"),
			"plain http":      strings.Replace(e.docs.url("/client.json"), "https:", "http:", 1),
			"no path":         e.docs.url("/"),
			"query":           e.docs.url("/client.json?x=1"),
			"dot segments":    e.docs.url("/a/../client.json"),
			"user":            strings.Replace(e.docs.url("/client.json"), "https://", "https://u:p@", 1),
		} {
			req, _ := e.request(t, "/client.json", "", "")
			req.ClientID = clientID
			_, err := e.cat.CheckAuthorize(t.Context(), req)
			var oe *tools.OAuthError
			if !errors.As(err, &oe) || oe.Code != "invalid_client" || oe.Redirect {
				t.Errorf("%s (%s): CheckAuthorize = %v, want invalid_client shown, not redirected", name, clientID, err)
			}
		}

		// Cached: one fetch for two requests within the hour, another after it.
		before := e.docs.requests.Load()
		req, _ := e.request(t, "/readonly.json", "", "")
		for range 2 {
			if _, err := e.cat.CheckAuthorize(t.Context(), req); err != nil {
				t.Fatal(err)
			}
		}
		if n := e.docs.requests.Load() - before; n != 1 {
			t.Errorf("two requests within the hour fetched the document %d times, want 1", n)
		}
		e.clock.advance(time.Hour + time.Second)
		if _, err := e.cat.CheckAuthorize(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		if n := e.docs.requests.Load() - before; n != 2 {
			t.Errorf("after the hour the document was fetched %d times in all, want 2", n)
		}
	})
}

// TestOAuthMetadataDocumentGuard: without the operator's allow list the document server
// on loopback is refused before any connection reaches it, and private and metadata
// addresses are refused by the guard's decision, which every fetch passes.
func TestOAuthMetadataDocumentGuard(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, func(o *tools.Options) { o.Outbound = nil }, func(t *testing.T, e *oauthEnv) {
		req, _ := e.request(t, "/client.json", "", "")
		_, err := e.cat.CheckAuthorize(t.Context(), req)
		var oe *tools.OAuthError
		if !errors.As(err, &oe) || oe.Code != "invalid_client" || !strings.Contains(oe.Description, "loopback") {
			t.Errorf("a document on loopback without the allow list: %v, want refused as loopback", err)
		}
		if n := e.docs.requests.Load(); n != 0 {
			t.Errorf("the refused document server saw %d requests", n)
		}
	})
	g := outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})
	for _, a := range []string{"10.0.0.7", "192.168.1.1", "169.254.169.254", "100.64.0.1", "fd00::1", "::ffff:10.0.0.1", "127.0.0.2"} {
		if err := g.CheckAddr(netip.MustParseAddr(a)); err == nil {
			t.Errorf("the metadata documents' guard lets %s through", a)
		}
	}
}

// TestOAuthDynamicRegistration: off by default (refused, not advertised); on, a client
// registers with allowed redirect URIs only and then runs the whole flow.
func TestOAuthDynamicRegistration(t *testing.T) {
	t.Parallel()
	reg := map[string]any{"client_name": "Registered", "redirect_uris": []string{oauthRedirect}, "token_endpoint_auth_method": "none",
		"grant_types": []string{"authorization_code", "refresh_token"}}
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		r := e.call(t, "POST", "/oauth/register", "", reg)
		oauthWantFailure(t, r, 403, "access_denied")
		req, _ := e.request(t, "/client.json", "", "")
		req.ClientID = tools.PrefixRegisteredClient + "0123456789"
		if _, err := e.cat.CheckAuthorize(t.Context(), req); err == nil {
			t.Error("a registered-looking client_id passed while registration is off")
		}
	})
	oauthForEachDialect(t, func(o *tools.Options) { o.OAuthDynamicRegistration = true }, func(t *testing.T, e *oauthEnv) {
		var as map[string]any
		json.Unmarshal(e.call(t, "GET", "/.well-known/oauth-authorization-server", "", nil).body, &as)
		if as["registration_endpoint"] != e.cat.Issuer()+"/oauth/register" {
			t.Errorf("registration_endpoint = %v", as["registration_endpoint"])
		}
		for name, body := range map[string]any{
			"no redirect":        map[string]any{"client_name": "x"},
			"unallowed redirect": map[string]any{"redirect_uris": []string{"https://evil.example/cb"}},
			"custom scheme":      map[string]any{"redirect_uris": []string{"myapp://cb"}},
			"client secret":      map[string]any{"redirect_uris": []string{oauthRedirect}, "token_endpoint_auth_method": "client_secret_basic"},
			"implicit":           map[string]any{"redirect_uris": []string{oauthRedirect}, "grant_types": []string{"implicit"}},
		} {
			if r := e.call(t, "POST", "/oauth/register", "", body); r.status != 400 {
				t.Errorf("%s: registration answered %d %s, want 400", name, r.status, r.body)
			}
		}
		r := e.call(t, "POST", "/oauth/register", "", reg)
		var out struct {
			ClientID string `json:"client_id"`
			Secret   string `json:"client_secret"`
		}
		if r.status != 201 || json.Unmarshal(r.body, &out) != nil || !strings.HasPrefix(out.ClientID, tools.PrefixRegisteredClient) || out.Secret != "" {
			t.Fatalf("registration answered %d %s", r.status, r.body)
		}
		req, v := e.request(t, "/client.json", "", "")
		req.ClientID = out.ClientID
		check, err := e.cat.CheckAuthorize(t.Context(), req)
		if err != nil || !check.Client.Registered || check.Client.Name != "Registered" {
			t.Fatalf("CheckAuthorize of the registered client = %+v, %v", check, err)
		}
		tok := e.exchange(t, req, e.approve(t, req, tools.Consent{}), v)
		if r := e.rpc(t, "/api/mcp", tok.AccessToken, "list_projects", nil); r.status != 200 {
			t.Errorf("registered client's token: %d %s", r.status, r.body)
		}
	})
}

// TestOAuthGoSDKClient: the go-sdk's own OAuth client, with a client metadata document,
// discovers lokal from a 401, is sent to the consent (done here by the catalogue as the
// consent page does it), trades the code and calls tools; a second handler asking at
// another project's endpoint gets a token that works there only.
func TestOAuthGoSDKClient(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		var consents atomic.Int64
		fetcher := func(choice tools.Consent) auth.AuthorizationCodeFetcher {
			return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
				consents.Add(1)
				u, err := url.Parse(args.URL)
				if err != nil {
					return nil, err
				}
				if !strings.HasPrefix(args.URL, e.cat.Issuer()+"/app/oauth/authorize?") {
					return nil, errors.New("sent to " + args.URL + ", not lokal's consent page")
				}
				q := u.Query()
				req := tools.AuthorizeRequest{ResponseType: q.Get("response_type"), ClientID: q.Get("client_id"), RedirectURI: q.Get("redirect_uri"),
					State: q.Get("state"), Scope: q.Get("scope"), Resource: q.Get("resource"), CodeChallenge: q.Get("code_challenge"),
					CodeChallengeMethod: q.Get("code_challenge_method")}
				to, err := e.cat.ApproveAuthorize(model.WithPrincipal(ctx, *e.session(t)), req, choice)
				if err != nil {
					return nil, err
				}
				back, err := url.Parse(to)
				if err != nil {
					return nil, err
				}
				return &auth.AuthorizationResult{Code: back.Query().Get("code"), State: back.Query().Get("state"), Iss: back.Query().Get("iss")}, nil
			}
		}
		connect := func(path string, choice tools.Consent) *mcp.ClientSession {
			h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
				ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: e.docs.url("/client.json")},
				RedirectURL:                    oauthRedirect,
				AuthorizationCodeFetcher:       fetcher(choice),
				Client:                         e.client,
			})
			if err != nil {
				t.Fatal(err)
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "lokal-oauth-test", Version: "1.0.0"}, nil)
			cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: e.http.URL + path, HTTPClient: e.client,
				OAuthHandler: h, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: mcpProtocolInitialize})
			if err != nil {
				t.Fatalf("connecting with the go-sdk's OAuth client to %s: %v", path, err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		}

		cs := connect(mcpPath(e.proj.ID), tools.Consent{})
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_projects", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("list_projects through OAuth: %v %+v", err, res)
		}
		res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "add_key", Arguments: map[string]any{"namespace_key": "ui",
			"translation_key": "sdk.hello", "source_value": "Hello"}})
		if err != nil || res.IsError {
			t.Fatalf("add_key through OAuth: %v %+v", err, res)
		}
		if consents.Load() != 1 {
			t.Errorf("the person was asked %d times, want once", consents.Load())
		}
		list, err := e.cat.ListGrants(model.WithPrincipal(t.Context(), *e.session(t)))
		if err != nil || len(list) != 1 || list[0].ProjectID != e.proj.ID || list[0].ClientID != e.docs.url("/client.json") {
			t.Fatalf("grants after the go-sdk flow = %+v, %v", list, err)
		}

		// The workspace endpoint, read-only: reads work, a write is refused for scope.
		ws := connect("/api/mcp", tools.Consent{ReadOnly: true})
		res, err = ws.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_project_status", Arguments: map[string]any{"project_id": e.sibling.ID}})
		if err != nil || res.IsError {
			t.Fatalf("get_project_status through a read-only workspace grant: %v %+v", err, res)
		}
		// The SDK tries step-up once: the person is asked again and again says read-only.
		res, err = ws.CallTool(t.Context(), &mcp.CallToolParams{Name: "add_key", Arguments: map[string]any{"project_id": e.proj.ID,
			"namespace_key": "ui", "translation_key": "sdk.no", "source_value": "No"}})
		if err == nil && !res.IsError {
			t.Errorf("a write through a read-only grant succeeded")
		}
		if r := e.call(t, "GET", "/api/"+e.proj.ID+"/latest/en/ui", bearerAuth(e.rw), nil); strings.Contains(string(r.body), "sdk.no") {
			t.Errorf("the refused write was stored: %s", r.body)
		}
	})
}
