package model

import (
	"context"
	"time"
)

// OAuthClient is a client of lokal's authorization server: one known by its Client ID
// Metadata Document (ClientID is the document's https URL, cached from FetchedAt) or one
// that registered itself (RFC 7591, Registered).
type OAuthClient struct {
	ClientID     string
	Name         string
	RedirectURIs []string
	LogoURI      string
	ClientURI    string
	Registered   bool
	FetchedAt    time.Time
	CreatedAt    time.Time
}

// OAuthCode is an authorization code as stored: its keyed hash and everything it is bound
// to. GrantID is set once the code was exchanged, so that a replay can end that grant.
type OAuthCode struct {
	Hash        string
	ClientID    string
	RedirectURI string
	Challenge   string // PKCE S256 code_challenge
	Resource    string
	Scope       string
	UserID      string
	WorkspaceID string
	ProjectID   string
	ReadOnly    bool
	ExpiresAt   time.Time
	UsedAt      *time.Time
	GrantID     string
}

// OAuthGrant is a person's consent to a client: its tokens act as that person's personal
// token for ProjectID (or the workspace when empty), read-only when ReadOnly.
type OAuthGrant struct {
	ID          string
	ClientID    string
	UserID      string
	WorkspaceID string
	ProjectID   string
	Scope       string
	Resource    string
	RedirectURI string // the one its first code went to, shown with the grant
	ReadOnly    bool
	CreatedAt   time.Time
	RevokedAt   *time.Time
	// Read with the grant: the client's name and the last use of any of its access tokens.
	ClientName string
	LastUsedAt *time.Time
}

// OAuthRefresh is a refresh token as stored. A token is used once: its successor is
// issued and UsedAt set; a used token presented again ends the grant.
type OAuthRefresh struct {
	ID        string
	Hash      string
	GrantID   string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// OAuthTx holds the authorization server's clients, codes, grants and refresh tokens; the
// access tokens are rows of the tokens table (AuthTx). Errors: CodeNotFound for a missing
// row.
type OAuthTx interface {
	OAuthClient(ctx context.Context, clientID string) (OAuthClient, error)
	// PutOAuthClient stores c, replacing what was stored under its ClientID.
	PutOAuthClient(ctx context.Context, c OAuthClient) error
	CreateOAuthCode(ctx context.Context, c OAuthCode) error
	// UseOAuthCode marks the code used at at and returns it as it was before: a UsedAt
	// already set means this was a replay and nothing was changed.
	UseOAuthCode(ctx context.Context, hash string, at time.Time) (OAuthCode, error)
	SetOAuthCodeGrant(ctx context.Context, hash, grantID string) error
	CreateOAuthGrant(ctx context.Context, g OAuthGrant) error
	// OAuthGrant returns a grant, revoked ones too.
	OAuthGrant(ctx context.Context, id string) (OAuthGrant, error)
	// OAuthGrants returns the grants of a user that are not revoked, newest first.
	OAuthGrants(ctx context.Context, userID string) ([]OAuthGrant, error)
	// RevokeOAuthGrant revokes the grant, its access tokens and its refresh tokens.
	RevokeOAuthGrant(ctx context.Context, id string, at time.Time) error
	CreateOAuthRefresh(ctx context.Context, r OAuthRefresh) error
	// OAuthRefreshByHash returns a refresh token of a grant not revoked, used ones too.
	OAuthRefreshByHash(ctx context.Context, hash string) (OAuthRefresh, error)
	// UseOAuthRefresh marks the token used at at; false when it was used already.
	UseOAuthRefresh(ctx context.Context, id string, at time.Time) (bool, error)
	// PurgeOAuth deletes codes, refresh tokens and OAuth access tokens that expired
	// before before: they answer nothing any more.
	PurgeOAuth(ctx context.Context, before time.Time) error
}
