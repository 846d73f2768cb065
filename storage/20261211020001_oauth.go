package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerOAuth(m *migrate.Migrations) { m.MustRegister(migrateOAuth, noDown) }

type oauthClientV1 struct {
	bun.BaseModel `bun:"table:oauth_clients"`
	ClientID      string    `bun:"client_id,pk"`
	Name          string    `bun:"name,notnull"`
	RedirectURIs  string    `bun:"redirect_uris,notnull"` // a JSON array
	LogoURI       string    `bun:"logo_uri,notnull"`
	ClientURI     string    `bun:"client_uri,notnull"`
	Registered    bool      `bun:"registered,notnull"`
	FetchedAt     time.Time `bun:"fetched_at,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type oauthCodeV1 struct {
	bun.BaseModel `bun:"table:oauth_codes"`
	Hash          string     `bun:"hash,pk"`
	ClientID      string     `bun:"client_id,notnull"`
	RedirectURI   string     `bun:"redirect_uri,notnull"`
	Challenge     string     `bun:"challenge,notnull"`
	Resource      string     `bun:"resource,notnull"`
	Scope         string     `bun:"scope,notnull"`
	UserID        string     `bun:"user_id,notnull,type:varchar(36)"`
	WorkspaceID   string     `bun:"workspace_id,notnull,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull"`
	ReadOnly      bool       `bun:"read_only,notnull"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	UsedAt        *time.Time `bun:"used_at"`
	GrantID       string     `bun:"grant_id,notnull"`
}

type oauthGrantV1 struct {
	bun.BaseModel `bun:"table:oauth_grants"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	ClientID      string     `bun:"client_id,notnull"`
	UserID        string     `bun:"user_id,notnull,type:varchar(36)"`
	WorkspaceID   string     `bun:"workspace_id,notnull,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull"`
	Scope         string     `bun:"scope,notnull"`
	Resource      string     `bun:"resource,notnull"`
	RedirectURI   string     `bun:"redirect_uri,notnull"`
	ReadOnly      bool       `bun:"read_only,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	RevokedAt     *time.Time `bun:"revoked_at"`
}

type oauthRefreshV1 struct {
	bun.BaseModel `bun:"table:oauth_refresh_tokens"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	Hash          string     `bun:"hash,notnull,unique"`
	GrantID       string     `bun:"grant_id,notnull,type:varchar(36)"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	UsedAt        *time.Time `bun:"used_at"`
}

// migrateOAuth adds lokal's OAuth authorization server (issue 35): the clients (metadata
// documents cached, registered clients), authorization codes and refresh tokens by keyed
// hash, the grants people consent to; access tokens are rows of tokens, which gain their
// grant, audience and end so that Authenticate, its cache and revocation cover them. No
// foreign key to users: a deleted user's grants go with the user (DeleteUser).
func migrateOAuth(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		toGrants := []string{`("grant_id") REFERENCES "oauth_grants" ("id")`}
		if err := createTables(ctx, tx, []table{
			{(*oauthClientV1)(nil), nil},
			{(*oauthCodeV1)(nil), nil},
			{(*oauthGrantV1)(nil), nil},
			{(*oauthRefreshV1)(nil), toGrants},
		}); err != nil {
			return err
		}
		ts := "TIMESTAMP"
		if db.Dialect().Name() == dialect.PG {
			ts = "TIMESTAMPTZ"
		}
		if err := addColumns(ctx, tx, []column{
			{"tokens", "grant_id", "VARCHAR NOT NULL DEFAULT ''"},
			{"tokens", "audience", "VARCHAR NOT NULL DEFAULT ''"},
			{"tokens", "expires_at", ts},
		}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{
			{"tokens", "tokens_grant", false, []string{"grant_id"}},
			{"oauth_grants", "oauth_grants_user", false, []string{"user_id"}},
			{"oauth_refresh_tokens", "oauth_refresh_grant", false, []string{"grant_id"}},
		})
	})
}
