package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestOAuthMetadataAndChallenge: the RFC 9728 and RFC 8414 documents say what the contract
// says, and both MCP endpoints answer a missing or bad token with the challenge that leads
// a client to them.
func TestOAuthMetadataAndChallenge(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		iss := e.cat.Issuer()
		for path, resource := range map[string]string{
			"/.well-known/oauth-protected-resource":                           iss + "/api/mcp",
			"/.well-known/oauth-protected-resource/api/mcp":                   iss + "/api/mcp",
			"/.well-known/oauth-protected-resource/api/" + e.proj.ID + "/mcp": iss + "/api/" + e.proj.ID + "/mcp",
		} {
			r := e.call(t, "GET", path, "", nil)
			var prm struct {
				Resource             string   `json:"resource"`
				AuthorizationServers []string `json:"authorization_servers"`
				Scopes               []string `json:"scopes_supported"`
				Bearer               []string `json:"bearer_methods_supported"`
			}
			if r.status != 200 || json.Unmarshal(r.body, &prm) != nil || prm.Resource != resource ||
				strings.Join(prm.AuthorizationServers, ",") != iss || strings.Join(prm.Scopes, " ") != tools.ScopesAll ||
				strings.Join(prm.Bearer, ",") != "header" {
				t.Errorf("GET %s = %d %s, want the metadata of %s", path, r.status, r.body, resource)
			}
			if r.header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("GET %s: no CORS for browser clients", path)
			}
		}
		if r := e.call(t, "GET", "/.well-known/oauth-protected-resource/api/not-a-project/mcp", "", nil); r.status != 404 {
			t.Errorf("metadata of a malformed project endpoint answered %d, want 404", r.status)
		}

		r := e.call(t, "GET", "/.well-known/oauth-authorization-server", "", nil)
		var as map[string]any
		if r.status != 200 || json.Unmarshal(r.body, &as) != nil {
			t.Fatalf("AS metadata: %d %s", r.status, r.body)
		}
		want := map[string]any{"issuer": iss, "authorization_endpoint": iss + "/app/oauth/authorize", "token_endpoint": iss + "/oauth/token",
			"revocation_endpoint": iss + "/oauth/revoke", "authorization_response_iss_parameter_supported": true,
			"client_id_metadata_document_supported": true}
		for k, v := range want {
			if as[k] != v {
				t.Errorf("AS metadata %s = %v, want %v", k, as[k], v)
			}
		}
		for k, v := range map[string]string{"code_challenge_methods_supported": "S256", "response_types_supported": "code",
			"grant_types_supported": "authorization_code refresh_token", "token_endpoint_auth_methods_supported": "none",
			"scopes_supported": tools.ScopesAll} {
			var got []string
			for _, x := range as[k].([]any) {
				got = append(got, x.(string))
			}
			if strings.Join(got, " ") != v {
				t.Errorf("AS metadata %s = %v, want %s", k, got, v)
			}
		}
		if _, ok := as["registration_endpoint"]; ok {
			t.Errorf("registration_endpoint advertised while dynamic registration is off")
		}
		if _, ok := as["jwks_uri"]; ok {
			t.Errorf("jwks_uri advertised: lokal signs nothing")
		}

		for _, pid := range []string{"", e.proj.ID} {
			e.wantChallenge(t, e.rpc(t, mcpPath(pid), "", "", nil), pid, false)
			e.wantChallenge(t, e.rpc(t, mcpPath(pid), "lka_0000000000000000000000000000000000000000000000", "", nil), pid, true)
		}
		// A pasted token of another project, refused by the catalogue, carries it too.
		e.wantChallenge(t, e.rpc(t, mcpPath(e.other.ID), e.pat, "", nil), e.other.ID, true)
		// Pasted tokens keep working.
		if r := e.rpc(t, mcpPath(e.proj.ID), e.pat, "", nil); r.status != 200 {
			t.Errorf("a pasted personal token at its project endpoint answered %d %s", r.status, r.body)
		}
	})
}

