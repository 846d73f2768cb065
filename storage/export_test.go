package storage

import (
	"context"
	"time"
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
