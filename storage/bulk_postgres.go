package storage

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// On PostgreSQL, large inserts go through unnest of one array per column: the server parses
// a handful of literals instead of tens of thousands of row tuples, which is what makes a
// 50,000-key sync fit its budget. Rows come back keyed, so nothing relies on RETURNING order.

// unnestCols are the columns of one such insert. A column whose rows all hold the same
// value is sent once as a scalar instead of an array of copies: in a worst-case body the
// language, status, actor and time of 360,000 rows cost more memory and time to format
// and parse than the values themselves.
type unnestCols struct {
	names, exprs, arrays []string
	scalars, arrayArgs   []any
}

// add adds the column name of the PostgreSQL type typ with one value per row; with vary
// it is an array even when uniform, since one array must give unnest its rows.
func add[T comparable](c *unnestCols, name, typ string, vals []T, vary bool) {
	if !vary && uniform(vals) {
		c.scalar(name, typ, vals[0])
		return
	}
	c.array(name, typ, pgdialect.Array(vals))
}

// addVersions is add for a nullable bigint column.
func addVersions(c *unnestCols, name string, vals []*int64) {
	for _, v := range vals[1:] {
		if (v == nil) != (vals[0] == nil) || (v != nil && *v != *vals[0]) {
			c.array(name, "bigint", pgdialect.Array(vals))
			return
		}
	}
	c.scalar(name, "bigint", nullable(vals[0]))
}

func (c *unnestCols) scalar(name, typ string, v any) {
	c.names, c.exprs, c.scalars = append(c.names, name), append(c.exprs, "?::"+typ), append(c.scalars, v)
}

func (c *unnestCols) array(name, typ string, arr any) {
	alias := "u" + strconv.Itoa(len(c.arrays))
	c.names, c.exprs = append(c.names, name), append(c.exprs, "u."+alias)
	c.arrays, c.arrayArgs = append(c.arrays, "?::"+typ+"[]"), append(c.arrayArgs, arr)
}

func uniform[T comparable](vals []T) bool {
	for _, v := range vals[1:] {
		if v != vals[0] {
			return false
		}
	}
	return true
}

// insert is the statement inserting the rows into table, followed by more (SQL with one
// ? per moreArgs), and its arguments.
func (c *unnestCols) insert(table, more string, moreArgs ...any) (string, []any) {
	aliases := make([]string, len(c.arrays))
	for i := range aliases {
		aliases[i] = "u" + strconv.Itoa(i)
	}
	q := "INSERT INTO " + table + " (" + strings.Join(c.names, ", ") + ")\nSELECT " + strings.Join(c.exprs, ", ") +
		"\nFROM unnest(" + strings.Join(c.arrays, ", ") + ") AS u(" + strings.Join(aliases, ", ") + ")" + more
	return q, append(append(c.scalars, c.arrayArgs...), moreArgs...)
}

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
	var c unnestCols
	add(&c, "namespace_id", "bigint", ns, false)
	add(&c, "key", "text", names, true)
	add(&c, "key_hash", "text", sorted, true)
	c.scalar("hidden", "boolean", false)
	add(&c, "source_version", "bigint", versions, false)
	c.scalar("created_at", "timestamptz", ts)
	c.scalar("updated_at", "timestamptz", ts)
	q, args := c.insert("translation_keys", "\nRETURNING id, namespace_id, key_hash")
	rows, err := t.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, mapError(err)
	}
	defer rows.Close()
	type nsHash struct {
		ns   int64
		hash string
	}
	byKey := make(map[nsHash]int64, len(keys))
	var r nsHash
	var id int64
	for rows.Next() {
		if err := rows.Scan(&id, &r.ns, &r.hash); err != nil {
			return nil, mapError(err)
		}
		byKey[r] = id
	}
	if err := rows.Err(); err != nil {
		return nil, mapError(err)
	}
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = byKey[nsHash{k.NamespaceID, hashes[i]}]
	}
	return ids, nil
}