// TestOAuthCodeFlowAndRefresh: consent, code with PKCE, tokens, MCP calls with the go-sdk
// client, refresh with rotation, and a rotated refresh token presented again (stolen)
// revoking the grant; the Connect page lists the grant with its last use and revokes it.
func TestOAuthCodeFlowAndRefresh(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		resource := e.cat.MCPResource(e.proj.ID)
		req, v := e.request(t, "/client.json", resource, "")
		check, err := e.cat.CheckAuthorize(t.Context(), req)
		if err != nil {
			t.Fatalf("CheckAuthorize: %v", err)
		}
		if check.Client.Name != "Test client" || check.Client.RedirectHost != "127.0.0.1:1" || check.ProjectID != e.proj.ID ||
			check.Resource != resource || strings.Join(check.Scopes, " ") != tools.ScopesAll {
			t.Fatalf("CheckAuthorize = %+v", check)
		}
		// Consent needs a signed-in person.
		if _, err := e.cat.ApproveAuthorize(model.WithPrincipal(t.Context(), model.Principal{Kind: model.KindWorkspace, UserID: e.user.ID,
			WorkspaceID: e.ws.ID}), req, tools.Consent{}); err == nil {
			t.Fatal("ApproveAuthorize without a session succeeded")
		}
		tok := e.exchange(t, req, e.approve(t, req, tools.Consent{}), v)
		if tok.Scope != tools.ScopesAll {
			t.Errorf("scope = %q, want %q", tok.Scope, tools.ScopesAll)
		}

		m := e.mcpConnect(t, mcpPath(e.proj.ID), bearerAuth(tok.AccessToken), mcpOpts{})
		if got := mcpOK[mcpProjects](t, m, "list_projects", nil); len(got.Projects) != 1 || got.Projects[0].ID != e.proj.ID {
			t.Errorf("list_projects = %+v, want the project", got)
		}
		mcpOK[map[string]string](t, m, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "oauth.hello", "source_value": "Hello"})

		// Refresh: new tokens, both old and new access tokens work until the old expires.
		next := oauthWantTokens(t, e.refresh(t, req.ClientID, tok.RefreshToken))
		if next.RefreshToken == tok.RefreshToken || next.AccessToken == tok.AccessToken {
			t.Fatal("refresh did not rotate")
		}
		if r := e.rpc(t, mcpPath(e.proj.ID), next.AccessToken, "list_projects", nil); r.status != 200 {
			t.Fatalf("refreshed access token answered %d %s", r.status, r.body)
		}
		// A refresh token of another client is refused and spends nothing.
		oauthWantFailure(t, e.refresh(t, e.docs.url("/readonly.json"), next.RefreshToken), 400, "invalid_grant")

		list, err := e.cat.ListGrants(model.WithPrincipal(t.Context(), *e.session(t)))
		if err != nil || len(list) != 1 {
			t.Fatalf("ListGrants = %+v, %v; want one grant", list, err)
		}
		g := list[0]
		if g.ClientID != req.ClientID || g.ClientName != "Test client" || g.ProjectID != e.proj.ID || g.ProjectName != e.proj.Title ||
			g.ReadOnly || g.Scope != tools.ScopesAll || g.RedirectHost != "127.0.0.1:1" || g.Resource != resource {
			t.Errorf("grant listing = %+v", g)
		}
		// Last use is written in the background; wait for it without sleeping blindly.
		deadline := time.Now().Add(10 * time.Second)
		for g.LastUsedAt == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			list, _ = e.cat.ListGrants(model.WithPrincipal(t.Context(), *e.session(t)))
			g = list[0]
		}
		if g.LastUsedAt == nil {
			t.Error("the grant's last use was not recorded")
		}
		// OAuth tokens are the grant's: the person's token list does not show them.
		toks, err := e.cat.ListTokens(model.WithPrincipal(t.Context(), *e.session(t)), e.user.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range toks {
			if strings.HasPrefix(x.Prefix, tools.PrefixOAuthAccess) {
				t.Errorf("token list shows the grant's access token %s", x.Prefix)
			}
		}

		// The first refresh token again: theft. The grant ends, with every token of it.
		oauthWantFailure(t, e.refresh(t, req.ClientID, tok.RefreshToken), 400, "invalid_grant")
		for _, a := range []string{tok.AccessToken, next.AccessToken} {
			e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a, "", nil), e.proj.ID, true)
		}
		oauthWantFailure(t, e.refresh(t, req.ClientID, next.RefreshToken), 400, "invalid_grant")
		if list, _ := e.cat.ListGrants(model.WithPrincipal(t.Context(), *e.session(t))); len(list) != 0 {
			t.Errorf("the revoked grant is still listed: %+v", list)
		}

		// A second grant, ended from the Connect page.
		_, tok2 := e.grant(t, "/client.json", "", tools.Consent{})
		list, _ = e.cat.ListGrants(model.WithPrincipal(t.Context(), *e.session(t)))
		if len(list) != 1 || list[0].ProjectID != "" || list[0].Resource != e.cat.MCPResource("") {
			t.Fatalf("workspace grant listing = %+v", list)
		}
		ws := e.mcpConnect(t, "/api/mcp", bearerAuth(tok2.AccessToken), mcpOpts{})
		if got := mcpOK[mcpProjects](t, ws, "list_projects", nil); len(got.Projects) < 2 {
			t.Errorf("workspace grant list_projects = %+v, want the workspace's projects", got)
		}
		other := model.WithPrincipal(t.Context(), model.Principal{Kind: tools.KindSession, TokenID: "session", UserID: "someone-else", WorkspaceID: e.ws.ID})
		if err := e.cat.RevokeGrant(other, list[0].ID); !model.IsNotFound(err) {
			t.Errorf("another person revoking the grant: %v, want not found", err)
		}
		if err := e.cat.RevokeGrant(model.WithPrincipal(t.Context(), *e.session(t)), list[0].ID); err != nil {
			t.Fatal(err)
		}
		e.wantChallenge(t, e.rpc(t, "/api/mcp", tok2.AccessToken, "", nil), "", true)
		oauthWantFailure(t, e.refresh(t, req.ClientID, tok2.RefreshToken), 400, "invalid_grant")
	})
}

