package tools

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// lokal is the OAuth 2.1 authorization server of its own MCP endpoints (issue 35): a
// person signed in to the editor consents to a client, and the client trades the code for
// short-lived access tokens that act as that person's personal token. This file is what
// the consent page and the Connect page call; oauth_token.go is the client's side,
// oauth_client.go who the clients are.

// OAuth scopes: write implies read.
const (
	ScopeRead  = "lokal:read"
	ScopeWrite = "lokal:write"
	// ScopesAll is what a request without scope asks, and the challenge's scope.
	ScopesAll = ScopeRead + " " + ScopeWrite
)

// Lifetimes of what the authorization server issues.
const (
	OAuthCodeLifetime    = 60 * time.Second
	OAuthAccessLifetime  = time.Hour
	OAuthRefreshLifetime = 30 * 24 * time.Hour
)

// Prefixes of OAuth access and refresh tokens and of codes; all are stored as keyed hashes.
const (
	PrefixOAuthAccess  = "lka_"
	PrefixOAuthRefresh = "lkr_"
	PrefixOAuthCode    = "lkc_"
)

// AuthorizeRequest is an authorization request's parameters, as the client sent them.
type AuthorizeRequest struct {
	ResponseType, ClientID, RedirectURI, State, Scope, Resource string
	CodeChallenge, CodeChallengeMethod                          string
}

// OAuthClient is a client as the consent page shows it.
type OAuthClient struct {
	ClientID, Name, RedirectHost, LogoURI, ClientURI string
	Registered                                       bool // came by dynamic registration, not a metadata document
}

// AuthorizeCheck is what the consent page shows.
type AuthorizeCheck struct {
	Client    OAuthClient
	Scopes    []string // asked for
	Resource  string
	ProjectID string // the project of a project resource; "" for the workspace endpoint
}

// OAuthError is a refusal in OAuth's terms: Code is the RFC's error code; Redirect tells
// whether it may go to the client's redirect_uri (false: show an error page). Status is
// the HTTP status of the token, revocation and registration endpoints.
type OAuthError struct {
	Code, Description string
	Redirect          bool
	Status            int
}

func (e *OAuthError) Error() string { return e.Code + ": " + e.Description }

func oauthErr(code, desc string) *OAuthError {
	return &OAuthError{Code: code, Description: desc, Status: 400}
}

// redirectErr is an authorization error the client's redirect_uri is told.
func redirectErr(code, desc string) *OAuthError {
	return &OAuthError{Code: code, Description: desc, Redirect: true, Status: 400}
}

// Consent is the person's choice: the project (or "" for the whole workspace, only at the
// workspace endpoint) and read-only or read-write.
type Consent struct {
	ProjectID string
	ReadOnly  bool
}

// GrantListing is one of a person's grants on the Connect page.
type GrantListing struct {
	ID, ClientID, ClientName, RedirectHost, Scope, Resource, ProjectID, ProjectName string
	ReadOnly                                                                        bool
	CreatedAt                                                                       time.Time
	LastUsedAt                                                                      *time.Time
}

// MCPResource is the workspace MCP endpoint's URL, the resource of a request without one.
func (c *Catalog) MCPResource(projectID string) string {
	if projectID == "" {
		return c.issuer() + "/api/mcp"
	}
	return c.issuer() + "/api/" + url.PathEscape(projectID) + "/mcp"
}

// issuer is the authorization server's identifier: the base URL without a trailing slash.
func (c *Catalog) issuer() string { return strings.TrimRight(c.opts.BaseURL, "/") }

// Issuer is the authorization server's identifier (RFC 8414), the catalogue's base URL.
func (c *Catalog) Issuer() string { return c.issuer() }

// ResourceProject reads a resource URL: the project of a project endpoint, "" for the
// workspace endpoint; ok is false for anything else.
func (c *Catalog) ResourceProject(resource string) (projectID string, ok bool) {
	base := c.issuer()
	rest, found := strings.CutPrefix(resource, base+"/api/")
	if !found || base == "" {
		return "", false
	}
	if rest == "mcp" {
		return "", true
	}
	id, found := strings.CutSuffix(rest, "/mcp")
	if !found || !validID(id) || id != strings.ToLower(id) {
		return "", false
	}
	return id, true
}

