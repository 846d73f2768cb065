package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// keyStateRow is one row of the Keys join.
type keyStateRow struct {
	ID            int64  `bun:"id"`
	Key           string `bun:"key"`
	Hidden        bool   `bun:"hidden"`
	SourceVersion int64  `bun:"source_version"`

	SID      *int64     `bun:"s_id"`
	SValue   *string    `bun:"s_value"`
	SStatus  *string    `bun:"s_status"`
	SDNT     *bool      `bun:"s_dnt"`
	SLocked  *bool      `bun:"s_locked"`
	SVersion *int64     `bun:"s_version"`
	SBy      *string    `bun:"s_by"`
	SUpdated *time.Time `bun:"s_updated"`
	TID      *int64     `bun:"t_id"`
	TValue   *string    `bun:"t_value"`
	TStatus  *string    `bun:"t_status"`
	TDNT     *bool      `bun:"t_dnt"`
	TLocked  *bool      `bun:"t_locked"`
	TVersion *int64     `bun:"t_version"`
	TBy      *string    `bun:"t_by"`
	TUpdated *time.Time `bun:"t_updated"`
}

func (t *tx) Keys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only ...string) ([]model.KeyState, error) {
	var rows []keyStateRow
	filter, args := "", []any{sourceLanguage, language, ns.ID}
	if len(only) > 0 {
		hashes := make([]string, len(only))
		for i, k := range only {
			hashes[i] = KeyHash(k)
		}
		filter, args = " AND k.key_hash IN (?)", append(args, bun.In(hashes))
	}
	err := t.tx.NewRaw(`SELECT k.id, k.key, k.hidden, k.source_version,
  s.id AS s_id, s.value AS s_value, s.status AS s_status, s.do_not_translate AS s_dnt, s.language_locked AS s_locked,
  s.source_version AS s_version, s.updated_by AS s_by, s.updated_at AS s_updated,
  t.id AS t_id, t.value AS t_value, t.status AS t_status, t.do_not_translate AS t_dnt, t.language_locked AS t_locked,
  t.source_version AS t_version, t.updated_by AS t_by, t.updated_at AS t_updated
FROM translation_keys AS k
LEFT JOIN translations AS s ON s.key_id = k.id AND s.language = ?
LEFT JOIN translations AS t ON t.key_id = k.id AND t.language = ?
WHERE k.namespace_id = ?`+filter, args...).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.KeyState, len(rows))
	for i, r := range rows {
		k := model.KeyState{ID: r.ID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}
		if r.SID != nil {
			k.Source = &model.TranslationState{ID: *r.SID, Language: sourceLanguage, Value: deref(r.SValue), Status: deref(r.SStatus),
				DoNotTranslate: deref(r.SDNT), LanguageLocked: deref(r.SLocked), SourceVersion: r.SVersion, UpdatedBy: deref(r.SBy), UpdatedAt: deref(r.SUpdated)}
		}
		if r.TID != nil {
			k.Value = &model.TranslationState{ID: *r.TID, Language: language, Value: deref(r.TValue), Status: deref(r.TStatus),
				DoNotTranslate: deref(r.TDNT), LanguageLocked: deref(r.TLocked), SourceVersion: r.TVersion, UpdatedBy: deref(r.TBy), UpdatedAt: deref(r.TUpdated)}
		}
		out[i] = k
	}
	// Sorted here rather than by SQL so that the order is bytewise on both dialects.
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// KeyHash is the unique-index form of a key.
func KeyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func (t *tx) InsertKeys(ctx context.Context, keys []model.NewKey) ([]int64, error) {
	if len(keys) == 0 {
		return []int64{}, nil
	}
	if t.db.postgres {
		return t.insertKeysPostgres(ctx, keys, now())
	}
	return t.insertKeysSQLite(ctx, keys, now())
}

func (t *tx) SetHidden(ctx context.Context, keyIDs []int64, hidden bool) error {
	ts := now()
	for start := 0; start < len(keyIDs); start += batch {
		end := min(start+batch, len(keyIDs))
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("hidden = ?", hidden).Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(keyIDs[start:end])).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) SourceChanged(ctx context.Context, keyIDs []int64) error {
	ts := now()
	actor := model.PrincipalFrom(ctx).Actor()
	for start := 0; start < len(keyIDs); start += batch {
		chunk := keyIDs[start:min(start+batch, len(keyIDs))]
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("source_version = source_version + 1").Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(chunk)).Exec(ctx); err != nil {
			return mapError(err)
		}
		// Clearing a lock is a flag change: it goes into the history like any other.
		var locked []translationRow
		if err := t.tx.NewSelect().Model(&locked).Where("key_id IN (?)", bun.In(chunk)).Where("language_locked").Scan(ctx); err != nil {
			return mapError(err)
		}
		if len(locked) == 0 {
			continue
		}
		ids := make([]int64, len(locked))
		hist := make([]historyRow, len(locked))
		for i, r := range locked {
			ids[i] = r.ID
			hist[i] = historyRow{TranslationID: r.ID, KeyID: r.KeyID, Language: r.Language, Change: string(model.ChangeFlagChanged), Value: r.Value,
				Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: false, SourceVersion: r.SourceVersion,
				Actor: actor, CreatedAt: ts}
		}
		if _, err := t.tx.NewUpdate().Model((*translationRow)(nil)).Set("language_locked = ?", false).Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return mapError(err)
		}
		if _, err := t.tx.NewInsert().Model(&hist).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) KeyByName(ctx context.Context, ns model.Namespace, key string) (model.KeyRecord, error) {
	var r keyRow
	if err := t.tx.NewSelect().Model(&r).Where("namespace_id = ?", ns.ID).Where("key_hash = ?", KeyHash(key)).Scan(ctx); err != nil {
		return model.KeyRecord{}, notFound(err, "key %q in namespace %q", key, ns.Key)
	}
	return model.KeyRecord{ID: r.ID, NamespaceID: r.NamespaceID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}, nil
}