// TestOAuthRefusedRequests: what CheckAuthorize and the token endpoint refuse, and where
// the refusal goes.
func TestOAuthRefusedRequests(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		base, _ := e.request(t, "/client.json", "", "")
		for name, tc := range map[string]struct {
			edit     func(r *tools.AuthorizeRequest)
			code     string
			redirect bool
		}{
			"pkce missing":        {func(r *tools.AuthorizeRequest) { r.CodeChallenge, r.CodeChallengeMethod = "", "" }, "invalid_request", true},
			"pkce plain":          {func(r *tools.AuthorizeRequest) { r.CodeChallengeMethod = "plain" }, "invalid_request", true},
			"method missing":      {func(r *tools.AuthorizeRequest) { r.CodeChallengeMethod = "" }, "invalid_request", true},
			"challenge malformed": {func(r *tools.AuthorizeRequest) { r.CodeChallenge = "short" }, "invalid_request", true},
			"response type":       {func(r *tools.AuthorizeRequest) { r.ResponseType = "token" }, "unsupported_response_type", true},
			"unknown scope":       {func(r *tools.AuthorizeRequest) { r.Scope = "lokal:read admin" }, "invalid_scope", true},
			"other resource":      {func(r *tools.AuthorizeRequest) { r.Resource = "https://elsewhere.example/api/mcp" }, "invalid_target", true},
			"resource not mcp":    {func(r *tools.AuthorizeRequest) { r.Resource = e.cat.Issuer() + "/api/me" }, "invalid_target", true},
			"wrong redirect":      {func(r *tools.AuthorizeRequest) { r.RedirectURI = "http://127.0.0.1:1/other" }, "invalid_request", false},
			"redirect elsewhere":  {func(r *tools.AuthorizeRequest) { r.RedirectURI = "https://evil.example/callback" }, "invalid_request", false},
			"redirect missing":    {func(r *tools.AuthorizeRequest) { r.RedirectURI = "" }, "invalid_request", false},
			"unknown client":      {func(r *tools.AuthorizeRequest) { r.ClientID = "some-client" }, "invalid_client", false},
			"document not served": {func(r *tools.AuthorizeRequest) { r.ClientID = e.docs.url("/missing.json") }, "invalid_client", false},
			"unallowed redirect host in the document": {func(r *tools.AuthorizeRequest) {
				r.ClientID, r.RedirectURI = e.docs.url("/evil-redirect.json"), "https://evil.example/callback"
			}, "invalid_client", false},
		} {
			r := base
			tc.edit(&r)
			_, err := e.cat.CheckAuthorize(t.Context(), r)
			oe, ok := err.(*tools.OAuthError)
			if !ok || oe.Code != tc.code || oe.Redirect != tc.redirect {
				t.Errorf("%s: CheckAuthorize = %v, want %s (redirect %v)", name, err, tc.code, tc.redirect)
				continue
			}
			if _, err := e.cat.ApproveAuthorize(model.WithPrincipal(t.Context(), *e.session(t)), r, tools.Consent{}); err == nil {
				t.Errorf("%s: ApproveAuthorize succeeded", name)
			}
		}
		// A loopback redirect may change its port (RFC 8252), nothing else.
		moved := base
		moved.RedirectURI = "http://127.0.0.1:49152/callback"
		if _, err := e.cat.CheckAuthorize(t.Context(), moved); err != nil {
			t.Errorf("loopback redirect on another port: %v", err)
		}
		// Deny goes back with access_denied, the state and the issuer.
		to, err := e.cat.DenyAuthorize(model.WithPrincipal(t.Context(), *e.session(t)), base)
		if u, _ := url.Parse(to); err != nil || u.Query().Get("error") != "access_denied" || u.Query().Get("state") != base.State ||
			u.Query().Get("iss") != e.cat.Issuer() {
			t.Errorf("DenyAuthorize = %q, %v", to, err)
		}

		// The token endpoint: wrong verifier, wrong redirect_uri, another client, a
		// resource not consented to, each spending the code.
		for name, edit := range map[string]func(f url.Values){
			"wrong verifier": func(f url.Values) { f.Set("code_verifier", strings.Repeat("a", 43)) },
			"no verifier":    func(f url.Values) { f.Del("code_verifier") },
			"wrong redirect": func(f url.Values) { f.Set("redirect_uri", "http://127.0.0.1:1/other") },
			"another client": func(f url.Values) { f.Set("client_id", e.docs.url("/readonly.json")) },
			"other resource": func(f url.Values) { f.Set("resource", e.cat.MCPResource(e.proj.ID)) },
		} {
			req, v := e.request(t, "/client.json", "", "")
			code := e.approve(t, req, tools.Consent{})
			f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {req.RedirectURI},
				"client_id": {req.ClientID}, "code_verifier": {v}}
			edit(f)
			r := e.post(t, "/oauth/token", f)
			if r.status != 400 {
				t.Errorf("%s: answered %d %s, want 400", name, r.status, r.body)
			}
			// The code is spent: the right request now fails too.
			r = e.post(t, "/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {req.RedirectURI},
				"client_id": {req.ClientID}, "code_verifier": {v}})
			oauthWantFailure(t, r, 400, "invalid_grant")
		}
		oauthWantFailure(t, e.post(t, "/oauth/token", url.Values{"grant_type": {"password"}, "client_id": {"x"}}), 400, "unsupported_grant_type")
		oauthWantFailure(t, e.post(t, "/oauth/token", url.Values{"grant_type": {"authorization_code"}}), 401, "invalid_client")
		r := e.do(t, request{Method: "POST", Path: "/oauth/token", Body: `{"grant_type":"authorization_code"}`})
		oauthWantFailure(t, r, 400, "invalid_request")
		r = e.do(t, request{Method: "POST", Path: "/oauth/token", Body: strings.Repeat("a=b&", 20<<10),
			Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
		if r.status != http.StatusRequestEntityTooLarge {
			t.Errorf("a 80 KiB form answered %d, want 413", r.status)
		}

		// A replayed code: refused, and the tokens the first exchange gave are dead.
		req, v := e.request(t, "/client.json", "", "")
		code := e.approve(t, req, tools.Consent{})
		tok := e.exchange(t, req, code, v)
		r = e.post(t, "/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {req.RedirectURI},
			"client_id": {req.ClientID}, "code_verifier": {v}})
		oauthWantFailure(t, r, 400, "invalid_grant")
		e.wantChallenge(t, e.rpc(t, "/api/mcp", tok.AccessToken, "", nil), "", true)
		oauthWantFailure(t, e.refresh(t, req.ClientID, tok.RefreshToken), 400, "invalid_grant")

		// An expired code.
		req, v = e.request(t, "/client.json", "", "")
		code = e.approve(t, req, tools.Consent{})
		e.clock.advance(61 * time.Second)
		r = e.post(t, "/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {req.RedirectURI},
			"client_id": {req.ClientID}, "code_verifier": {v}})
		oauthWantFailure(t, r, 400, "invalid_grant")
	})
}

