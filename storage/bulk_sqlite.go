package storage

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// On SQLite, large inserts go through one prepared single-row statement per table, executed
// row by row inside the transaction. Multi-row VALUES statements of a thousand tuples cost
// more to parse than to run, and their big allocations churn the C allocator (mmap and
// munmap per statement): a worst-case 5 MB body of 380,000 keys took 27 s that way.

// sqliteTime is how bun stores a time on SQLite, so rows written here read back the same.
func sqliteTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.999999-07:00") }

// execEach prepares query once and runs it with args(i) for i in [0, n); with returnID it
// collects the rowid of each insert.
func (t *tx) execEach(ctx context.Context, query string, n int, returnID bool, args func(i int) []any) ([]int64, error) {
	stmt, err := t.tx.Tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, mapError(err)
	}
	defer stmt.Close()
	var ids []int64
	if returnID {
		ids = make([]int64, n)
	}
	for i := 0; i < n; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		res, err := stmt.ExecContext(ctx, args(i)...)
		if err != nil {
			return nil, mapError(err)
		}
		if returnID {
			if ids[i], err = res.LastInsertId(); err != nil {
				return nil, fmt.Errorf("reading inserted id: %w", err)
			}
		}
	}
	return ids, nil
}

func nullable(v *int64) any {
	if v == nil {
		return nil
	}
	return *v
}

// insertKeysSQLite inserts in key-hash order: the unique index is on the hash, and
// inserting in its order appends to the index instead of splitting pages all over it.
func (t *tx) insertKeysSQLite(ctx context.Context, keys []model.NewKey, ts time.Time) ([]int64, error) {
	at := sqliteTime(ts)
	hashes := make([]string, len(keys))
	order := make([]int, len(keys))
	for i, k := range keys {
		hashes[i], order[i] = KeyHash(k.Key), i
	}
	sort.Slice(order, func(a, b int) bool { return hashes[order[a]] < hashes[order[b]] })
	inserted, err := t.execEach(ctx, `INSERT INTO translation_keys (namespace_id, key, key_hash, hidden, source_version, created_at, updated_at)
VALUES (?, ?, ?, 0, ?, ?, ?)`, len(keys), true, func(i int) []any {
		k := keys[order[i]]
		return []any{k.NamespaceID, k.Key, hashes[order[i]], k.SourceVersion, at, at}
	})
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(keys))
	for i, id := range inserted {
		ids[order[i]] = id
	}
	return ids, nil
}

func (t *tx) insertTranslationsSQLite(ctx context.Context, rows []translationRow, ts time.Time) error {
	at := sqliteTime(ts)
	ids, err := t.execEach(ctx, `INSERT INTO translations (key_id, language, value, status, do_not_translate, language_locked, source_version, updated_by, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, len(rows), true, func(i int) []any {
		r := &rows[i]
		return []any{r.KeyID, r.Language, r.Value, r.Status, r.DoNotTranslate, r.LanguageLocked, nullable(r.SourceVersion), r.UpdatedBy, at, at}
	})
	for i := range ids {
		rows[i].ID = ids[i]
	}
	return err
}

func (t *tx) updateTranslationsSQLite(ctx context.Context, rows []translationRow, ts time.Time) error {
	at := sqliteTime(ts)
	_, err := t.execEach(ctx, `UPDATE translations SET value = ?, status = ?, do_not_translate = ?, language_locked = ?,
  source_version = ?, updated_by = ?, updated_at = ? WHERE id = ?`, len(rows), false, func(i int) []any {
		r := &rows[i]
		return []any{r.Value, r.Status, r.DoNotTranslate, r.LanguageLocked, nullable(r.SourceVersion), r.UpdatedBy, at, r.ID}
	})
	return err
}

func (t *tx) insertHistorySQLite(ctx context.Context, rows []historyRow) error {
	_, err := t.execEach(ctx, `INSERT INTO translation_history (translation_id, key_id, language, change, value, status, do_not_translate, language_locked, source_version, actor, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, len(rows), false, func(i int) []any {
		r := &rows[i]
		return []any{r.TranslationID, r.KeyID, r.Language, r.Change, r.Value, r.Status, r.DoNotTranslate, r.LanguageLocked,
			nullable(r.SourceVersion), r.Actor, sqliteTime(r.CreatedAt)}
	})
	return err
}
