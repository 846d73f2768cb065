package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// KeyDescriptions implements model.KeyTx: the keys of ns that have a description, by id.
// A query of its own, so that the reads of values (Keys, KeyPage) do not carry the text.
func (t *tx) KeyDescriptions(ctx context.Context, ns model.Namespace) (map[int64]string, error) {
	var rows []struct {
		ID          int64  `bun:"id"`
		Description string `bun:"description"`
	}
	if err := t.tx.NewSelect().Table("translation_keys").Column("id", "description").
		Where("namespace_id = ?", ns.ID).Where("description <> ''").Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Description
	}
	return out, nil
}

// SetKeyDescriptions implements model.KeyTx.
func (t *tx) SetKeyDescriptions(ctx context.Context, descriptions map[int64]string) error {
	for id, d := range descriptions {
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("description = ?", d).Where("id = ?", id).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}
