package storage

import (
	"context"
	"sort"
	"strconv"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// On PostgreSQL, large inserts go through unnest of one array per column: the server parses
// a handful of literals instead of tens of thousands of row tuples, which is what makes a
// 50,000-key sync fit its budget. Rows come back keyed, so nothing relies on RETURNING order.

func (t *tx) insertKeysPostgres(ctx context.Context, keys []model.NewKey, ts time.Time) ([]int64, error) {
	// In hash order, as on SQLite: the rows append to the unique index on the hash instead
	// of splitting its pages all over (a third less time for a worst-case body).
	hashes := make([]string, len(keys))
	order := make([]int, len(keys))
	for i, k := range keys {
		hashes[i], order[i] = KeyHash(k.Key), i
	}
	sort.Slice(order, func(a, b int) bool { return hashes[order[a]] < hashes[order[b]] })
	ns := make([]int64, len(keys))
	names := make([]string, len(keys))
	sorted := make([]string, len(keys))
	versions := make([]int64, len(keys))
	for i, j := range order {
		k := keys[j]
		ns[i], names[i], sorted[i], versions[i] = k.NamespaceID, k.Key, hashes[j], k.SourceVersion
	}
	var rows []struct {
		ID          int64  `bun:"id"`
		NamespaceID int64  `bun:"namespace_id"`
		KeyHash     string `bun:"key_hash"`
	}
	err := t.tx.NewRaw(`INSERT INTO translation_keys (namespace_id, key, key_hash, hidden, source_version, created_at, updated_at)
SELECT u.ns, u.k, u.h, FALSE, u.v, ?, ? FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[]) AS u(ns, k, h, v)
RETURNING id, namespace_id, key_hash`, ts, ts, pgdialect.Array(ns), pgdialect.Array(names), pgdialect.Array(sorted),
		pgdialect.Array(versions)).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	byKey := make(map[string]int64, len(rows))
	for _, r := range rows {
		byKey[strconv.FormatInt(r.NamespaceID, 10)+":"+r.KeyHash] = r.ID
	}
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = byKey[strconv.FormatInt(k.NamespaceID, 10)+":"+hashes[i]]
	}
	return ids, nil
}

func (t *tx) insertTranslationsPostgres(ctx context.Context, rows []translationRow, ts time.Time) error {
	n := len(rows)
	keyIDs, langs, values, statuses := make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	dnt, locked, versions, by := make([]bool, n), make([]bool, n), make([]*int64, n), make([]string, n)
	for i, r := range rows {
		keyIDs[i], langs[i], values[i], statuses[i] = r.KeyID, r.Language, r.Value, r.Status
		dnt[i], locked[i], versions[i], by[i] = r.DoNotTranslate, r.LanguageLocked, r.SourceVersion, r.UpdatedBy
	}
	var out []struct {
		ID       int64  `bun:"id"`
		KeyID    int64  `bun:"key_id"`
		Language string `bun:"language"`
	}
	err := t.tx.NewRaw(`INSERT INTO translations (key_id, language, value, status, do_not_translate, language_locked, source_version, updated_by, created_at, updated_at)
SELECT u.k, u.l, u.v, u.s, u.d, u.lk, u.sv, u.b, ?, ?
FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::boolean[], ?::boolean[], ?::bigint[], ?::text[]) AS u(k, l, v, s, d, lk, sv, b)
RETURNING id, key_id, language`, ts, ts, pgdialect.Array(keyIDs), pgdialect.Array(langs), pgdialect.Array(values),
		pgdialect.Array(statuses), pgdialect.Array(dnt), pgdialect.Array(locked), pgdialect.Array(versions), pgdialect.Array(by)).Scan(ctx, &out)
	if err != nil {
		return mapError(err)
	}
	type rowKey struct {
		key  int64
		lang string
	}
	byKey := make(map[rowKey]int64, len(out))
	for _, r := range out {
		byKey[rowKey{r.KeyID, r.Language}] = r.ID
	}
	for i := range rows {
		rows[i].ID = byKey[rowKey{rows[i].KeyID, rows[i].Language}]
	}
	return nil
}

// updateTranslationsPostgres updates rows by id from arrays in one statement: a sync that
// changes a thousand source values would otherwise make a thousand round trips.
func (t *tx) updateTranslationsPostgres(ctx context.Context, rows []translationRow, ts time.Time) error {
	n := len(rows)
	ids, values, statuses, by := make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	dnt, locked, versions := make([]bool, n), make([]bool, n), make([]*int64, n)
	for i, r := range rows {
		ids[i], values[i], statuses[i], by[i] = r.ID, r.Value, r.Status, r.UpdatedBy
		dnt[i], locked[i], versions[i] = r.DoNotTranslate, r.LanguageLocked, r.SourceVersion
	}
	_, err := t.tx.NewRaw(`UPDATE translations AS t SET value = u.v, status = u.s, do_not_translate = u.d, language_locked = u.lk,
  source_version = u.sv, updated_by = u.b, updated_at = ?
FROM unnest(?::bigint[], ?::text[], ?::text[], ?::boolean[], ?::boolean[], ?::bigint[], ?::text[]) AS u(id, v, s, d, lk, sv, b)
WHERE t.id = u.id`, ts, pgdialect.Array(ids), pgdialect.Array(values), pgdialect.Array(statuses), pgdialect.Array(dnt),
		pgdialect.Array(locked), pgdialect.Array(versions), pgdialect.Array(by)).Exec(ctx)
	return mapError(err)
}

func (t *tx) insertHistoryPostgres(ctx context.Context, rows []historyRow) error {
	n := len(rows)
	tids, kids, langs, changes, values, statuses := make([]int64, n), make([]int64, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	dnt, locked, versions, actors, at := make([]bool, n), make([]bool, n), make([]*int64, n), make([]string, n), make([]time.Time, n)
	for i, r := range rows {
		tids[i], kids[i], langs[i], changes[i], values[i], statuses[i] = r.TranslationID, r.KeyID, r.Language, r.Change, r.Value, r.Status
		dnt[i], locked[i], versions[i], actors[i], at[i] = r.DoNotTranslate, r.LanguageLocked, r.SourceVersion, r.Actor, r.CreatedAt
	}
	_, err := t.tx.NewRaw(`INSERT INTO translation_history (translation_id, key_id, language, change, value, status, do_not_translate, language_locked, source_version, actor, created_at)
SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[], ?::boolean[], ?::bigint[], ?::text[], ?::timestamptz[])`,
		pgdialect.Array(tids), pgdialect.Array(kids), pgdialect.Array(langs), pgdialect.Array(changes), pgdialect.Array(values),
		pgdialect.Array(statuses), pgdialect.Array(dnt), pgdialect.Array(locked), pgdialect.Array(versions), pgdialect.Array(actors),
		pgdialect.Array(at)).Exec(ctx)
	return mapError(err)
}
