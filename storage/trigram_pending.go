package storage

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// Merging the trigram indexes off the writes.
//
// PostgreSQL: the trigram indexes are on side tables that writes leave to this pass
// (migrateTrigramSideTables); the writes record the ids they touched in trigram_pending,
// and searches read those rows directly until the pass has indexed them (pgTrigramRows).
// A GIN index takes new entries into a pending list and merges the list into
// its tree when it passes gin_pending_list_limit, inside the insert that pushed it past:
// with autovacuum off (as on a self-hoster's database it may be) nothing else merges it. A
// 5,000-key chunk adds about 1.8 MB to translations_value_trgm, so every second or third
// chunk merged the list of the chunks before it in its own request (at 1,000,000 keys: 350
// ms against 135 ms for the same insert without the merge).
// The lists' limit is 128 MB (migrateTrigramPendingLimit), above what a 50,000-key sync
// adds, so that writes only append to them and the merge runs here after the commit.
//
// SQLite: each FTS5 flush (a commit, or a statement savepoint after rows were indexed)
// adds a segment, and automerge merged segments inside the write that added them: a
// seventh of a 50,000-key sync's CPU, on the one writer. Automerge is off
// (migrateTrigramMergeOff) and the segments are merged here instead.
//
// Once writes have committed trigramMergeRows rows since the last merge, the store merges
// both indexes in the background; a write that commits while a merge runs asks for one
// more, so a burst of writes ends with the indexes merged and searches, which read the
// pending list row by row or every segment, stay fast too. Smaller writes leave their few
// entries until the rows add up: merging after each cost the database a merge pass per
// 1-key write for nothing.

const (
	trigramMergeTimeout = 5 * time.Minute
	trigramMergeRows    = 1000
	// sqliteMergeWeight is what a SQLite write that wrote any rows counts at least: each
	// adds a segment, and usermerge (8) segments on a level are worth a pass.
	sqliteMergeWeight = trigramMergeRows / 8
	// sqliteMergePages is the work of one merge step, its own transaction on the writer:
	// about a megabyte written, a few milliseconds that other writes may wait.
	sqliteMergePages = 256
)

// trigramIndexes are the GIN indexes whose pending lists are merged; missing ones (no
// pg_trgm) are skipped by the statement itself.
var trigramIndexes = []string{"translations_value_trgm", "keys_key_trgm"}

// sqliteTrigramTables are the FTS5 tables merged on SQLite.
var sqliteTrigramTables = []string{"translations_trgm", "translation_keys_trgm"}

// mergeTrigramsAfterWrite counts the rows a committed write wrote; once they reach
// trigramMergeRows, the indexes are merged in the background (countedPass).
func (db *DB) mergeTrigramsAfterWrite(rows int) {
	if rows > 0 && !db.postgres {
		rows = max(rows, sqliteMergeWeight)
	}
	db.count(&db.trigrams, rows, trigramMergeRows, trigramMergeTimeout, "merging the trigram indexes", db.mergeTrigrams)
}

// indexLeftTrigrams starts a pass at open when rows are pending: the process that wrote
// them stopped before its pass, and the count that starts one is kept in memory, so they
// would otherwise wait for the next thousand rows written (searches read them meanwhile,
// exact but slower). Not being able to look is no reason to refuse the open.
func (db *DB) indexLeftTrigrams(ctx context.Context) {
	left, err := db.trigramSidesExist(ctx)
	if err != nil || !left {
		return
	}
	if err := db.w.NewRaw(`SELECT EXISTS (SELECT 1 FROM trigram_pending)`).Scan(ctx, &left); err != nil || !left {
		return
	}
	db.mergeTrigramsAfterWrite(trigramMergeRows)
}

// mergeTrigrams indexes the rows writes left pending and merges the pending lists of the
// trigram indexes into their trees. It takes no lock that writes or searches wait for:
// inserts keep appending to the list meanwhile.
func (db *DB) mergeTrigrams(ctx context.Context) error {
	if !db.postgres {
		return db.mergeTrigramsSQLite(ctx)
	}
	if err := db.indexPendingTrigrams(ctx); err != nil {
		return err
	}
	for _, name := range trigramIndexes {
		if _, err := db.w.ExecContext(ctx, `SELECT gin_clean_pending_list(c.oid) FROM pg_class AS c
WHERE c.oid = to_regclass(?) AND c.relkind = 'i'`, name); err != nil {
			return err
		}
	}
	return nil
}

