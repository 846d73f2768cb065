package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// lokal's OAuth 2.1 doors (issue 35): the MCP endpoints as protected resources (RFC 9728
// metadata, the 401 challenge, the audience, insufficient_scope) and the authorization
// server's endpoints that clients call without a token (RFC 8414 metadata, token,
// revocation, registration). The consent page is the editor's (/app/oauth/authorize).

// oauthMaxBody caps the form and JSON bodies of the OAuth endpoints: a few hundred bytes
// in practice, a registration a few KiB.
const oauthMaxBody = 64 << 10

// mountOAuth adds the OAuth routes, outside the token middleware.
func (s *server) mountOAuth(r *gin.Engine) {
	r.GET("/.well-known/oauth-protected-resource", s.resourceMetadata)
	r.GET("/.well-known/oauth-protected-resource/api/mcp", s.resourceMetadata)
	r.GET("/.well-known/oauth-protected-resource/api/:project_id/mcp", s.resourceMetadata)
	r.GET("/.well-known/oauth-authorization-server", s.authServerMetadata)
	r.POST("/oauth/token", s.oauthBody, s.oauthToken)
	r.POST("/oauth/revoke", s.oauthBody, s.oauthRevoke)
	r.POST("/oauth/register", s.oauthBody, s.oauthRegister)
	r.POST("/api/mcp", s.mcpAuthenticate, s.openMCP, s.readBody, s.mcpScope, s.serveMCP)
	r.POST("/api/:project_id/mcp", s.mcpAuthenticate, s.openMCP, s.readBody, s.mcpScope, s.serveMCP)
}

// resourceMetadataURL is the RFC 9728 metadata URL of an MCP endpoint (path-suffixed).
func (s *server) resourceMetadataURL(projectID string) string {
	if projectID == "" {
		return s.cat.Issuer() + "/.well-known/oauth-protected-resource/api/mcp"
	}
	// Escaped: the id comes from the path as typed, and goes into a header.
	return s.cat.Issuer() + "/.well-known/oauth-protected-resource/api/" + url.PathEscape(projectID) + "/mcp"
}

func (s *server) resourceMetadata(c *gin.Context) {
	resource := s.cat.MCPResource(c.Param("project_id"))
	if _, ok := s.cat.ResourceProject(resource); !ok {
		writeError(c, model.Errorf(model.CodeNotFound, "no MCP endpoint at %s", model.Truncate(c.Request.URL.Path, 200)))
		return
	}
	meta := &oauthex.ProtectedResourceMetadata{Resource: resource, AuthorizationServers: []string{s.cat.Issuer()},
		ScopesSupported: []string{tools.ScopeRead, tools.ScopeWrite}, BearerMethodsSupported: []string{"header"},
		ResourceName: "lokal MCP"}
	if p := c.Param("project_id"); p != "" {
		meta.ResourceName = "lokal MCP (project " + p + ")"
	}
	c.Header("Cache-Control", "max-age=300")
	auth.ProtectedResourceMetadataHandler(meta).ServeHTTP(c.Writer, c.Request)
}

func (s *server) authServerMetadata(c *gin.Context) {
	iss := s.cat.Issuer()
	meta := oauthex.AuthServerMeta{Issuer: iss, AuthorizationEndpoint: iss + "/app/oauth/authorize", TokenEndpoint: iss + "/oauth/token",
		RevocationEndpoint: iss + "/oauth/revoke", ScopesSupported: []string{tools.ScopeRead, tools.ScopeWrite},
		ResponseTypesSupported: []string{"code"}, GrantTypesSupported: []string{"authorization_code", "refresh_token"},
		CodeChallengeMethodsSupported: []string{"S256"}, TokenEndpointAuthMethodsSupported: []string{"none"},
		RevocationEndpointAuthMethodsSupported: []string{"none"}, AuthorizationResponseIssParameterSupported: true,
		ClientIDMetadataDocumentSupported: true}
	if s.cat.DynamicRegistration() {
		meta.RegistrationEndpoint = iss + "/oauth/register"
	}
	// The type has jwks_uri without omitempty: lokal signs nothing, so it says nothing.
	b, err := json.Marshal(meta)
	var m map[string]any
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		writeError(c, err)
		return
	}
	if m["jwks_uri"] == "" {
		delete(m, "jwks_uri")
	}
	c.Header("Cache-Control", "max-age=300")
	writeJSON(c, http.StatusOK, m)
}

