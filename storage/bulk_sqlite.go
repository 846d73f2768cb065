package storage

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// On SQLite, large inserts go through one prepared statement of sqliteRowsPerInsert rows
// per table, executed group by group inside the transaction: one driver round trip,
// statement run and update of sqlite_sequence (AUTOINCREMENT) per group instead of per
// row, which cost a quarter of a 50,000-key sync's CPU. Multi-row VALUES statements of a
// thousand tuples cost more to parse than to run and churned the C allocator (a
// worst-case body took 27 s that way): this one is parsed once per call and small. (Rows
// sent as one JSON array through json_each cost more still: SQLite renders each element
// back to JSON text before ->> reads it.)

// sqliteTime is how bun stores a time on SQLite, so rows written here read back the same.
func sqliteTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.999999-07:00") }

// execEach prepares query once and runs it with the arguments fill(i, args) sets, for i in
// [0, n); with returnID it collects the rowid of each insert.
//
// The rows run without ctx's cancellation, which is checked every execCheck rows instead:
// the driver watches a cancellable context with a goroutine per statement, which for the
// million rows of a worst-case body was a tenth of its allocations and CPU.
func (t *tx) execEach(ctx context.Context, query string, n, nargs int, returnID bool, fill func(i int, args []any)) ([]int64, error) {
	stmt, err := t.tx.Tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, mapError(err)
	}
	defer stmt.Close()
	var ids []int64
	if returnID {
		ids = make([]int64, n)
	}
	args := make([]any, nargs)
	quiet := context.WithoutCancel(ctx)
	for i := 0; i < n; i++ {
		if i%execCheck == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		fill(i, args)
		res, err := stmt.ExecContext(quiet, args...)
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

// execCheck is how many rows execEach runs between looks at its context: a few
// milliseconds of work.
const execCheck = 256

func nullable(v *int64) any {
	if v == nil {
		return nil
	}
	return *v
}

// insertKeysSQLite inserts in key order: the unique index is on the name
// (migrateSQLiteKeyIndex), and inserting in its order appends to the index instead of
// splitting pages all over it.
func (t *tx) insertKeysSQLite(ctx context.Context, keys []model.NewKey, ts time.Time) ([]int64, error) {
	at := sqliteTime(ts)
	hashes := make([]string, len(keys))
	order := make([]int, len(keys))
	for i, k := range keys {
		hashes[i], order[i] = KeyHash(k.Key), i
	}
	sort.Slice(order, func(a, b int) bool { return keys[order[a]].Key < keys[order[b]].Key })
	inserted, err := t.insertRows(ctx, "translation_keys", []string{"namespace_id", "key", "key_hash", "hidden", "source_version", "created_at", "updated_at"},
		len(keys), func(i int, a []any) {
			k := &keys[order[i]]
			a[0], a[1], a[2], a[3], a[4], a[5], a[6] = k.NamespaceID, k.Key, hashes[order[i]], false, k.SourceVersion, at, at
		})
	if err != nil {
		return nil, err
	}
	if err := t.indexTrigrams(ctx, "translation_keys_trgm", "translation_keys", "key", inserted); err != nil {
		return nil, err
	}
	ids := make([]int64, len(keys))
	for i, id := range inserted {
		ids[order[i]] = id
	}
	return ids, nil
}

// sqliteArgsPerInsert bounds the arguments one statement of insertRows binds. The driver
// (modernc.org/sqlite, conn.bind) finds each placeholder's argument by a scan of all of
// them, so binding costs the square of a statement's arguments: at 64 rows of 13 columns
// it was 2.9 of a worst-case sync's 17.5 CPU-s. With the columns every row shares bound
// once, a new key or value binds 2-3 arguments a row, and 512 arguments cost a 50,000-key
// sync 70 ms of binding (16 rows of all 13 columns: 210 ms).
const sqliteArgsPerInsert = 512

// sqliteMaxRowsPerInsert bounds the rows of one statement of insertRows: past a few hundred
// rows a statement's journal no longer shrinks per row.
const sqliteMaxRowsPerInsert = 256

// insertRows inserts n rows into table's columns cols, the values of row i set by
// fill(i, args), and returns the rows' ids in order. In a table with AUTOINCREMENT each
// row takes the next id above every id the table ever held, so the rows of one statement
// hold the ids up to the last one it inserted, in the order of its tuples.
//
// A column whose value is the same in every row (the namespace, the time, the language,
// the status...) is bound once per statement instead of once per row, so that a statement
// carries more rows for the same arguments: each statement of a transaction keeps a
// journal of every page it changes (to undo it alone on a constraint error), and fewer,
// larger statements write fewer of those pages. (A 50,000-key sync wrote 16-row
// statements' journals for a tenth of its CPU.)
//
// The statements run without ctx's cancellation, which is checked between them: the
// driver watches a cancellable context with a goroutine per statement.
func (t *tx) insertRows(ctx context.Context, table string, cols []string, n int, fill func(i int, args []any)) ([]int64, error) {
	ids := make([]int64, n)
	if n == 0 {
		return ids, nil
	}
	nc := len(cols)
	vals := make([]any, n*nc)
	for i := 0; i < n; i++ {
		fill(i, vals[i*nc:(i+1)*nc])
	}
	shared := make([]bool, nc)
	var perRow []int // the columns bound per row
	for c := range cols {
		shared[c] = true
		for i := 1; i < n && shared[c]; i++ {
			shared[c] = vals[i*nc+c] == vals[c]
		}
		if !shared[c] {
			perRow = append(perRow, c)
		}
	}
	if len(perRow) == 0 {
		shared[0], perRow = false, []int{0}
	}
	per := min(n, sqliteMaxRowsPerInsert, max(1, sqliteArgsPerInsert/len(perRow)))
	// As many statements, of even size: all but the last share one prepared statement.
	stmts := (n + per - 1) / per
	per = (n + stmts - 1) / stmts
	var head strings.Builder
	head.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") SELECT ")
	var consts []any
	for c := range cols {
		if c > 0 {
			head.WriteString(", ")
		}
		if shared[c] {
			head.WriteString("?")
			consts = append(consts, vals[c])
		} else {
			head.WriteString("column" + strconv.Itoa(slices.Index(perRow, c)+1))
		}
	}
	head.WriteString(" FROM (VALUES ")
	tuple := "(?" + strings.Repeat(", ?", len(perRow)-1) + ")"

	var stmt *sql.Stmt
	var stmtRows int
	defer func() {
		if stmt != nil {
			stmt.Close()
		}
	}()
	args := make([]any, len(consts)+per*len(perRow))
	copy(args, consts)
	quiet := context.WithoutCancel(ctx)
	for start := 0; start < n; start += per {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows := min(per, n-start)
		if rows != stmtRows {
			if stmt != nil {
				stmt.Close()
			}
			q := head.String() + tuple + strings.Repeat(", "+tuple, rows-1) + ")"
			var err error
			if stmt, err = t.tx.Tx.PrepareContext(ctx, q); err != nil {
				stmt = nil
				return nil, mapError(err)
			}
			stmtRows = rows
		}
		a := len(consts)
		for i := start; i < start+rows; i++ {
			for _, c := range perRow {
				args[a] = vals[i*nc+c]
				a++
			}
		}
		res, err := stmt.ExecContext(quiet, args[:a]...)
		if err != nil {
			return nil, mapError(err)
		}
		last, err := res.LastInsertId()
		if err != nil {
			return nil, fmt.Errorf("reading inserted id: %w", err)
		}
		for i := 0; i < rows; i++ {
			ids[start+i] = last - int64(rows-1-i)
		}
	}
	return ids, nil
}

