package storage

import (
	"context"
	"sync"
	"time"
)

// Big writes in flight (more new keys than a chunk). On SQLite such a write commits chunk
// after chunk for up to its whole budget, letting other writes take the writer in between;
// on PostgreSQL it is one transaction that needs both cores. Background work that can wait
// (a statistics pass, which holds SQLite's writer for seconds at a million keys, and the
// checkup's chunks) waits while one is in flight instead of taking turns with it.
type bulkWrites struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n == 0
}

// BulkWrite marks a big write of this process in flight until end is called.
func (db *DB) BulkWrite() (end func()) {
	b := &db.bulk
	b.mu.Lock()
	if b.n == 0 {
		b.idle = make(chan struct{})
	}
	b.n++
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			if b.n--; b.n == 0 {
				close(b.idle)
			}
			b.mu.Unlock()
		})
	}
}

// BulkIdle returns a channel that is closed while no big write is in flight.
func (db *DB) BulkIdle() <-chan struct{} {
	b := &db.bulk
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 {
		return closedChan
	}
	return b.idle
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// bulkWaitMax bounds how long a statistics pass waits for big writes: longer than one
// maximal write takes with its undoing (25 s and 20 s), but back-to-back chunked writes
// (an import through the API) do not put it off for good.
const bulkWaitMax = time.Minute

// waitBulk waits while a big write is in flight, at most bulkWaitMax, calling waiting
// (when not nil) first; false when ctx ended or the store closes first.
func (db *DB) waitBulk(ctx context.Context, waiting func()) bool {
	idle := db.BulkIdle()
	select {
	case <-idle:
		return true
	default:
	}
	if waiting != nil {
		waiting()
	}
	t := time.NewTimer(bulkWaitMax)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return true
	case <-db.stop:
	case <-ctx.Done():
	}
	select { // a write that ended just before counts as ended
	case <-idle:
		return true
	default:
		return false
	}
}