// oauthBody reads a protocol endpoint's body under oauthMaxBody and the shared bound on
// bodies in flight.
func (s *server) oauthBody(c *gin.Context) {
	if c.Request.ContentLength > oauthMaxBody {
		oauthError(c, &tools.OAuthError{Code: "invalid_request", Description: "the body is too large", Status: http.StatusRequestEntityTooLarge})
		return
	}
	release, err := s.opts.Bodies.Acquire(c.Request.Context(), c.Request.ContentLength, oauthMaxBody, s.opts.BodyTimeout)
	if err != nil {
		writeError(c, err)
		return
	}
	defer release()
	b, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, oauthMaxBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		oauthError(c, &tools.OAuthError{Code: "invalid_request", Description: "the body is too large", Status: http.StatusRequestEntityTooLarge})
		return
	}
	if err != nil {
		writeError(c, err)
		return
	}
	c.Set(bodyKey, b)
	c.Next()
}

// oauthForm is the body as an application/x-www-form-urlencoded form; a parameter given
// twice is refused (RFC 6749 §3.1).
func oauthForm(c *gin.Context) (url.Values, *tools.OAuthError) {
	ct := c.ContentType()
	if ct != "application/x-www-form-urlencoded" {
		return nil, &tools.OAuthError{Code: "invalid_request", Description: "the body must be application/x-www-form-urlencoded", Status: 400}
	}
	v, err := url.ParseQuery(string(body(c)))
	if err != nil {
		return nil, &tools.OAuthError{Code: "invalid_request", Description: "the body is not a form", Status: 400}
	}
	for k, vs := range v {
		if len(vs) > 1 {
			return nil, &tools.OAuthError{Code: "invalid_request", Description: k + " is given more than once", Status: 400}
		}
	}
	return v, nil
}