// insertTranslationsPostgres inserts rows. With a label, the same statement also writes
// each row's history entry under it (the actor is the row's updated_by): the ids never come
// back to Go nor the values go out twice, and a chunk makes one statement fewer. With ""
// it sets the rows' ids, for the caller to write their history.
func (t *tx) insertTranslationsPostgres(ctx context.Context, rows []translationRow, ts time.Time, label string) error {
	n := len(rows)
	keyIDs, langs, values, statuses := make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	dnt, locked, versions, by := make([]bool, n), make([]bool, n), make([]*int64, n), make([]string, n)
	marks, held, incomplete := make([]int64, n), make([]string, n), make([]bool, n)
	for i, r := range rows {
		keyIDs[i], langs[i], values[i], statuses[i], held[i] = r.KeyID, r.Language, r.Value, r.Status, r.Held
		dnt[i], locked[i], versions[i], by[i] = r.DoNotTranslate, r.LanguageLocked, r.SourceVersion, r.UpdatedBy
		marks[i], incomplete[i] = int64(newRowMark(&rows[i])), r.Incomplete
	}
	var c unnestCols
	add(&c, "key_id", "bigint", keyIDs, true)
	add(&c, "language", "text", langs, false)
	add(&c, "value", "text", values, false)
	add(&c, "status", "text", statuses, false)
	add(&c, "do_not_translate", "boolean", dnt, false)
	add(&c, "language_locked", "boolean", locked, false)
	addVersions(&c, "source_version", versions)
	add(&c, "updated_by", "text", by, false)
	add(&c, "counted", "smallint", marks, false)
	add(&c, "held", "text", held, false)
	add(&c, "incomplete", "boolean", incomplete, false)
	c.scalar("created_at", "timestamptz", ts)
	c.scalar("updated_at", "timestamptz", ts)
	if label != "" {
		q, args := c.insert("translations", "\nRETURNING id, key_id, language, value, status, do_not_translate, language_locked, source_version, updated_by, created_at")
		_, err := t.tx.ExecContext(ctx, "WITH ins AS ("+q+`)
INSERT INTO translation_history (translation_id, key_id, language, change, value, status, do_not_translate, language_locked, source_version, actor, created_at)
SELECT id, key_id, language, ?, value, status, do_not_translate, language_locked, source_version, updated_by, created_at FROM ins`, append(args, label)...)
		return mapError(err)
	}
	q, args := c.insert("translations", "\nRETURNING id, key_id, language")
	res, err := t.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return mapError(err)
	}
	defer res.Close()
	type rowKey struct {
		key  int64
		lang string
	}
	byKey := make(map[rowKey]int64, n)
	var k rowKey
	var id int64
	for res.Next() {
		if err := res.Scan(&id, &k.key, &k.lang); err != nil {
			return mapError(err)
		}
		byKey[k] = id
	}
	if err := res.Err(); err != nil {
		return mapError(err)
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
	dnt, locked, versions, held := make([]bool, n), make([]bool, n), make([]*int64, n), make([]string, n)
	incomplete := make([]bool, n)
	for i, r := range rows {
		ids[i], values[i], statuses[i], by[i] = r.ID, r.Value, r.Status, r.UpdatedBy
		dnt[i], locked[i], versions[i], held[i], incomplete[i] = r.DoNotTranslate, r.LanguageLocked, r.SourceVersion, r.Held, r.Incomplete
	}
	// served_value reads the row as it was (heldServed).
	_, err := t.tx.NewRaw(`UPDATE translations AS t SET value = u.v, status = u.s, do_not_translate = u.d, language_locked = u.lk,
  source_version = u.sv, updated_by = u.b, updated_at = ?, held = u.h, incomplete = u.inc,
  served_value = CASE WHEN u.h = '' THEN NULL WHEN t.held = '' THEN t.value ELSE t.served_value END
FROM unnest(?::bigint[], ?::text[], ?::text[], ?::boolean[], ?::boolean[], ?::bigint[], ?::text[], ?::text[], ?::boolean[]) AS u(id, v, s, d, lk, sv, b, h, inc)
WHERE t.id = u.id`, ts, pgdialect.Array(ids), pgdialect.Array(values), pgdialect.Array(statuses), pgdialect.Array(dnt),
		pgdialect.Array(locked), pgdialect.Array(versions), pgdialect.Array(by), pgdialect.Array(held), pgdialect.Array(incomplete)).Exec(ctx)
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
	var c unnestCols
	add(&c, "translation_id", "bigint", tids, true)
	add(&c, "key_id", "bigint", kids, false)
	add(&c, "language", "text", langs, false)
	add(&c, "change", "text", changes, false)
	add(&c, "value", "text", values, false)
	add(&c, "status", "text", statuses, false)
	add(&c, "do_not_translate", "boolean", dnt, false)
	add(&c, "language_locked", "boolean", locked, false)
	addVersions(&c, "source_version", versions)
	add(&c, "actor", "text", actors, false)
	add(&c, "created_at", "timestamptz", at, false)
	q, args := c.insert("translation_history", "")
	_, err := t.tx.ExecContext(ctx, q, args...)
	return mapError(err)
}
