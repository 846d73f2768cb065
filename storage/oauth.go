package storage

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// The authorization server's rows (migration 20261211020001_oauth.go).

type oauthClientRow struct {
	bun.BaseModel `bun:"table:oauth_clients"`
	ClientID      string    `bun:"client_id,pk"`
	Name          string    `bun:"name,notnull"`
	RedirectURIs  string    `bun:"redirect_uris,notnull"`
	LogoURI       string    `bun:"logo_uri,notnull"`
	ClientURI     string    `bun:"client_uri,notnull"`
	Registered    bool      `bun:"registered,notnull"`
	FetchedAt     time.Time `bun:"fetched_at,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type oauthCodeRow struct {
	bun.BaseModel `bun:"table:oauth_codes"`
	Hash          string     `bun:"hash,pk"`
	ClientID      string     `bun:"client_id,notnull"`
	RedirectURI   string     `bun:"redirect_uri,notnull"`
	Challenge     string     `bun:"challenge,notnull"`
	Resource      string     `bun:"resource,notnull"`
	Scope         string     `bun:"scope,notnull"`
	UserID        string     `bun:"user_id,notnull"`
	WorkspaceID   string     `bun:"workspace_id,notnull"`
	ProjectID     string     `bun:"project_id,notnull"`
	ReadOnly      bool       `bun:"read_only,notnull"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	UsedAt        *time.Time `bun:"used_at"`
	GrantID       string     `bun:"grant_id,notnull"`
}

type oauthGrantRow struct {
	bun.BaseModel `bun:"table:oauth_grants,alias:g"`
	ID            string     `bun:"id,pk"`
	ClientID      string     `bun:"client_id,notnull"`
	UserID        string     `bun:"user_id,notnull"`
	WorkspaceID   string     `bun:"workspace_id,notnull"`
	ProjectID     string     `bun:"project_id,notnull"`
	Scope         string     `bun:"scope,notnull"`
	Resource      string     `bun:"resource,notnull"`
	RedirectURI   string     `bun:"redirect_uri,notnull"`
	ReadOnly      bool       `bun:"read_only,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	RevokedAt     *time.Time `bun:"revoked_at"`
}

type oauthRefreshRow struct {
	bun.BaseModel `bun:"table:oauth_refresh_tokens"`
	ID            string     `bun:"id,pk"`
	Hash          string     `bun:"hash,notnull,unique"`
	GrantID       string     `bun:"grant_id,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	UsedAt        *time.Time `bun:"used_at"`
}

func (t *tx) OAuthClient(ctx context.Context, clientID string) (model.OAuthClient, error) {
	var r oauthClientRow
	if err := t.tx.NewSelect().Model(&r).Where("client_id = ?", clientID).Scan(ctx); err != nil {
		return model.OAuthClient{}, notFound(err, "client")
	}
	var uris []string
	if err := json.Unmarshal([]byte(r.RedirectURIs), &uris); err != nil {
		return model.OAuthClient{}, err
	}
	return model.OAuthClient{ClientID: r.ClientID, Name: r.Name, RedirectURIs: uris, LogoURI: r.LogoURI, ClientURI: r.ClientURI,
		Registered: r.Registered, FetchedAt: r.FetchedAt, CreatedAt: r.CreatedAt}, nil
}

func (t *tx) PutOAuthClient(ctx context.Context, c model.OAuthClient) error {
	uris, err := json.Marshal(c.RedirectURIs)
	if err != nil {
		return err
	}
	created := c.CreatedAt
	if created.IsZero() {
		created = now()
	}
	_, err = t.tx.NewInsert().Model(&oauthClientRow{ClientID: c.ClientID, Name: c.Name, RedirectURIs: string(uris), LogoURI: c.LogoURI,
		ClientURI: c.ClientURI, Registered: c.Registered, FetchedAt: c.FetchedAt.UTC(), CreatedAt: created.UTC()}).
		On("CONFLICT (client_id) DO UPDATE").
		Set("name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris, logo_uri = EXCLUDED.logo_uri, client_uri = EXCLUDED.client_uri, registered = EXCLUDED.registered, fetched_at = EXCLUDED.fetched_at").
		Exec(ctx)
	return mapError(err)
}