func (t *tx) insertTranslationsSQLite(ctx context.Context, rows []translationRow, ts time.Time) error {
	at := sqliteTime(ts)
	ids, err := t.insertRows(ctx, "translations", []string{"key_id", "language", "value", "status", "do_not_translate", "language_locked", "source_version", "updated_by", "created_at", "updated_at", "counted", "held", "incomplete"},
		len(rows), func(i int, a []any) {
			r := &rows[i]
			a[0], a[1], a[2], a[3], a[4] = r.KeyID, r.Language, r.Value, r.Status, r.DoNotTranslate
			a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12] = r.LanguageLocked, nullable(r.SourceVersion), r.UpdatedBy, at, at, newRowMark(r), r.Held, r.Incomplete
		})
	if err != nil {
		return err
	}
	for i := range ids {
		rows[i].ID = ids[i]
	}
	return t.indexTrigrams(ctx, "translations_trgm", "translations", "value", ids)
}

// historyOfInsertedSQLite writes the history entry of each row just inserted (ids, in
// insert order), under label, from the rows themselves in one statement per range of
// consecutive ids: the values are not sent to the database twice, and the actor is the
// row's updated_by, the write's actor.
func (t *tx) historyOfInsertedSQLite(ctx context.Context, ids []int64, label string) error {
	for start := 0; start < len(ids); {
		end := start + 1
		for end < len(ids) && ids[end] == ids[end-1]+1 {
			end++
		}
		if _, err := t.tx.Tx.ExecContext(ctx, `INSERT INTO translation_history (translation_id, key_id, language, change, value, status, do_not_translate, language_locked, source_version, actor, created_at)
SELECT id, key_id, language, ?, value, status, do_not_translate, language_locked, source_version, updated_by, created_at FROM translations
WHERE id BETWEEN ? AND ? ORDER BY id`, label, ids[start], ids[end-1]); err != nil {
			return mapError(err)
		}
		start = end
	}
	return nil
}

