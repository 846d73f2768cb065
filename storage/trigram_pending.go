package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Merging the trigram indexes off the writes.
//
// PostgreSQL: a GIN index takes new entries into a pending list and merges the list into
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

// mergeTrigrams merges the pending lists of the trigram indexes into their trees. It takes
// no lock that writes or searches wait for: inserts keep appending to the list meanwhile.
func (db *DB) mergeTrigrams(ctx context.Context) error {
	if !db.postgres {
		return db.mergeTrigramsSQLite(ctx)
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
