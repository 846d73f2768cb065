package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// KeyDescriptions implements model.KeyTx: the keys of ns that have a description (of the
// keys only, when given), by id. A query of its own, so that the reads of values (Keys,
// KeyPage) do not carry the text.
func (t *tx) KeyDescriptions(ctx context.Context, ns model.Namespace, only ...int64) (map[int64]string, error) {
	out := map[int64]string{}
	read := func(ids []int64) error {
		var rows []struct {
			ID          int64  `bun:"id"`
			Description string `bun:"description"`
		}
		q := t.tx.NewSelect().Table("translation_keys").Column("id", "description").
			Where("namespace_id = ?", ns.ID).Where("description <> ''")
		if ids != nil {
			list, arg := t.idList(ids)
			q = q.Where("id IN "+list, arg)
		}
		if err := q.Scan(ctx, &rows); err != nil {
			return mapError(err)
		}
		for _, r := range rows {
			out[r.ID] = r.Description
		}
		return nil
	}
	if len(only) == 0 {
		return out, read(nil)
	}
	for start := 0; start < len(only); start += keysFilterBatch {
		if err := read(only[start:min(start+keysFilterBatch, len(only))]); err != nil {
			return nil, err
		}
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
