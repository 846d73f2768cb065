package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
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

// keysFilterBatch bounds the key hashes one Keys query names: a worst-case body names
// hundreds of thousands, and one literal of them all would cost tens of MB to build and parse.
const keysFilterBatch = 10000

func (t *tx) Keys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only ...string) ([]model.KeyState, error) {
	var rows []keyStateRow
	all := len(only) == 0
	if len(only) > keysFilterBatch {
		// Naming most of the namespace costs more than reading it: the statement would
		// carry a hash per key. Then the namespace is read and the keys picked here.
		n, err := t.tx.NewSelect().Model((*keyRow)(nil)).Where("namespace_id = ?", ns.ID).Count(ctx)
		if err != nil {
			return nil, mapError(err)
		}
		all = n <= 2*int64(len(only))
	}
	if all {
		if err := t.keyStates(ctx, ns, sourceLanguage, language, nil, &rows); err != nil {
			return nil, err
		}
		if len(only) > 0 {
			named := make(map[string]bool, len(only))
			for _, k := range only {
				named[k] = true
			}
			kept := rows[:0]
			for _, r := range rows {
				if named[r.Key] {
					kept = append(kept, r)
				}
			}
			rows = kept
		}
		only = nil
	}
	for start := 0; start < len(only); start += keysFilterBatch {
		part := only[start:min(start+keysFilterBatch, len(only))]
		hashes := make([]string, len(part))
		for i, k := range part {
			hashes[i] = KeyHash(k)
		}
		if err := t.keyStates(ctx, ns, sourceLanguage, language, hashes, &rows); err != nil {
			return nil, err
		}
	}
	out := make([]model.KeyState, len(rows))
	for i, r := range rows {
		k := model.KeyState{ID: r.ID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}
		if r.SID != nil {
			k.Source = &model.TranslationState{ID: *r.SID, Language: sourceLanguage, Value: deref(r.SValue), Status: deref(r.SStatus),
				DoNotTranslate: deref(r.SDNT), LanguageLocked: deref(r.SLocked), SourceVersion: r.SVersion, UpdatedBy: deref(r.SBy), UpdatedAt: deref(r.SUpdated)}
		}
		if language == sourceLanguage && k.Source != nil {
			v := *k.Source
			k.Value = &v
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

// keyStates appends to rows the keys of ns (those with the given hashes, when not nil)
// with their rows in the source language and in language. In the source language the
// row is joined and read once; Keys copies it.
//
// On PostgreSQL each row is looked up through a lateral subquery: as a plain join of a
// large namespace the planner hashes the whole project's rows of the language (a
// sequential scan of millions of rows for 50,000 keys). The LIMIT keeps it from
// flattening the subquery back into such a join; the unique index makes it a no-op.
func (t *tx) keyStates(ctx context.Context, ns model.Namespace, sourceLanguage, language string, hashes []string, rows *[]keyStateRow) error {
	join := func(alias string) string {
		if t.db.postgres {
			return "\nLEFT JOIN LATERAL (SELECT * FROM translations WHERE key_id = k.id AND language = ? LIMIT 1) AS " + alias + " ON TRUE"
		}
		return "\nLEFT JOIN translations AS " + alias + " ON " + alias + ".key_id = k.id AND " + alias + ".language = ?"
	}
	cols, from, args := `,
  t.id AS t_id, t.value AS t_value, t.status AS t_status, t.do_not_translate AS t_dnt, t.language_locked AS t_locked,
  t.source_version AS t_version, t.updated_by AS t_by, t.updated_at AS t_updated`, join("s")+join("t"), []any{sourceLanguage, language, ns.ID}
	if language == sourceLanguage {
		cols, from, args = "", join("s"), []any{sourceLanguage, ns.ID}
	}
	filter := ""
	if hashes != nil {
		var arg any
		filter, arg = t.inStrings("k.key_hash", hashes)
		filter, args = " AND "+filter, append(args, arg)
	}
	if t.db.postgres {
		// The lateral lookups are priced far above what they cost, enough for the planner
		// to spend more time compiling the query (JIT) than running it.
		if _, err := t.tx.ExecContext(ctx, "SET LOCAL jit = off"); err != nil {
			return mapError(err)
		}
	}
	var part []keyStateRow // Scan replaces a slice's contents
	err := t.tx.NewRaw(`SELECT k.id, k.key, k.hidden, k.source_version,
  s.id AS s_id, s.value AS s_value, s.status AS s_status, s.do_not_translate AS s_dnt, s.language_locked AS s_locked,
  s.source_version AS s_version, s.updated_by AS s_by, s.updated_at AS s_updated`+cols+`
FROM translation_keys AS k`+from+`
WHERE k.namespace_id = ?`+filter, args...).Scan(ctx, &part)
	*rows = append(*rows, part...)
	return mapError(err)
}

// inStrings is the condition "col is one of values" with its one argument: an array on
// PostgreSQL, a JSON array on SQLite, so that the statement's text does not grow with
// the list and the database looks each value up instead of comparing with every one.
func (t *tx) inStrings(col string, values []string) (string, any) {
	if t.db.postgres {
		return col + " = ANY(?::text[])", pgdialect.Array(values)
	}
	b, _ := json.Marshal(values) // strings always marshal
	return col + " IN (SELECT value FROM json_each(?))", string(b)
}

// notInIDs is the condition "col is none of ids" with its one argument, as inStrings.
func (t *tx) notInIDs(col string, ids []int64) (string, any) {
	if t.db.postgres {
		// A constant array: PostgreSQL hashes it rather than scanning it for every row.
		return "NOT (" + col + " = ANY(?::bigint[]))", pgdialect.Array(ids)
	}
	b, _ := json.Marshal(ids)
	return col + " NOT IN (SELECT value FROM json_each(?))", string(b)
}

// VisibleKeysExcept returns, ordered by key, the visible keys of ns other than keep,
// which must all be visible keys of ns. A full sync hides what it returns: when the
// namespace holds no other visible key, which is the usual sync, a count tells so
// without reading any key.
func (t *tx) VisibleKeysExcept(ctx context.Context, ns model.Namespace, keep []int64) ([]model.KeyRecord, error) {
	visible, err := t.tx.NewSelect().Model((*keyRow)(nil)).Where("namespace_id = ?", ns.ID).Where("NOT hidden").Count(ctx)
	if err != nil {
		return nil, mapError(err)
	}
	if visible <= int64(len(keep)) {
		return nil, nil
	}
	var rows []keyRow
	q := t.tx.NewSelect().Model(&rows).Column("id", "key").Where("namespace_id = ?", ns.ID).Where("NOT hidden")
	if len(keep) > 0 {
		cond, arg := t.notInIDs("id", keep)
		q = q.Where(cond, arg)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.KeyRecord, len(rows))
	for i, r := range rows {
		out[i] = model.KeyRecord{ID: r.ID, NamespaceID: ns.ID, Key: r.Key}
	}
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
	t.db.analyze.inserted(len(keys))
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
