package storage

import (
	"cmp"
	"context"
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
	countedPass
	min int64 // queueVacuumMarks when 0; tests lower it (export_test.go)
}

// vacuumQueueAfterWrite counts the marks a committed write took off the queue; once they
// reach the minimum, the queue is vacuumed in the background (countedPass).
func (db *DB) vacuumQueueAfterWrite(marks int) {
	if !db.postgres {
		return
	}
	v := &db.queueVacuum
	db.count(&v.countedPass, marks, cmp.Or(v.min, queueVacuumMarks), queueVacuumTimeout, "vacuuming the checkup queue",
		func(ctx context.Context) error {
			_, err := db.w.ExecContext(ctx, "VACUUM checkup_queue")
			return err
		})
}
