package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools"
)

func (t *tx) Comments(ctx context.Context, keyID int64) ([]tools.Comment, error) {
	var rows []commentRow
	if err := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.Comment, len(rows))
	for i, r := range rows {
		out[i] = tools.Comment{ID: r.ID, Language: r.Language, Body: r.Body, Author: r.Actor, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

func (t *tx) AddComment(ctx context.Context, keyID int64, c tools.Comment) (tools.Comment, error) {
	r := &commentRow{KeyID: keyID, Language: c.Language, Body: c.Body, Actor: tools.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return tools.Comment{}, mapError(err)
	}
	return tools.Comment{ID: r.ID, Language: r.Language, Body: r.Body, Author: r.Actor, CreatedAt: r.CreatedAt}, nil
}