// indexTrigrams adds the rows of table just inserted (ids, in insert order) to its trigram
// table fts, in one statement where a trigger ran per row (migrateBulkTrigram); text
// under three characters stays out, as the triggers keep it. The ids of one transaction's
// inserts follow each other, a range; otherwise they are sent as a JSON array.
func (t *tx) indexTrigrams(ctx context.Context, fts, table, col string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	sel := fmt.Sprintf("INSERT INTO %s (rowid, %s) SELECT r.id, r.%s FROM ", fts, col, col)
	var err error
	if n := int64(len(ids)); ids[0]+n-1 == ids[n-1] && slices.IsSorted(ids) {
		_, err = t.tx.Tx.ExecContext(ctx, sel+table+" AS r WHERE r.id BETWEEN ? AND ? AND length(r."+col+") >= 3", ids[0], ids[n-1])
	} else {
		_, err = t.tx.Tx.ExecContext(ctx, sel+"json_each(?) AS j CROSS JOIN "+table+" AS r ON r.id = j.value WHERE length(r."+col+") >= 3",
			idList(ids))
	}
	return mapError(err)
}

// updateTranslationsSQLite updates rows one statement each. The trigram index of the
// values that change is kept here, in one statement before and one after
// (migrateTrigramDeferred), when they are more than a few.
func (t *tx) updateTranslationsSQLite(ctx context.Context, rows []translationRow, ts time.Time) error {
	var changed []int64
	if len(rows) >= deferTrigrams {
		var err error
		if changed, err = t.changedValues(ctx, rows); err != nil {
			return err
		}
		if len(changed) > 0 {
			list := idList(changed)
			if _, err := t.tx.Tx.ExecContext(ctx, `INSERT INTO translations_trgm (translations_trgm, rowid, value)
SELECT 'delete', r.id, r.value FROM json_each(?) AS j CROSS JOIN translations AS r ON r.id = j.value WHERE length(r.value) >= 3`, list); err != nil {
				return mapError(err)
			}
			if _, err := t.tx.Tx.ExecContext(ctx, `INSERT INTO trigram_deferred (id) VALUES (1)`); err != nil {
				return mapError(err)
			}
		}
	}
	if err := t.updateRowsSQLite(ctx, rows, ts); err != nil {
		return err
	}
	if len(changed) == 0 {
		return nil
	}
	if _, err := t.tx.Tx.ExecContext(ctx, `DELETE FROM trigram_deferred`); err != nil {
		return mapError(err)
	}
	return t.indexTrigrams(ctx, "translations_trgm", "translations", "value", changed)
}