// TestOAuthAudienceExpiryRevocation: an access token works at its own resource only; it
// ends after an hour, when revoked, and when its person is disabled.
func TestOAuthAudienceExpiryRevocation(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		_, a := e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{})
		_, ws := e.grant(t, "/client.json", "", tools.Consent{})
		if r := e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "list_projects", nil); r.status != 200 {
			t.Fatalf("token at its resource: %d %s", r.status, r.body)
		}
		if r := e.rpc(t, "/api/mcp", ws.AccessToken, "list_projects", nil); r.status != 200 {
			t.Fatalf("workspace token at its resource: %d %s", r.status, r.body)
		}
		// Project A's token at B's endpoint and at the workspace's; the workspace token at
		// a project's; both at the token API.
		e.wantChallenge(t, e.rpc(t, mcpPath(e.sibling.ID), a.AccessToken, "", nil), e.sibling.ID, true)
		e.wantChallenge(t, e.rpc(t, "/api/mcp", a.AccessToken, "", nil), "", true)
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), ws.AccessToken, "", nil), e.proj.ID, true)
		for _, tok := range []string{a.AccessToken, ws.AccessToken} {
			if r := e.call(t, "GET", "/api/me", bearerAuth(tok), nil); r.status != 401 {
				t.Errorf("an OAuth token at the token API answered %d, want 401", r.status)
			}
		}
		// A project grant chosen at the workspace endpoint reaches that project only.
		_, one := e.grant(t, "/client.json", "", tools.Consent{ProjectID: e.proj.ID})
		if r := e.rpc(t, "/api/mcp", one.AccessToken, "get_project_status", map[string]any{"project_id": e.proj.ID}); r.status != 200 ||
			strings.Contains(string(r.body), `"isError":true`) {
			t.Errorf("project grant at the workspace endpoint, its project: %d %s", r.status, r.body)
		}
		if r := e.rpc(t, "/api/mcp", one.AccessToken, "get_project_status", map[string]any{"project_id": e.sibling.ID}); r.status == 200 &&
			!strings.Contains(string(r.body), `"isError":true`) {
			t.Errorf("project grant at the workspace endpoint reached another project: %s", r.body)
		}

		// Revocation (RFC 7009): an unknown token is fine; an access token ends itself; a
		// refresh token ends its grant.
		if r := e.post(t, "/oauth/revoke", url.Values{"token": {"lka_unknown"}}); r.status != 200 {
			t.Errorf("revoking an unknown token answered %d", r.status)
		}
		e.post(t, "/oauth/revoke", url.Values{"token": {ws.AccessToken}, "token_type_hint": {"access_token"}})
		e.wantChallenge(t, e.rpc(t, "/api/mcp", ws.AccessToken, "", nil), "", true)
		next := oauthWantTokens(t, e.refresh(t, e.docs.url("/client.json"), ws.RefreshToken))
		e.post(t, "/oauth/revoke", url.Values{"token": {next.RefreshToken}})
		e.wantChallenge(t, e.rpc(t, "/api/mcp", next.AccessToken, "", nil), "", true)
		oauthWantFailure(t, e.refresh(t, e.docs.url("/client.json"), next.RefreshToken), 400, "invalid_grant")
		// Another client's revocation of a token changes nothing.
		e.post(t, "/oauth/revoke", url.Values{"token": {a.AccessToken}, "client_id": {e.docs.url("/readonly.json")}})
		if r := e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "list_projects", nil); r.status != 200 {
			t.Errorf("another client revoked the token: %d", r.status)
		}

		// An hour later the access token is refused; the refresh token still gives one.
		e.clock.advance(time.Hour + time.Second)
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "", nil), e.proj.ID, true)
		a = oauthWantTokens(t, e.refresh(t, e.docs.url("/client.json"), a.RefreshToken))
		if r := e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "list_projects", nil); r.status != 200 {
			t.Fatalf("refreshed token: %d %s", r.status, r.body)
		}

		// A disabled person's grant ends: its tokens and its refresh; enabled again, it stays
		// ended (their pasted tokens work again, a client must ask for consent anew);
		// deleted, a new grant is gone too.
		if _, err := e.cat.CreateUser(sys(t), tools.CreateUserIn{WorkspaceID: e.ws.ID, Email: "boss@acme.test", Role: model.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.DisableUser(sys(t), e.user.ID); err != nil {
			t.Fatal(err)
		}
		e.clock.advance(2 * time.Second) // past the auth cache
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "", nil), e.proj.ID, true)
		oauthWantFailure(t, e.refresh(t, e.docs.url("/client.json"), a.RefreshToken), 400, "invalid_grant")
		if _, err := e.cat.EnableUser(sys(t), e.user.ID); err != nil {
			t.Fatal(err)
		}
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "", nil), e.proj.ID, true)
		oauthWantFailure(t, e.refresh(t, e.docs.url("/client.json"), a.RefreshToken), 400, "invalid_grant")
		_, a = e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{})
		if r := e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "list_projects", nil); r.status != 200 {
			t.Fatalf("a new grant once enabled again: %d %s", r.status, r.body)
		}
		if _, err := e.cat.DeleteUser(sys(t), e.user.ID); err != nil {
			t.Fatal(err)
		}
		e.clock.advance(2 * time.Second)
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "", nil), e.proj.ID, true)
		oauthWantFailure(t, e.refresh(t, e.docs.url("/client.json"), a.RefreshToken), 400, "invalid_grant")
	})
}