func (t *tx) CreateOAuthCode(ctx context.Context, c model.OAuthCode) error {
	_, err := t.tx.NewInsert().Model(&oauthCodeRow{Hash: c.Hash, ClientID: c.ClientID, RedirectURI: c.RedirectURI, Challenge: c.Challenge,
		Resource: c.Resource, Scope: c.Scope, UserID: c.UserID, WorkspaceID: c.WorkspaceID, ProjectID: c.ProjectID, ReadOnly: c.ReadOnly,
		ExpiresAt: c.ExpiresAt.UTC()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) UseOAuthCode(ctx context.Context, hash string, at time.Time) (model.OAuthCode, error) {
	var r oauthCodeRow
	// The update first: on PostgreSQL it locks the row, so two exchanges of one code
	// cannot both see it unused.
	res, err := t.tx.NewUpdate().Model((*oauthCodeRow)(nil)).Set("used_at = ?", at.UTC()).
		Where("hash = ?", hash).Where("used_at IS NULL").Exec(ctx)
	if err != nil {
		return model.OAuthCode{}, mapError(err)
	}
	n, _ := res.RowsAffected()
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).Scan(ctx); err != nil {
		return model.OAuthCode{}, notFound(err, "code")
	}
	if n == 1 {
		r.UsedAt = nil // as it was before this call
	}
	return model.OAuthCode{Hash: r.Hash, ClientID: r.ClientID, RedirectURI: r.RedirectURI, Challenge: r.Challenge, Resource: r.Resource,
		Scope: r.Scope, UserID: r.UserID, WorkspaceID: r.WorkspaceID, ProjectID: r.ProjectID, ReadOnly: r.ReadOnly,
		ExpiresAt: r.ExpiresAt, UsedAt: r.UsedAt, GrantID: r.GrantID}, nil
}

func (t *tx) SetOAuthCodeGrant(ctx context.Context, hash, grantID string) error {
	_, err := t.tx.NewUpdate().Model((*oauthCodeRow)(nil)).Set("grant_id = ?", grantID).Where("hash = ?", hash).Exec(ctx)
	return mapError(err)
}

func (t *tx) CreateOAuthGrant(ctx context.Context, g model.OAuthGrant) error {
	_, err := t.tx.NewInsert().Model(&oauthGrantRow{ID: g.ID, ClientID: g.ClientID, UserID: g.UserID, WorkspaceID: g.WorkspaceID,
		ProjectID: g.ProjectID, Scope: g.Scope, Resource: g.Resource, RedirectURI: g.RedirectURI, ReadOnly: g.ReadOnly, CreatedAt: g.CreatedAt.UTC()}).Exec(ctx)
	return mapError(err)
}

// grantRead is a grant with its client's name.
type grantRead struct {
	ID          string     `bun:"id"`
	ClientID    string     `bun:"client_id"`
	UserID      string     `bun:"user_id"`
	WorkspaceID string     `bun:"workspace_id"`
	ProjectID   string     `bun:"project_id"`
	Scope       string     `bun:"scope"`
	Resource    string     `bun:"resource"`
	RedirectURI string     `bun:"redirect_uri"`
	ReadOnly    bool       `bun:"read_only"`
	CreatedAt   time.Time  `bun:"created_at"`
	RevokedAt   *time.Time `bun:"revoked_at"`
	ClientName  *string    `bun:"client_name"`
}

func (t *tx) grants(ctx context.Context, where func(*bun.SelectQuery) *bun.SelectQuery) ([]model.OAuthGrant, error) {
	var rows []grantRead
	q := t.tx.NewSelect().Model((*oauthGrantRow)(nil)).ColumnExpr("g.*").ColumnExpr("c.name AS client_name").
		Join("LEFT JOIN oauth_clients AS c ON c.client_id = g.client_id")
	if err := where(q).OrderExpr("g.created_at DESC, g.id").Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.OAuthGrant, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	// Last use: the newest last_used_at of the grant's access tokens (noteTokenUse).
	var uses []struct {
		GrantID    string    `bun:"grant_id"`
		LastUsedAt time.Time `bun:"last_used_at"`
	}
	if err := t.tx.NewSelect().Model((*tokenRow)(nil)).Column("grant_id", "last_used_at").Where("grant_id IN (?)", bun.In(ids)).
		Where("last_used_at IS NOT NULL").Scan(ctx, &uses); err != nil {
		return nil, mapError(err)
	}
	last := map[string]time.Time{}
	for _, u := range uses {
		if u.LastUsedAt.After(last[u.GrantID]) {
			last[u.GrantID] = u.LastUsedAt
		}
	}
	for i, r := range rows {
		g := model.OAuthGrant{ID: r.ID, ClientID: r.ClientID, UserID: r.UserID, WorkspaceID: r.WorkspaceID, ProjectID: r.ProjectID,
			Scope: r.Scope, Resource: r.Resource, RedirectURI: r.RedirectURI, ReadOnly: r.ReadOnly, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt}
		if r.ClientName != nil {
			g.ClientName = *r.ClientName
		}
		if l, ok := last[r.ID]; ok {
			g.LastUsedAt = &l
		}
		out[i] = g
	}
	return out, nil
}

func (t *tx) OAuthGrant(ctx context.Context, id string) (model.OAuthGrant, error) {
	gs, err := t.grants(ctx, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("g.id = ?", id) })
	if err != nil {
		return model.OAuthGrant{}, err
	}
	if len(gs) == 0 {
		return model.OAuthGrant{}, model.Errorf(model.CodeNotFound, "grant not found")
	}
	return gs[0], nil
}