// deferTrigrams is the least number of updated rows whose trigrams are kept in bulk: below
// it the trigger's flushes cost less than the statements around them.
const deferTrigrams = 16

// changedValues returns the ids of rows whose stored value differs from the one they are
// about to be given, in id order.
func (t *tx) changedValues(ctx context.Context, rows []translationRow) ([]int64, error) {
	next := make(map[int64]string, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		next[r.ID], ids[i] = r.Value, r.ID
	}
	q, err := t.tx.Tx.QueryContext(ctx, `SELECT r.id, r.value FROM json_each(?) AS j CROSS JOIN translations AS r ON r.id = j.value`, idList(ids))
	if err != nil {
		return nil, mapError(err)
	}
	defer q.Close()
	var changed []int64
	for q.Next() {
		var id int64
		var v string
		if err := q.Scan(&id, &v); err != nil {
			return nil, mapError(err)
		}
		if v != next[id] {
			changed = append(changed, id)
		}
	}
	if err := q.Err(); err != nil {
		return nil, mapError(err)
	}
	slices.Sort(changed)
	return changed, nil
}

// idList is ids as a JSON array, for json_each.
func idList(ids []int64) string {
	list := make([]byte, 0, len(ids)*8+2)
	list = append(list, '[')
	for i, id := range ids {
		if i > 0 {
			list = append(list, ',')
		}
		list = strconv.AppendInt(list, id, 10)
	}
	return string(append(list, ']'))
}

func (t *tx) updateRowsSQLite(ctx context.Context, rows []translationRow, ts time.Time) error {
	at := sqliteTime(ts)
	// SET reads the row as it was: served_value keeps the last value that passed while the
	// new one is held back, and is cleared once a value passes again (heldServed).
	_, err := t.execEach(ctx, `UPDATE translations SET value = ?, status = ?, do_not_translate = ?, language_locked = ?,
  source_version = ?, updated_by = ?, updated_at = ?, incomplete = ?,
  served_value = CASE WHEN ? = '' THEN NULL WHEN held = '' THEN value ELSE served_value END, held = ? WHERE id = ?`, len(rows), 11, false, func(i int, a []any) {
		r := &rows[i]
		a[0], a[1], a[2], a[3] = r.Value, r.Status, r.DoNotTranslate, r.LanguageLocked
		a[4], a[5], a[6], a[7], a[8], a[9], a[10] = nullable(r.SourceVersion), r.UpdatedBy, at, r.Incomplete, r.Held, r.Held, r.ID
	})
	return err
}

func (t *tx) insertHistorySQLite(ctx context.Context, rows []historyRow) error {
	var last time.Time
	var at string // the rows of a write share their time: formatted once
	_, err := t.execEach(ctx, `INSERT INTO translation_history (translation_id, key_id, language, change, value, status, do_not_translate, language_locked, source_version, actor, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, len(rows), 11, false, func(i int, a []any) {
		r := &rows[i]
		if at == "" || !r.CreatedAt.Equal(last) {
			last, at = r.CreatedAt, sqliteTime(r.CreatedAt)
		}
		a[0], a[1], a[2], a[3], a[4], a[5] = r.TranslationID, r.KeyID, r.Language, r.Change, r.Value, r.Status
		a[6], a[7], a[8], a[9], a[10] = r.DoNotTranslate, r.LanguageLocked, nullable(r.SourceVersion), r.Actor, at
	})
	return err
}
