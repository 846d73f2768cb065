package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// SetAnalyzeMin lowers the rows that start a statistics pass, so that a test shows the
// pass with thousands of rows instead of tens of thousands.
func SetAnalyzeMin(db *DB, n int64) { db.analyze.min = n }

// SetAnalyzeWaiting makes a statistics pass call waiting when it waits for a chunked write.
func SetAnalyzeWaiting(db *DB, waiting func()) { db.analyze.waiting = waiting }

// SetCheckpoints makes db checkpoint after a write at most once per every, let the WAL
// start over past restartFrames, and call afterPassive between the two steps.
func SetCheckpoints(db *DB, every time.Duration, restartFrames int, afterPassive func()) {
	db.checkpoint.every, db.checkpoint.restartFrames, db.checkpoint.afterPassive = every, restartFrames, afterPassive
	db.checkpoint.last.Store(time.Now().UnixNano())
}

// CheckpointWAL runs the checkpoint a write starts, and waits for it.
func CheckpointWAL(ctx context.Context, db *DB) error { return db.checkpointWAL(ctx) }

// PageCaches reads cache_size on db's SQLite writer and on a reader, as PRAGMA shows it.
func PageCaches(ctx context.Context, db *DB) (writer, reader int, err error) {
	if err = db.w.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&writer); err != nil {
		return 0, 0, err
	}
	err = db.r.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&reader)
	return writer, reader, err
}

// SQLiteReaders is how many reader connections a SQLite store opens at most.
func SQLiteReaders() int { return sqliteReaders() }

// AnalyzeTables runs the statistics pass a large import starts, and waits for it.
func AnalyzeTables(ctx context.Context, db *DB) error { return db.analyzeTables(ctx) }

// ReaderConn holds one connection of the store's reading pool.
func ReaderConn(ctx context.Context, db *DB) (bun.Conn, error) { return db.r.Conn(ctx) }

// WriterConn holds the store's writing connection (SQLite's one writer).
func WriterConn(ctx context.Context, db *DB) (bun.Conn, error) { return db.w.Conn(ctx) }

// SetQueueVacuumMin lowers the marks checkups take before the checkup queue is vacuumed.
func SetQueueVacuumMin(db *DB, n int64) { db.queueVacuum.min = n }

// Setting reads a PostgreSQL setting through one of the store's connections.
func Setting(ctx context.Context, db *DB, name string) (value string, err error) {
	err = db.r.QueryRowContext(ctx, "SELECT current_setting(?)", name).Scan(&value)
	return value, err
}

// SetWriterHooks makes every Update call queued when it starts waiting for the writer, and
// YieldToWriters call pause instead of sleeping between looks.
func SetWriterHooks(db *DB, queued, pause func()) { db.queued, db.yieldPause = queued, pause }

// MergeTrigrams runs the trigram pass a big write starts, and waits for it.
func MergeTrigrams(ctx context.Context, db *DB) error { return db.mergeTrigrams(ctx) }
