package storage

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
	"time"
)

// WAL checkpoints on SQLite. Left to SQLite, the writer copies the WAL back into the
// database file inside the commit that pushes it past 1,000 pages: a maximal sync's chunk
// commits spent a tenth of their time there (2.2 s), holding the one writer every other
// project's writes queue for. The writer's automatic checkpoints are off instead
// (openSQLite), and after a write commits a reader connection runs a PASSIVE checkpoint in
// the background, which copies what no reader still needs without taking the write lock,
// at most once per checkpointEvery.
//
// A PASSIVE checkpoint never starts the WAL over: SQLite does that when a write begins
// with every frame copied, and while writes keep coming each checkpoint ends behind the
// frames appended as it ran. The WAL then grows for as long as the writes last (6.7 GB
// seeding a million keys), and every page a reader looks up is searched for in the index
// of all of it. So once the WAL holds more than walRestartFrames, the checkpointer copies
// the last frames with the writer held (restartWAL): the next write starts the WAL over.

const (
	checkpointEvery = time.Second
	// walRestartFrames is the WAL's size, in pages (4 KB), past which the checkpointer
	// takes the writer to let the WAL start over; openSQLite's journal_size_limit
	// truncates the file to it then.
	walRestartFrames = 16384
)

type checkpointer struct {
	running atomic.Bool
	last    atomic.Int64 // unix nanoseconds of the last checkpoint's start

	// Tests set these before the first write; zero is the default.
	every         time.Duration
	restartFrames int
	afterPassive  func() // called between the PASSIVE checkpoint and the restart
}

// checkpointAfterWrite starts a checkpoint when none runs and the last is old enough.
func (db *DB) checkpointAfterWrite() {
	c := &db.checkpoint
	if db.postgres || time.Now().UnixNano()-c.last.Load() < int64(cmp.Or(c.every, checkpointEvery)) || !c.running.CompareAndSwap(false, true) {
		return
	}
	c.last.Store(time.Now().UnixNano())
	started := db.bg.start(func() {
		defer c.running.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), checkpointTimeout)
		defer cancel()
		go func() {
			select {
			case <-db.stop: // Close does not wait minutes for a copy it will redo anyway
				cancel()
			case <-ctx.Done():
			}
		}()
		if err := db.checkpointWAL(ctx); err != nil && !errors.Is(ctx.Err(), context.Canceled) {
			db.log.Warn("checkpointing the write-ahead log", "err", err)
		}
	})
	if !started {
		c.running.Store(false)
	}
}

// checkpointWAL copies the WAL into the database file off the writer, and lets the WAL
// start over when it has grown past restartFrames. The writer waits for the frames the
// last PASSIVE checkpoint left behind, about as many as were appended while it ran: after
// a long one (29 s over the WAL a killed server left, which held the writer 1.4 s next)
// another runs off the writer first.
func (db *DB) checkpointWAL(ctx context.Context) error {
	c := &db.checkpoint
	for pass := 1; ; pass++ {
		began := time.Now()
		frames, err := checkpointPassive(ctx, db.r.QueryRowContext)
		if err != nil {
			return err
		}
		if c.afterPassive != nil {
			c.afterPassive()
		}
		if frames <= cmp.Or(c.restartFrames, walRestartFrames) {
			return nil
		}
		if time.Since(began) < checkpointQuick || pass == checkpointPasses {
			return db.restartWAL(ctx)
		}
	}
}

// A PASSIVE checkpoint quicker than checkpointQuick leaves the writer little to copy;
// after checkpointPasses slower ones the writer copies what is left all the same.
const (
	checkpointQuick  = 250 * time.Millisecond
	checkpointPasses = 4
)

// checkpointTimeout bounds one checkpoint. A checkpoint that is cut short keeps none of
// its copying, so it must fit the largest WAL: the 6.7 GB one a killed server left after
// seeding a million keys took 29 s to copy on a loaded machine, and beside a big write a
// minute may not do: every reader then keeps searching the index of all of it.
const checkpointTimeout = 30 * time.Minute

// restartWAL copies what the last PASSIVE checkpoint left behind (the frames appended while
// it ran) on the writer connection, between two writes: nothing is appended meanwhile, so
// unless a reader still reads an older snapshot every frame is in the database file
// afterwards, and the next write starts the WAL over. Writes wait for it as for one more
// write (and a chunked write yields to it, db.waiting).
func (db *DB) restartWAL(ctx context.Context) error {
	db.waiting.Add(1)
	conn, err := db.w.Conn(ctx)
	db.waiting.Add(-1)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = checkpointPassive(ctx, conn.QueryRowContext)
	return err
}

// checkpointPassive runs a PASSIVE checkpoint through query and returns how many frames
// the WAL holds.
func checkpointPassive(ctx context.Context, query func(context.Context, string, ...any) *sql.Row) (int, error) {
	var busy, frames, copied int
	err := query(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
	return frames, err
}