// mergeTrigramsSQLite merges the FTS5 tables' segments in steps of sqliteMergePages, each
// its own write transaction, letting waiting writes go first between steps, until no level
// holds usermerge segments. It starts once no big write is in flight: their chunks would
// otherwise take turns with it on the writer.
func (db *DB) mergeTrigramsSQLite(ctx context.Context) error {
	if !db.waitBulk(ctx, nil) {
		return ctx.Err()
	}
	for _, fts := range sqliteTrigramTables {
		for merged := true; merged; {
			select {
			case <-db.stop:
				return nil // the next write's pass goes on
			default:
			}
			db.YieldToWriters(time.Second)
			err := db.w.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				// The command's own insert counts one change; a merge that did work wrote
				// the index's rows as well.
				var before, after int64
				if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('merge', ?)`, sqliteMergePages); err != nil {
					return err
				}
				if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
					return err
				}
				merged = after-before > 1
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	db.checkpointAfterWrite()
	return nil
}

// pgTrigramSides are PostgreSQL's trigram side tables: each holds the id and folded text
// (col) of a table's rows, as of the last indexPendingTrigrams.
var pgTrigramSides = []struct{ table, side, col string }{
	{"translations", "translations_trgm", "value"},
	{"translation_keys", "translation_keys_trgm", "key"},
}

// trigramPassLock keeps two servers on one database from indexing the same pending rows
// at once, where the later commit could hold the older text.
const trigramPassLock = int64(0x6c6f6b616c747267) // "lokaltrg"

// trigramSidesExist reports whether the database has the trigram side tables and their
// trigram_pending (none without pg_trgm: migrateTrigramSideTables).
func (db *DB) trigramSidesExist(ctx context.Context) (bool, error) {
	var exists bool
	err := db.w.NewRaw(`SELECT to_regclass('trigram_pending') IS NOT NULL`).Scan(ctx, &exists)
	return exists, err
}

// indexPendingTrigrams brings the side tables up to the rows the committed writes left in
// trigram_pending, in one transaction: a search sees the pending rows or their index
// entries, never neither. Runs of ids are read once even where statements' runs overlap.
func (db *DB) indexPendingTrigrams(ctx context.Context) error {
	if exists, err := db.trigramSidesExist(ctx); err != nil || !exists {
		return err
	}
	return db.w.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, trigramPassLock); err != nil {
			return err
		}
		for _, s := range pgTrigramSides {
			var runs []struct{ Lo, Hi int64 }
			if err := tx.NewRaw(`DELETE FROM trigram_pending WHERE rel = ? RETURNING lo, hi`, s.table).Scan(ctx, &runs); err != nil {
				return err
			}
			if len(runs) == 0 {
				continue
			}
			slices.SortFunc(runs, func(a, b struct{ Lo, Hi int64 }) int { return cmp.Compare(a.Lo, b.Lo) })
			var los, his []int64
			for _, r := range runs {
				if n := len(his); n > 0 && r.Lo <= his[n-1]+1 {
					his[n-1] = max(his[n-1], r.Hi)
					continue
				}
				los, his = append(los, r.Lo), append(his, r.Hi)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+s.side+` AS g USING unnest(?::bigint[], ?::bigint[]) AS r (lo, hi)
WHERE g.id BETWEEN r.lo AND r.hi`, pgdialect.Array(los), pgdialect.Array(his)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+s.side+` (id, `+s.col+`)
SELECT x.id, LOWER(x.`+s.col+`) FROM unnest(?::bigint[], ?::bigint[]) AS r (lo, hi) JOIN `+s.table+` AS x ON x.id BETWEEN r.lo AND r.hi`,
				pgdialect.Array(los), pgdialect.Array(his)); err != nil {
				return err
			}
		}
		return nil
	})
}

// pgTrigramRows is a FROM item g whose rowid names the rows of table (as "name AS alias")
// whose col may hold every one of pieces (folded): those the side table's trigram index
// finds, and those of trigram_pending read directly. A side table's text may be stale
// (changed or deleted since), so the caller joins table and checks col itself. The pending
// runs drive, each read by its id range (OFFSET 0 keeps the planner from flattening the
// LATERAL): with trigram_pending's statistics (none, or from when it was empty) the
// planner read the whole table to match it against the runs (0.6 s at 150,000 rows).
func pgTrigramRows(side, table, col string, pieces []string) (string, []any) {
	name, _, _ := strings.Cut(table, " AS ")
	_, field, _ := strings.Cut(col, ".")
	var byIndex, byRow []string
	var args []any
	for _, p := range pieces {
		byIndex = append(byIndex, "g."+field+` LIKE ? ESCAPE '\'`)
		args = append(args, likePattern(p))
	}
	for _, p := range pieces {
		byRow = append(byRow, "LOWER(x."+field+`) LIKE ? ESCAPE '\'`)
		args = append(args, likePattern(p))
	}
	args = append(args, name)
	return `(SELECT g.id AS rowid FROM ` + side + ` AS g WHERE ` + strings.Join(byIndex, " AND ") + `
UNION SELECT x.id FROM trigram_pending AS p CROSS JOIN LATERAL (SELECT x.id FROM ` + name + ` AS x
  WHERE x.id BETWEEN p.lo AND p.hi AND ` + strings.Join(byRow, " AND ") + ` OFFSET 0) AS x
WHERE p.rel = ?) AS g`, args
}