func (t *tx) OAuthGrants(ctx context.Context, userID string) ([]model.OAuthGrant, error) {
	return t.grants(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("g.user_id = ?", userID).Where("g.revoked_at IS NULL")
	})
}

func (t *tx) RevokeOAuthGrant(ctx context.Context, id string, at time.Time) error {
	at = at.UTC()
	if _, err := t.tx.NewUpdate().Model((*oauthGrantRow)(nil)).Set("revoked_at = ?", at).Where("id = ?", id).
		Where("revoked_at IS NULL").Exec(ctx); err != nil {
		return mapError(err)
	}
	if _, err := t.tx.NewUpdate().Model((*tokenRow)(nil)).Set("revoked_at = ?", at).Where("grant_id = ?", id).
		Where("revoked_at IS NULL").Exec(ctx); err != nil {
		return mapError(err)
	}
	_, err := t.tx.NewDelete().Model((*oauthRefreshRow)(nil)).Where("grant_id = ?", id).Exec(ctx)
	return mapError(err)
}

func (t *tx) CreateOAuthRefresh(ctx context.Context, r model.OAuthRefresh) error {
	_, err := t.tx.NewInsert().Model(&oauthRefreshRow{ID: r.ID, Hash: r.Hash, GrantID: r.GrantID, CreatedAt: r.CreatedAt.UTC(),
		ExpiresAt: r.ExpiresAt.UTC()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) OAuthRefreshByHash(ctx context.Context, hash string) (model.OAuthRefresh, error) {
	var r oauthRefreshRow
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).
		Where("EXISTS (SELECT 1 FROM oauth_grants AS g WHERE g.id = oauth_refresh_row.grant_id AND g.revoked_at IS NULL)").
		Scan(ctx); err != nil {
		return model.OAuthRefresh{}, notFound(err, "refresh token")
	}
	return model.OAuthRefresh{ID: r.ID, Hash: r.Hash, GrantID: r.GrantID, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt, UsedAt: r.UsedAt}, nil
}

func (t *tx) UseOAuthRefresh(ctx context.Context, id string, at time.Time) (bool, error) {
	res, err := t.tx.NewUpdate().Model((*oauthRefreshRow)(nil)).Set("used_at = ?", at.UTC()).Where("id = ?", id).
		Where("used_at IS NULL").Exec(ctx)
	if err != nil {
		return false, mapError(err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (t *tx) PurgeOAuth(ctx context.Context, before time.Time) error {
	before = before.UTC()
	if _, err := t.tx.NewDelete().Model((*oauthCodeRow)(nil)).Where("expires_at < ?", before).Exec(ctx); err != nil {
		return mapError(err)
	}
	if _, err := t.tx.NewDelete().Model((*oauthRefreshRow)(nil)).Where("expires_at < ?", before).Exec(ctx); err != nil {
		return mapError(err)
	}
	_, err := t.tx.NewDelete().Model((*tokenRow)(nil)).Where("grant_id <> ''").Where("expires_at < ?", before).Exec(ctx)
	return mapError(err)
}

// deleteUserOAuth deletes a user's grants, their refresh tokens and codes (DeleteUser).
func (t *tx) deleteUserOAuth(ctx context.Context, userID string) error {
	if _, err := t.tx.ExecContext(ctx, "DELETE FROM oauth_refresh_tokens WHERE grant_id IN (SELECT id FROM oauth_grants WHERE user_id = ?)", userID); err != nil {
		return mapError(err)
	}
	for _, table := range []string{"oauth_grants", "oauth_codes"} {
		if _, err := t.tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE user_id = ?", userID); err != nil {
			return mapError(err)
		}
	}
	return nil
}
