package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

func (t *tx) Comments(ctx context.Context, keyID int64) ([]model.Comment, error) {
	var rows []commentRow
	if err := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Comment, len(rows))
	for i, r := range rows {
		out[i] = model.Comment{ID: r.ID, Language: r.Language, Body: r.Body, Author: r.Actor, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

func (t *tx) AddComment(ctx context.Context, keyID int64, c model.Comment) (model.Comment, error) {
	r := &commentRow{KeyID: keyID, Language: c.Language, Body: c.Body, Actor: model.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return model.Comment{}, mapError(err)
	}
	return model.Comment{ID: r.ID, Language: r.Language, Body: r.Body, Author: r.Actor, CreatedAt: r.CreatedAt}, nil
}