// challengeRE is a PKCE S256 challenge: base64url of 32 bytes, no padding (RFC 7636 §4.2).
var challengeRE = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// CheckAuthorize validates an authorization request: the client and its redirect_uri
// first (a failure there is never redirected), then the rest (redirected).
func (c *Catalog) CheckAuthorize(ctx context.Context, req AuthorizeRequest) (AuthorizeCheck, error) {
	if req.ClientID == "" {
		return AuthorizeCheck{}, oauthErr("invalid_request", "client_id is missing")
	}
	cl, err := c.oauthClient(ctx, req.ClientID)
	if err != nil {
		return AuthorizeCheck{}, err
	}
	if req.RedirectURI == "" {
		return AuthorizeCheck{}, oauthErr("invalid_request", "redirect_uri is missing")
	}
	if !c.redirectRegistered(cl, req.RedirectURI) {
		return AuthorizeCheck{}, oauthErr("invalid_request", "redirect_uri is not one of the client's")
	}
	if err := c.checkRedirectURI(req.RedirectURI); err != nil {
		return AuthorizeCheck{}, oauthErr("invalid_request", err.Error())
	}
	ru, _ := url.Parse(req.RedirectURI)
	check := AuthorizeCheck{Client: OAuthClient{ClientID: cl.ClientID, Name: cl.Name, RedirectHost: ru.Host, LogoURI: cl.LogoURI,
		ClientURI: cl.ClientURI, Registered: cl.Registered}}
	if check.Client.Name == "" {
		check.Client.Name = clientHost(cl.ClientID)
	}
	switch {
	case req.ResponseType != "code":
		return AuthorizeCheck{}, redirectErr("unsupported_response_type", "response_type must be code")
	case req.CodeChallenge == "":
		return AuthorizeCheck{}, redirectErr("invalid_request", "code_challenge is required (PKCE)")
	case req.CodeChallengeMethod != "S256":
		return AuthorizeCheck{}, redirectErr("invalid_request", "code_challenge_method must be S256")
	case !challengeRE.MatchString(req.CodeChallenge):
		return AuthorizeCheck{}, redirectErr("invalid_request", "code_challenge is not an S256 challenge")
	case len(req.State) > 1024:
		return AuthorizeCheck{}, redirectErr("invalid_request", "state is too long")
	}
	scopes, err := parseScopes(req.Scope)
	if err != nil {
		return AuthorizeCheck{}, err
	}
	check.Scopes = scopes
	check.Resource = req.Resource
	if check.Resource == "" {
		check.Resource = c.MCPResource("")
	}
	pid, ok := c.ResourceProject(check.Resource)
	if !ok {
		return AuthorizeCheck{}, redirectErr("invalid_target", "resource must be "+c.MCPResource("")+" or a project's MCP endpoint")
	}
	check.ProjectID = pid
	return check, nil
}

// parseScopes reads a scope parameter: empty asks both; anything but lokal's two is
// invalid_scope.
func parseScopes(s string) ([]string, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return []string{ScopeRead, ScopeWrite}, nil
	}
	read, write := false, false
	for _, f := range fields {
		switch f {
		case ScopeRead:
			read = true
		case ScopeWrite:
			write = true
		default:
			return nil, redirectErr("invalid_scope", "unknown scope "+model.Truncate(f, 40)+": lokal offers "+ScopesAll)
		}
	}
	if write {
		return []string{ScopeRead, ScopeWrite}, nil // write implies read
	}
	_ = read
	return []string{ScopeRead}, nil
}

// grantedScope is the scope a grant carries: read-write only when asked and consented.
func grantedScope(asked []string, readOnly bool) string {
	if readOnly || !contains(asked, ScopeWrite) {
		return ScopeRead
	}
	return ScopesAll
}

// ApproveAuthorize records a signed-in person's consent and returns where the browser
// goes next: the client's redirect_uri with a code, the state and the issuer (RFC 9207).
// The grant is made when the code is exchanged.
func (c *Catalog) ApproveAuthorize(ctx context.Context, req AuthorizeRequest, choice Consent) (string, error) {
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, model.OpOAuthAuthorize, on{}); err != nil {
		return "", err
	}
	check, err := c.CheckAuthorize(ctx, req)
	if err != nil {
		return "", err
	}
	switch {
	case check.ProjectID != "" && choice.ProjectID == "":
		choice.ProjectID = check.ProjectID
	case check.ProjectID != "" && choice.ProjectID != check.ProjectID:
		return "", model.Errorf(model.CodeInvalid, "this client asked for project %s's endpoint: the grant is for that project", check.ProjectID)
	}
	if choice.ProjectID != "" {
		// The person must see the project now; what they may do in it is read at each use.
		if err := c.need(ctx, choice.ProjectID, "", model.RightRead); err != nil {
			return "", err
		}
	}
	code := newSecret(PrefixOAuthCode)
	hash, err := c.hashToken(ctx, code)
	if err != nil {
		return "", err
	}
	readOnly := grantedScope(check.Scopes, choice.ReadOnly) == ScopeRead
	rec := model.OAuthCode{Hash: hash, ClientID: check.Client.ClientID, RedirectURI: req.RedirectURI, Challenge: req.CodeChallenge,
		Resource: check.Resource, Scope: grantedScope(check.Scopes, readOnly), UserID: p.UserID, WorkspaceID: p.WorkspaceID,
		ProjectID: choice.ProjectID, ReadOnly: readOnly, ExpiresAt: c.opts.Now().Add(OAuthCodeLifetime)}
	if err := c.bookkeep(ctx, model.OpOAuthAuthorize, func(tx model.Tx) error { return tx.CreateOAuthCode(ctx, rec) }); err != nil {
		return "", err
	}
	return c.authorizeRedirect(req.RedirectURI, url.Values{"code": {code}}, req.State), nil
}

