package tools

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"regexp"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// The client's side of the authorization server: the token endpoint (a code with its
// PKCE verifier, or a refresh token, rotated on every use) and revocation (RFC 7009).

// TokenRequest is a token request's form.
type TokenRequest struct {
	GrantType, ClientID             string
	Code, RedirectURI, CodeVerifier string // authorization_code
	RefreshToken, Scope             string // refresh_token
	Resource                        string // RFC 8707; must be the grant's when given
}

// TokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// verifierRE is a PKCE code_verifier (RFC 7636 §4.1).
var verifierRE = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// invalidGrant is every refusal of a code or refresh token: the client learns no more.
func invalidGrant(desc string) *OAuthError { return oauthErr("invalid_grant", desc) }

// OAuthToken answers the token endpoint.
func (c *Catalog) OAuthToken(ctx context.Context, req TokenRequest) (TokenResponse, error) {
	if err := c.gate(ctx, model.OpOAuthToken, on{}); err != nil {
		return TokenResponse{}, err
	}
	if req.ClientID == "" {
		return TokenResponse{}, &OAuthError{Code: "invalid_client", Description: "client_id is required", Status: 401}
	}
	switch req.GrantType {
	case "authorization_code":
		return c.exchangeCode(ctx, req)
	case "refresh_token":
		return c.refresh(ctx, req)
	case "":
		return TokenResponse{}, oauthErr("invalid_request", "grant_type is required")
	}
	return TokenResponse{}, oauthErr("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
}

func (c *Catalog) exchangeCode(ctx context.Context, req TokenRequest) (TokenResponse, error) {
	if req.Code == "" {
		return TokenResponse{}, oauthErr("invalid_request", "code is required")
	}
	if !strings.HasPrefix(req.Code, PrefixOAuthCode) || len(req.Code) > 100 {
		return TokenResponse{}, invalidGrant("unknown code")
	}
	hash, err := c.hashToken(ctx, req.Code)
	if err != nil {
		return TokenResponse{}, err
	}
	now := c.opts.Now()
	// The code is spent by this first transaction, whatever follows: a wrong verifier
	// cannot be retried, and a replay is seen as one.
	var code model.OAuthCode
	err = c.bookkeep(ctx, model.OpOAuthToken, func(tx model.Tx) error {
		var err error
		code, err = tx.UseOAuthCode(ctx, hash, now)
		return err
	})
	if model.IsNotFound(err) {
		return TokenResponse{}, invalidGrant("unknown code")
	}
	if err != nil {
		return TokenResponse{}, err
	}
	if code.UsedAt != nil {
		// A replayed code: whoever holds it may have stolen it, so the grant it made ends
		// (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3).
		if code.GrantID != "" {
			if err := c.revokeGrant(ctx, code.GrantID); err != nil {
				return TokenResponse{}, err
			}
		}
		return TokenResponse{}, invalidGrant("the code was used already; the tokens it gave are revoked")
	}
	switch {
	case !now.Before(code.ExpiresAt):
		return TokenResponse{}, invalidGrant("the code expired")
	case code.ClientID != req.ClientID:
		return TokenResponse{}, invalidGrant("the code was issued to another client")
	case req.CodeVerifier == "":
		return TokenResponse{}, invalidGrant("code_verifier is required (PKCE)")
	case code.RedirectURI != req.RedirectURI:
		return TokenResponse{}, invalidGrant("redirect_uri is not the authorization request's")
	case !verifierRE.MatchString(req.CodeVerifier):
		return TokenResponse{}, invalidGrant("code_verifier is not a PKCE verifier")
	case !pkceMatches(req.CodeVerifier, code.Challenge):
		return TokenResponse{}, invalidGrant("code_verifier does not match the code_challenge")
	case req.Resource != "" && req.Resource != code.Resource:
		return TokenResponse{}, oauthErr("invalid_target", "resource is not the one the person consented to")
	}
	grant := model.OAuthGrant{ID: newID(), ClientID: code.ClientID, UserID: code.UserID, WorkspaceID: code.WorkspaceID,
		ProjectID: code.ProjectID, Scope: code.Scope, Resource: code.Resource, RedirectURI: code.RedirectURI, ReadOnly: code.ReadOnly,
		CreatedAt: now}
	var out TokenResponse
	err = c.bookkeep(ctx, model.OpOAuthToken, func(tx model.Tx) error {
		if err := c.grantUsable(ctx, tx, grant); err != nil {
			return err
		}
		if err := tx.CreateOAuthGrant(ctx, grant); err != nil {
			return err
		}
		if err := tx.SetOAuthCodeGrant(ctx, hash, grant.ID); err != nil {
			return err
		}
		var err error
		out, err = c.issue(ctx, tx, grant, grant.Scope, now)
		return err
	})
	return out, err
}

// pkceMatches checks S256: BASE64URL(SHA256(verifier)) == challenge.
func pkceMatches(verifier, challenge string) bool {
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// grantUsable refuses a grant whose person may no longer act: deleted or disabled.
func (c *Catalog) grantUsable(ctx context.Context, tx model.Tx, g model.OAuthGrant) error {
	u, err := tx.User(ctx, g.UserID)
	if model.IsNotFound(err) || (err == nil && (u.DisabledAt != nil || u.WorkspaceID != g.WorkspaceID)) {
		return invalidGrant("the person who consented can no longer sign in")
	}
	return err
}

func (c *Catalog) refresh(ctx context.Context, req TokenRequest) (TokenResponse, error) {
	if req.RefreshToken == "" {
		return TokenResponse{}, oauthErr("invalid_request", "refresh_token is required")
	}
	if !strings.HasPrefix(req.RefreshToken, PrefixOAuthRefresh) || len(req.RefreshToken) > 100 {
		return TokenResponse{}, invalidGrant("unknown refresh token")
	}
	hash, err := c.hashToken(ctx, req.RefreshToken)
	if err != nil {
		return TokenResponse{}, err
	}
	now := c.opts.Now()
	var out TokenResponse
	var reused string
	err = c.bookkeep(ctx, model.OpOAuthToken, func(tx model.Tx) error {
		rt, err := tx.OAuthRefreshByHash(ctx, hash)
		if model.IsNotFound(err) {
			return invalidGrant("unknown refresh token")
		}
		if err != nil {
			return err
		}
		g, err := tx.OAuthGrant(ctx, rt.GrantID)
		if err != nil {
			return err
		}
		if g.ClientID != req.ClientID {
			return invalidGrant("the refresh token was issued to another client")
		}
		if !now.Before(rt.ExpiresAt) {
			return invalidGrant("the refresh token expired")
		}
		fresh, err := tx.UseOAuthRefresh(ctx, rt.ID, now)
		if err != nil {
			return err
		}
		if !fresh || rt.UsedAt != nil {
			// Rotation's theft detection: a used refresh token is back, so either its
			// holder or the one who rotated it is not the client.
			reused = g.ID
			return nil
		}
		if req.Resource != "" && req.Resource != g.Resource {
			return oauthErr("invalid_target", "resource is not the grant's")
		}
		scope := g.Scope
		if req.Scope != "" {
			asked, err := parseScopes(req.Scope)
			if err != nil {
				return oauthErr("invalid_scope", err.(*OAuthError).Description)
			}
			if contains(asked, ScopeWrite) && g.Scope != ScopesAll {
				return oauthErr("invalid_scope", "a refresh cannot widen the grant's scope")
			}
			scope = grantedScope(asked, g.ReadOnly)
		}
		if err := c.grantUsable(ctx, tx, g); err != nil {
			return err
		}
		out, err = c.issue(ctx, tx, g, scope, now)
		return err
	})
	if err != nil {
		return TokenResponse{}, err
	}
	if reused != "" {
		if err := c.revokeGrant(ctx, reused); err != nil {
			return TokenResponse{}, err
		}
		return TokenResponse{}, invalidGrant("the refresh token was used already; the grant is revoked")
	}
	return out, nil
}

// issue mints an access token (a row of tokens: the person's personal token for the
// grant's project or workspace, read-only unless scope has write) and the next refresh
// token of g, in tx. Expired rows of the grant's kind are purged on the way.
func (c *Catalog) issue(ctx context.Context, tx model.Tx, g model.OAuthGrant, scope string, now time.Time) (TokenResponse, error) {
	if err := tx.PurgeOAuth(ctx, now.Add(-24*time.Hour)); err != nil {
		return TokenResponse{}, err
	}
	access, refresh := newSecret(PrefixOAuthAccess), newSecret(PrefixOAuthRefresh)
	ah, err := c.hashToken(ctx, access)
	if err != nil {
		return TokenResponse{}, err
	}
	rh, err := c.hashToken(ctx, refresh)
	if err != nil {
		return TokenResponse{}, err
	}
	kind := model.KindWorkspace
	if g.ProjectID != "" {
		kind = model.KindPersonal
	}
	exp := now.Add(OAuthAccessLifetime).UTC()
	if err := tx.CreateToken(ctx, model.TokenRecord{ID: newID(), Kind: kind, Hash: ah, UserID: g.UserID, WorkspaceID: g.WorkspaceID,
		ProjectID: g.ProjectID, ReadOnly: g.ReadOnly || scope != ScopesAll, Prefix: access[:len(PrefixOAuthAccess)+tokenPrefixLen],
		GrantID: g.ID, Audience: g.Resource, ExpiresAt: &exp}); err != nil {
		return TokenResponse{}, err
	}
	if err := tx.CreateOAuthRefresh(ctx, model.OAuthRefresh{ID: newID(), Hash: rh, GrantID: g.ID, CreatedAt: now,
		ExpiresAt: now.Add(OAuthRefreshLifetime)}); err != nil {
		return TokenResponse{}, err
	}
	return TokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(OAuthAccessLifetime / time.Second),
		RefreshToken: refresh, Scope: scope}, nil
}

// revokeGrant ends a grant whoever asked (the protocol's own revocations).
func (c *Catalog) revokeGrant(ctx context.Context, id string) error {
	if err := c.bookkeep(ctx, model.OpOAuthRevoke, func(tx model.Tx) error { return tx.RevokeOAuthGrant(ctx, id, c.opts.Now()) }); err != nil {
		return err
	}
	c.forgetGrant(id)
	return nil
}

// OAuthRevoke answers the revocation endpoint (RFC 7009): a refresh token ends its grant,
// an access token ends itself. Unknown tokens, and tokens of another client than a
// client_id given, change nothing and answer the same.
func (c *Catalog) OAuthRevoke(ctx context.Context, token, clientID string) error {
	if err := c.gate(ctx, model.OpOAuthRevoke, on{}); err != nil {
		return err
	}
	if token == "" {
		return oauthErr("invalid_request", "token is required")
	}
	if len(token) > 100 {
		return nil
	}
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return err
	}
	switch {
	case strings.HasPrefix(token, PrefixOAuthRefresh):
		var grantID string
		err := c.store.View(ctx, func(tx model.Tx) error {
			rt, err := tx.OAuthRefreshByHash(ctx, hash)
			if err != nil {
				return err
			}
			g, err := tx.OAuthGrant(ctx, rt.GrantID)
			if err == nil && (clientID == "" || clientID == g.ClientID) {
				grantID = g.ID
			}
			return err
		})
		if model.IsNotFound(err) || grantID == "" {
			return nil
		}
		if err != nil {
			return err
		}
		return c.revokeGrant(ctx, grantID)
	case strings.HasPrefix(token, PrefixOAuthAccess):
		var id string
		err := c.bookkeep(ctx, model.OpOAuthRevoke, func(tx model.Tx) error {
			rec, err := tx.TokenByHash(ctx, hash)
			if err != nil || rec.GrantID == "" {
				return err
			}
			g, err := tx.OAuthGrant(ctx, rec.GrantID)
			if err != nil || (clientID != "" && clientID != g.ClientID) {
				return err
			}
			id = rec.ID
			return tx.RevokeToken(ctx, rec.ID, c.opts.Now().UTC())
		})
		if model.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if id != "" {
			c.forgetPrincipals(func(p model.Principal) bool { return p.TokenID == id })
		}
	}
	return nil
}
