package storage

import (
	"context"
	"slices"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

var _ model.FileMetaTx = (*tx)(nil)

type entryMetaRow struct {
	bun.BaseModel `bun:"table:entry_meta"`
	KeyID         int64  `bun:"key_id,pk"`
	Format        string `bun:"format,pk"`
	Language      string `bun:"language,pk"`
	Meta          string `bun:"meta,notnull"`
}

// EntryMeta implements model.FileMetaTx.
func (t *tx) EntryMeta(ctx context.Context, ns model.Namespace, format string, languages []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	if len(languages) == 0 {
		return out, nil
	}
	var rows []struct {
		Key      string `bun:"key"`
		Language string `bun:"language"`
		Meta     string `bun:"meta"`
	}
	if err := t.tx.NewRaw(`SELECT k.key, m.language, m.meta FROM entry_meta AS m JOIN translation_keys AS k ON k.id = m.key_id
WHERE k.namespace_id = ? AND m.format = ? AND m.language IN (?)`, ns.ID, format, bun.In(languages)).Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	for _, r := range rows {
		if out[r.Language] == nil {
			out[r.Language] = map[string]string{}
		}
		out[r.Language][r.Key] = r.Meta
	}
	return out, nil
}

// SetEntryMeta implements model.FileMetaTx: the names are found by keyLookup, a batch
// at a time, then each key's row is replaced or removed. It answers how many names were
// keys of ns.
func (t *tx) SetEntryMeta(ctx context.Context, ns model.Namespace, format, language string, meta map[string]string) (int, error) {
	names := make([]string, 0, len(meta))
	for k := range meta {
		names = append(names, k)
	}
	slices.Sort(names)
	found := 0
	for start := 0; start < len(names); start += batch {
		part := names[start:min(start+batch, len(names))]
		col, values := t.keyLookup(part)
		var keys []struct {
			ID  int64  `bun:"id"`
			Key string `bun:"key"`
		}
		if err := t.tx.NewSelect().Table("translation_keys").Column("id", "key").Where("namespace_id = ?", ns.ID).
			Where("? IN (?)", bun.Ident(col), bun.In(values)).Scan(ctx, &keys); err != nil {
			return 0, mapError(err)
		}
		found += len(keys)
		var gone []int64
		var set []entryMetaRow
		for _, k := range keys {
			m, ok := meta[k.Key]
			switch {
			case !ok:
			case m == "":
				gone = append(gone, k.ID)
			default:
				set = append(set, entryMetaRow{KeyID: k.ID, Format: format, Language: language, Meta: m})
			}
		}
		if len(gone) > 0 {
			if _, err := t.tx.NewRaw("DELETE FROM entry_meta WHERE format = ? AND language = ? AND key_id IN (?)", format, language, bun.In(gone)).Exec(ctx); err != nil {
				return 0, mapError(err)
			}
		}
		if len(set) > 0 {
			if _, err := t.tx.NewInsert().Model(&set).On("CONFLICT (key_id, format, language) DO UPDATE").Set("meta = EXCLUDED.meta").Exec(ctx); err != nil {
				return 0, mapError(err)
			}
		}
	}
	return found, nil
}

// FileMeta implements model.FileMetaTx.
func (t *tx) FileMeta(ctx context.Context, ns model.Namespace, format string, languages []string) (map[string]string, error) {
	out := map[string]string{}
	if len(languages) == 0 {
		return out, nil
	}
	var rows []struct {
		Language string `bun:"language"`
		Meta     string `bun:"meta"`
	}
	if err := t.tx.NewSelect().Table("file_meta").Column("language", "meta").Where("namespace_id = ?", ns.ID).
		Where("format = ?", format).Where("language IN (?)", bun.In(languages)).Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	for _, r := range rows {
		out[r.Language] = r.Meta
	}
	return out, nil
}

// SetFileMeta implements model.FileMetaTx.
func (t *tx) SetFileMeta(ctx context.Context, ns model.Namespace, format, language, meta string) error {
	var err error
	if meta == "" {
		_, err = t.tx.NewRaw("DELETE FROM file_meta WHERE namespace_id = ? AND format = ? AND language = ?", ns.ID, format, language).Exec(ctx)
	} else {
		_, err = t.tx.NewRaw(`INSERT INTO file_meta (namespace_id, format, language, meta) VALUES (?, ?, ?, ?)
ON CONFLICT (namespace_id, format, language) DO UPDATE SET meta = EXCLUDED.meta`, ns.ID, format, language, meta).Exec(ctx)
	}
	return mapError(err)
}