// oauthError answers err in RFC 6749 §5.2's shape; any other error as the API does.
func oauthError(c *gin.Context, err error) {
	var oe *tools.OAuthError
	if !errors.As(err, &oe) {
		writeError(c, err)
		return
	}
	status := oe.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	c.Header("Cache-Control", "no-store")
	if status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer error="`+oe.Code+`"`)
	}
	c.AbortWithStatusJSON(status, gin.H{"error": oe.Code, "error_description": oe.Description})
}

func (s *server) oauthToken(c *gin.Context) {
	f, ferr := oauthForm(c)
	if ferr != nil {
		oauthError(c, ferr)
		return
	}
	out, err := s.cat.OAuthToken(c.Request.Context(), tools.TokenRequest{GrantType: f.Get("grant_type"), ClientID: f.Get("client_id"),
		Code: f.Get("code"), RedirectURI: f.Get("redirect_uri"), CodeVerifier: f.Get("code_verifier"),
		RefreshToken: f.Get("refresh_token"), Scope: f.Get("scope"), Resource: f.Get("resource")})
	if err != nil {
		oauthError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Header("Pragma", "no-cache")
	writeJSON(c, http.StatusOK, out)
}

func (s *server) oauthRevoke(c *gin.Context) {
	f, ferr := oauthForm(c)
	if ferr != nil {
		oauthError(c, ferr)
		return
	}
	if err := s.cat.OAuthRevoke(c.Request.Context(), f.Get("token"), f.Get("client_id")); err != nil {
		oauthError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Status(http.StatusOK)
}

func (s *server) oauthRegister(c *gin.Context) {
	var m oauthex.ClientRegistrationMetadata
	dec := json.NewDecoder(bytes.NewReader(body(c)))
	if err := dec.Decode(&m); err != nil || dec.More() {
		if !s.cat.DynamicRegistration() {
			oauthError(c, &tools.OAuthError{Code: "access_denied", Description: "dynamic client registration is off on this server", Status: 403})
			return
		}
		oauthError(c, &tools.OAuthError{Code: "invalid_client_metadata", Description: "the body must be one JSON object of client metadata", Status: 400})
		return
	}
	out, err := s.cat.RegisterOAuthClient(c.Request.Context(), m)
	if err != nil {
		oauthError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	writeJSON(c, http.StatusCreated, out)
}

// mcpChallenge adds the RFC 9728 challenge to every 401 and 403 an MCP endpoint answers,
// whichever middleware or operation refused.
type mcpChallenge struct {
	gin.ResponseWriter
	metadata string
	token    bool // a token was presented: the 401 says invalid_token
}

func (w *mcpChallenge) WriteHeader(code int) {
	if code == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		v := `Bearer resource_metadata="` + w.metadata + `", scope="` + tools.ScopesAll + `"`
		if w.token {
			v += `, error="invalid_token"`
		}
		w.Header().Set("WWW-Authenticate", v)
	}
	w.ResponseWriter.WriteHeader(code)
}

// mcpAuthenticate is authenticate for the MCP endpoints: a refusal carries the challenge
// that sends an OAuth client to the metadata, and an OAuth access token is taken only at
// the resource it was issued for (RFC 8707).
func (s *server) mcpAuthenticate(c *gin.Context) {
	token := tools.ParseAuthorization(c.GetHeader("Authorization"))
	projectID := c.Param("project_id")
	c.Writer = &mcpChallenge{ResponseWriter: c.Writer, metadata: s.resourceMetadataURL(projectID), token: token != ""}
	p, err := s.cat.Authenticate(c.Request.Context(), token)
	if err != nil {
		writeError(c, err)
		return
	}
	if p.Audience != "" && p.Audience != s.cat.MCPResource(projectID) {
		writeError(c, model.Errorf(model.CodeUnauthorized, "this token was issued for %s, not this endpoint", p.Audience))
		return
	}
	c.Request = c.Request.WithContext(model.WithPrincipal(c.Request.Context(), p))
	c.Next()
}

// mcpScope answers 403 insufficient_scope to a read-only OAuth grant calling a tool whose
// row in the table is not ReadOnly: the client may ask the person for lokal:write.
func (s *server) mcpScope(c *gin.Context) {
	p := model.PrincipalFrom(c.Request.Context())
	if p.GrantID == "" || !p.ReadOnly {
		c.Next()
		return
	}
	for _, name := range calledTools(body(c)) {
		op, ok := tools.Op(tools.OpName(name))
		if ok && op.Tool != nil && !op.ReadOnly {
			c.Header("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+tools.ScopesAll+`", resource_metadata="`+
				s.resourceMetadataURL(c.Param("project_id"))+`"`)
			c.AbortWithStatusJSON(http.StatusForbidden, httpx.ErrorBody{Error: "insufficient_scope",
				Message: name + " needs the " + tools.ScopeWrite + " scope; this grant is read-only"})
			return
		}
	}
	c.Next()
}

// calledTools returns the names of the tools a JSON-RPC message (or batch) calls.
func calledTools(b []byte) []string {
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var msgs []call
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		if json.Unmarshal(b, &msgs) != nil {
			return nil
		}
	} else {
		var one call
		if json.Unmarshal(b, &one) != nil {
			return nil
		}
		msgs = []call{one}
	}
	var out []string
	for _, m := range msgs {
		if m.Method == "tools/call" {
			out = append(out, strings.TrimSpace(m.Params.Name))
		}
	}
	return out
}
