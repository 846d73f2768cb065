package storage

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
)

// Statistics after large imports. A database filled through the API grows from nothing to
// millions of rows in minutes; until its statistics catch up the planner prices every
// query for an empty table. Autovacuum may be off on a self-hoster's PostgreSQL, and SQLite
// never gathers them by itself. So once the rows inserted since the last pass (keys and
// translations: a language imported after its keys skews the planner as much as new keys
// do, e.g. a search of one language and status priced for a language with no rows) reach
// a fifth of the rows inserted up to then (and at least analyzeMin), the store refreshes
// them after the write commits, in the background: a write does not wait for it. The rows
// up to then start, when the store opens, at what the last pass counted (loadAnalyzed):
// counted from nothing, the first 20,000 rows a restarted server took in set off a pass
// over a million keys, which on SQLite holds the one writer for seconds (a maximal sync's
// chunks and every other project's writes waited 15 s for it).

const (
	analyzeMin     = 20000
	analyzeTimeout = 10 * time.Minute
)

type analyzer struct {
	min     int64        // analyzeMin when 0; tests lower it (export_test.go)
	pending atomic.Int64 // rows inserted since the last pass, rolled back ones too
	base    atomic.Int64 // rows inserted up to the last pass (estimated)
	running atomic.Bool
	waiting func() // tests: called when a pass waits for a chunked write
}

// inserted counts n rows written in a transaction that may yet commit.
func (a *analyzer) inserted(n int) { a.pending.Add(int64(n)) }

// due reports whether enough rows came in to make a pass worth it.
func (a *analyzer) due() bool {
	p := a.pending.Load()
	least := a.min
	if least == 0 {
		least = analyzeMin
	}
	return p >= least && p >= a.base.Load()/5
}

// afterWrite starts a pass when one is due and none runs; it runs after a write
// committed, so that the pass sees the rows.
func (db *DB) afterWrite() {
	a := &db.analyze
	if !a.due() || !a.running.CompareAndSwap(false, true) {
		return
	}
	n := a.pending.Swap(0)
	started := db.bg.start(func() {
		defer a.running.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), analyzeTimeout)
		defer cancel()
		// A chunked write would wait seconds for the pass between two of its chunks, and
		// every other write with it: the pass runs once it is done.
		if !db.waitBulk(ctx, a.waiting) {
			a.pending.Add(n) // the next write starts the pass again
			return
		}
		if err := db.analyzeTables(ctx); err != nil {
			db.log.Warn("refreshing planner statistics after an import", "err", err)
			return
		}
		a.base.Add(n)
	})
	if !started {
		a.running.Store(false)
	}
}

// loadAnalyzed sets the rows up to the last pass to those its statistics counted in the
// key and translation tables; none when there are none yet.
func (db *DB) loadAnalyzed(ctx context.Context) error {
	q := `SELECT COALESCE(SUM(GREATEST(reltuples, 0)), 0) FROM pg_class WHERE relname IN ('translation_keys', 'translations') AND relkind = 'r'`
	if !db.postgres {
		var tables int
		if err := db.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'`).Scan(&tables); err != nil || tables == 0 {
			return err
		}
		// A row per index, whose stat starts with the rows it holds.
		q = `SELECT COALESCE(SUM(n), 0) FROM (SELECT MAX(CAST(stat AS INTEGER)) AS n FROM sqlite_stat1
WHERE tbl IN ('translation_keys', 'translations') GROUP BY tbl)`
	}
	var rows float64
	if err := db.w.QueryRowContext(ctx, q).Scan(&rows); err != nil {
		return err
	}
	db.analyze.base.Store(int64(rows))
	return nil
}

// grownTables are the tables whose statistics the pass refreshes: those that grow with the
// keys, the checkup's too, whose queue an import fills with a mark per key a write (never
// analysed, PostgreSQL priced 2.6 million marks as a few thousand and read them all for
// each chunk's, 1.5 s).
var grownTables = []string{"translation_keys", "translations", "translation_history", "checkup_queue", "checkup_findings"}

// analyzeStatements refresh the statistics of tables. On SQLite ANALYZE takes the writer:
// analysis_limit makes it sample each index instead of reading it whole, so other writes
// wait milliseconds, not seconds.
func analyzeStatements(postgres bool, tables []string) []string {
	if postgres {
		return []string{"ANALYZE " + strings.Join(tables, ", ")}
	}
	out := []string{"PRAGMA analysis_limit = 1000"}
	for _, t := range tables {
		out = append(out, "ANALYZE "+t)
	}
	return out
}

// analyzeTables refreshes the statistics of grownTables.
func (db *DB) analyzeTables(ctx context.Context) error {
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, q := range analyzeStatements(db.postgres, grownTables) {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if db.postgres {
		return nil
	}
	return reloadStatistics(ctx, conn)
}

// reloadStatistics makes every SQLite connection plan with the statistics in sqlite_stat1.
// A connection reads them with the schema, and again only when the schema changes: the
// ANALYZE that first creates sqlite_stat1 changes it, later ones do not. Reader
// connections of a server that imported a million keys kept planning with what the first
// pass saw at 20,000 rows: a rare word's search walked translations in key order instead of
// reading its 150 rows (491 ms against 9 ms for the same search from a restarted server).
// A table made and dropped in one transaction changes the schema, which each connection
// notices at its next statement and reads again, statistics and all (a millisecond).
func reloadStatistics(ctx context.Context, conn bun.Conn) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it has nothing to undo
	for _, q := range []string{`CREATE TABLE statistics_reload (x INTEGER)`, `DROP TABLE statistics_reload`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return tx.Commit()
}
