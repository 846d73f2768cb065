package storage

import (
	"context"
	"encoding/hex"

	"github.com/lokal-dev/lokal/tools/model"
)

func (t *tx) TokenKey(ctx context.Context) ([]byte, error) {
	var v string
	if err := t.tx.NewSelect().Model((*metaRow)(nil)).Column("value").Where("name = ?", metaTokenKey).Scan(ctx, &v); err != nil {
		return nil, mapError(err)
	}
	return hex.DecodeString(v)
}

func (t *tx) CreateToken(ctx context.Context, k model.TokenRecord) error {
	_, err := t.tx.NewInsert().Model(&tokenRow{ID: k.ID, Kind: k.Kind, Hash: k.Hash, UserID: k.UserID,
		WorkspaceID: k.WorkspaceID, ProjectID: k.ProjectID, ReadOnly: k.ReadOnly, Prefix: k.Prefix, Name: k.Name, CreatedAt: now(),
		GrantID: k.GrantID, Audience: k.Audience, ExpiresAt: utcPtr(k.ExpiresAt)}).Exec(ctx)
	return mapError(err)
}

func (t *tx) TokenByHash(ctx context.Context, hash string) (model.TokenRecord, error) {
	var r tokenRow
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).Where("revoked_at IS NULL").
		// A disabled user's tokens are refused, not revoked: enabling the user restores them.
		Where("NOT EXISTS (SELECT 1 FROM users AS u WHERE u.id = token_row.user_id AND u.disabled_at IS NOT NULL)").Scan(ctx); err != nil {
		return model.TokenRecord{}, notFound(err, "token")
	}
	return model.TokenRecord{ID: r.ID, Kind: r.Kind, Hash: r.Hash, UserID: r.UserID, WorkspaceID: r.WorkspaceID,
		ProjectID: r.ProjectID, ReadOnly: r.ReadOnly, CreatedAt: r.CreatedAt,
		GrantID: r.GrantID, Audience: r.Audience, ExpiresAt: r.ExpiresAt}, nil
}
