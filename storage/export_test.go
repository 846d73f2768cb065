package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// SetAnalyzeMin lowers the rows that start a statistics pass, so that a test shows the
// pass with thousands of rows instead of tens of thousands.
func SetAnalyzeMin(db *DB, n int64) { db.analyze.min = n }

// SetCheckpoints makes db checkpoint after a write at most once per every, let the WAL
// start over past restartFrames, and call afterPassive between the two steps.
func SetCheckpoints(db *DB, every time.Duration, restartFrames int, afterPassive func()) {
	db.checkpoint.every, db.checkpoint.restartFrames, db.checkpoint.afterPassive = every, restartFrames, afterPassive
	db.checkpoint.last.Store(time.Now().UnixNano())
}

// CheckpointWAL runs the checkpoint a write starts, and waits for it.
func CheckpointWAL(ctx context.Context, db *DB) error { return db.checkpointWAL(ctx) }

// AnalyzeTables runs the statistics pass a large import starts, and waits for it.
func AnalyzeTables(ctx context.Context, db *DB) error { return db.analyzeTables(ctx) }

// ReaderConn holds one connection of the store's reading pool.
func ReaderConn(ctx context.Context, db *DB) (bun.Conn, error) { return db.r.Conn(ctx) }

// WriterConn holds the store's writing connection (SQLite's one writer).
func WriterConn(ctx context.Context, db *DB) (bun.Conn, error) { return db.w.Conn(ctx) }

// SetQueueVacuumMin lowers the marks checkups take before the checkup queue is vacuumed.
func SetQueueVacuumMin(db *DB, n int64) { db.queueVacuum.min = n }
