package storage

import (
	"cmp"
	"context"
	"sync/atomic"
	"time"
)

// The checkup queue's taken marks on PostgreSQL. A checkup deletes the marks it takes, in
// key order, and PostgreSQL keeps their rows and index entries until the table is
// vacuumed: with autovacuum off (as on a self-hoster's database it may be) nothing does,
// and every walk of the queue in key order (the checkup's, the QA filter's) steps over all
// the marks taken since (after a million keys' marks, 132-218 ms to find the queue empty).
// Once checkups have taken queueVacuumMarks marks since the last vacuum, the store vacuums
// the queue in the background; VACUUM takes no lock that writes or reads wait for. A
// checkup that takes more while one runs asks for one more.

const (
	queueVacuumMarks   = 100000
	queueVacuumTimeout = 10 * time.Minute
)

type queueVacuumer struct {
	min     int64        // queueVacuumMarks when 0; tests lower it (export_test.go)
	taken   atomic.Int64 // marks taken since the last vacuum began
	running atomic.Bool
	again   atomic.Bool
}

// vacuumQueueAfterWrite counts the marks a committed write took off the queue and, once
// they reach the minimum, starts a vacuum when none runs, or asks the running one to go
// again.
func (db *DB) vacuumQueueAfterWrite(marks int) {
	v := &db.queueVacuum
	if !db.postgres || marks <= 0 || v.taken.Add(int64(marks)) < cmp.Or(v.min, queueVacuumMarks) {
		return
	}
	v.taken.Store(0)
	v.again.Store(true)
	if !v.running.CompareAndSwap(false, true) {
		return
	}
	started := db.bg.start(func() {
		defer v.running.Store(false)
		for v.again.Swap(false) {
			ctx, cancel := context.WithTimeout(context.Background(), queueVacuumTimeout)
			_, err := db.w.ExecContext(ctx, "VACUUM checkup_queue")
			cancel()
			if err != nil {
				db.log.Warn("vacuuming the checkup queue", "err", err)
				return
			}
		}
	})
	if !started {
		v.running.Store(false)
	}
}