// TestOAuthReadOnlyGrant: a grant the person narrowed to read-only reads, and a write tool
// gets 403 insufficient_scope with the challenge that lets the client ask for more.
func TestOAuthReadOnlyGrant(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		_, tok := e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{ReadOnly: true})
		if tok.Scope != tools.ScopeRead {
			t.Errorf("read-only grant scope = %q", tok.Scope)
		}
		if r := e.rpc(t, mcpPath(e.proj.ID), tok.AccessToken, "list_projects", nil); r.status != 200 {
			t.Fatalf("read tool: %d %s", r.status, r.body)
		}
		r := e.rpc(t, mcpPath(e.proj.ID), tok.AccessToken, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "x", "source_value": "X"})
		meta := e.cat.Issuer() + "/.well-known/oauth-protected-resource" + mcpPath(e.proj.ID)
		want := `Bearer error="insufficient_scope", scope="lokal:read lokal:write", resource_metadata="` + meta + `"`
		if r.status != 403 || r.header.Get("WWW-Authenticate") != want || !strings.Contains(string(r.body), `"insufficient_scope"`) {
			t.Fatalf("write tool on a read-only grant: %d %q %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
		}
		// A refresh cannot widen it, a read-only scope is fine.
		oauthWantFailure(t, e.post(t, "/oauth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken},
			"client_id": {e.docs.url("/client.json")}, "scope": {tools.ScopesAll}}), 400, "invalid_scope")
		// Asking for lokal:read only gives a read-only grant whatever the consent says.
		req, v := e.request(t, "/client.json", "", tools.ScopeRead)
		ro := e.exchange(t, req, e.approve(t, req, tools.Consent{}), v)
		if ro.Scope != tools.ScopeRead {
			t.Errorf("scope lokal:read gave %q", ro.Scope)
		}
		if r := e.rpc(t, "/api/mcp", ro.AccessToken, "add_key", map[string]any{"project_id": e.proj.ID, "namespace_key": "ui",
			"translation_key": "x", "source_value": "X"}); r.status != 403 {
			t.Errorf("write tool on a lokal:read grant: %d", r.status)
		}
		// A read-write grant writes.
		_, rw := e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{})
		if r := e.rpc(t, mcpPath(e.proj.ID), rw.AccessToken, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "y",
			"source_value": "Y"}); r.status != 200 || strings.Contains(string(r.body), `"isError":true`) {
			t.Errorf("write tool on a read-write grant: %d %s", r.status, r.body)
		}
	})
}