// DenyAuthorize is the person's refusal: the client is told access_denied.
func (c *Catalog) DenyAuthorize(ctx context.Context, req AuthorizeRequest) (string, error) {
	if _, err := c.CheckAuthorize(ctx, req); err != nil {
		return "", err
	}
	return c.AuthorizeErrorRedirect(req, &OAuthError{Code: "access_denied", Description: "the person declined"}), nil
}

// AuthorizeErrorRedirect is where an authorization error with Redirect goes: the
// request's redirect_uri with error, error_description, state and iss. Only for a request
// whose client and redirect_uri CheckAuthorize accepted.
func (c *Catalog) AuthorizeErrorRedirect(req AuthorizeRequest, e *OAuthError) string {
	return c.authorizeRedirect(req.RedirectURI, url.Values{"error": {e.Code}, "error_description": {e.Description}}, req.State)
}

func (c *Catalog) authorizeRedirect(redirectURI string, v url.Values, state string) string {
	u, err := url.Parse(redirectURI)
	if err != nil {
		return redirectURI
	}
	q := u.Query()
	for k, vs := range v {
		q[k] = vs
	}
	if state != "" {
		q.Set("state", state)
	}
	q.Set("iss", c.issuer())
	u.RawQuery = q.Encode()
	return u.String()
}

// ListGrants returns the signed-in person's grants that still stand, newest first.
func (c *Catalog) ListGrants(ctx context.Context) ([]GrantListing, error) {
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, model.OpGrantList, on{}); err != nil {
		return nil, err
	}
	var out []GrantListing
	err := c.store.View(ctx, func(tx model.Tx) error {
		gs, err := tx.OAuthGrants(ctx, p.UserID)
		if err != nil {
			return err
		}
		titles := map[string]string{}
		out = make([]GrantListing, 0, len(gs))
		for _, g := range gs {
			l := GrantListing{ID: g.ID, ClientID: g.ClientID, ClientName: g.ClientName, Scope: g.Scope, Resource: g.Resource,
				ProjectID: g.ProjectID, ReadOnly: g.ReadOnly, CreatedAt: g.CreatedAt.UTC(), LastUsedAt: utc(g.LastUsedAt)}
			if l.ClientName == "" {
				l.ClientName = clientHost(g.ClientID)
			}
			if u, err := url.Parse(g.RedirectURI); err == nil {
				l.RedirectHost = u.Host
			}
			if g.ProjectID != "" {
				t, ok := titles[g.ProjectID]
				if !ok {
					if proj, err := tx.Project(ctx, g.ProjectID); err == nil {
						t = proj.Title
					} else if !model.IsNotFound(err) {
						return err
					}
					titles[g.ProjectID] = t
				}
				l.ProjectName = t
			}
			out = append(out, l)
		}
		return nil
	})
	return out, err
}

// RevokeGrant ends one of the signed-in person's grants: its tokens stop at once here and
// within the auth cache TTL elsewhere. Another's grant answers not found.
func (c *Catalog) RevokeGrant(ctx context.Context, id string) error {
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, model.OpGrantRevoke, on{}); err != nil {
		return err
	}
	notFound := model.Errorf(model.CodeNotFound, "grant %s not found", model.Truncate(id, 40))
	if !validID(id) {
		return notFound
	}
	err := c.bookkeep(ctx, model.OpGrantRevoke, func(tx model.Tx) error {
		g, err := tx.OAuthGrant(ctx, id)
		if model.IsNotFound(err) || (err == nil && (g.UserID != p.UserID || g.RevokedAt != nil)) {
			return notFound
		}
		if err != nil {
			return err
		}
		return tx.RevokeOAuthGrant(ctx, id, c.opts.Now())
	})
	if err != nil {
		return err
	}
	c.forgetGrant(id)
	return nil
}

// forgetGrant stops this process honouring a grant's cached access tokens.
// endGrants revokes, in tx, the user's grants on projectID (every grant of theirs when
// projectID is ""): a person removed from a project or disabled loses the clients they
// connected for good, where their pasted tokens only stop working while it lasts. It
// returns the grants ended, for forgetGrant after the commit.
func endGrants(ctx context.Context, tx model.Tx, userID, projectID string, at time.Time) ([]string, error) {
	gs, err := tx.OAuthGrants(ctx, userID)
	if err != nil {
		return nil, err
	}
	var ended []string
	for _, g := range gs {
		if projectID != "" && g.ProjectID != projectID {
			continue
		}
		if err := tx.RevokeOAuthGrant(ctx, g.ID, at); err != nil {
			return nil, err
		}
		ended = append(ended, g.ID)
	}
	return ended, nil
}

func (c *Catalog) forgetGrant(id string) {
	c.forgetPrincipals(func(p model.Principal) bool { return p.GrantID == id })
}

// clientHost is a client's name when it gave none: its metadata document's host.
func clientHost(clientID string) string {
	if u, err := url.Parse(clientID); err == nil && u.Host != "" {
		return u.Host
	}
	return clientID
}

// oauthProjectGrant reports an OAuth access token of a grant for one project: the person
// chose a project at the workspace endpoint, whose tool calls then reach that project only
// (as a project's personal token, which it is).
func oauthProjectGrant(p model.Principal) bool {
	return p.GrantID != "" && p.Kind == model.KindPersonal
}