// TestOAuthGrantEndsWithTheRole: a translator's grant on a project writes their language
// only; removed from the project, the grant ends (401, refresh refused) and given the role
// back, it stays ended; their grant for another project is untouched.
func TestOAuthGrantEndsWithTheRole(t *testing.T) {
	t.Parallel()
	oauthForEachDialect(t, nil, func(t *testing.T, e *oauthEnv) {
		u, err := e.cat.CreateUser(sys(t), tools.CreateUserIn{WorkspaceID: e.ws.ID, Email: "tr@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []tools.SetMemberIn{{ProjectID: e.proj.ID, User: u.ID, Role: model.RoleTranslator, Languages: []string{"nb"}},
			{ProjectID: e.sibling.ID, User: u.ID, Role: model.RoleManager}} {
			if _, err := e.cat.SetMember(sys(t), m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.cat.Sync(sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.proj.ID, Language: "en", Namespace: "common"},
			Translations: map[string]string{"hello": "Hello"}}); err != nil {
			t.Fatal(err)
		}
		e.user = u // the consents below are the translator's
		_, a := e.grant(t, "/client.json", e.cat.MCPResource(e.proj.ID), tools.Consent{})
		_, b := e.grant(t, "/client.json", e.cat.MCPResource(e.sibling.ID), tools.Consent{})
		write := func(tok, project, lang string) string {
			r := e.rpc(t, mcpPath(project), tok, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "hello", "language": lang, "value": "Hei"})
			return fmt.Sprintf("%d %s", r.status, r.body)
		}
		if got := write(a.AccessToken, e.proj.ID, "nb"); !strings.HasPrefix(got, "200") || strings.Contains(got, `"isError":true`) {
			t.Fatalf("translator's grant writing nb: %s", got)
		}
		if got := write(a.AccessToken, e.proj.ID, "sv"); !strings.Contains(got, `"isError":true`) {
			t.Errorf("translator's grant wrote sv, outside the role: %s", got)
		}

		if _, err := e.cat.RemoveMember(sys(t), e.proj.ID, u.ID); err != nil {
			t.Fatal(err)
		}
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "", nil), e.proj.ID, true)
		oauthWantFailure(t, e.refresh(t, e.docs.url("/client.json"), a.RefreshToken), 400, "invalid_grant")
		if _, err := e.cat.SetMember(sys(t), tools.SetMemberIn{ProjectID: e.proj.ID, User: u.ID, Role: model.RoleTranslator, Languages: []string{"nb"}}); err != nil {
			t.Fatal(err)
		}
		e.wantChallenge(t, e.rpc(t, mcpPath(e.proj.ID), a.AccessToken, "", nil), e.proj.ID, true)
		if r := e.rpc(t, mcpPath(e.sibling.ID), b.AccessToken, "list_projects", nil); r.status != 200 {
			t.Errorf("the grant for the other project after the removal: %d %s", r.status, r.body)
		}
		gs, err := e.cat.ListGrants(model.WithPrincipal(t.Context(), *e.session(t)))
		if err != nil || len(gs) != 1 || gs[0].ProjectID != e.sibling.ID {
			t.Errorf("grants listed after the removal: %+v (%v), want the other project's only", gs, err)
		}
	})
}
