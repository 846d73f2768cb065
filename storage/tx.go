package storage

import (
	"fmt"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// batch bounds the rows of one INSERT or IN list: SQLite and PostgreSQL both take far more,
// but statements of this size keep memory flat on 50,000-key syncs.
const batch = 1000

type tx struct {
	db      *DB
	tx      bun.Tx
	touched map[string]*changeSet // projects whose revision this transaction moved, to what changed
	pending []pendingTouch        // touches whose revisions flushTouches moves before the commit
	revs    []int64               // the revisions it took
	write   bool                  // a write transaction (Update), not a View
	// indexed counts the rows of translations and translation_keys the transaction wrote,
	// each of which may have added entries to the trigram indexes' pending lists
	// (trigram_pending.go).
	indexed int
	// unqueued counts the checkup queue's marks the transaction deleted (queue_vacuum.go).
	unqueued int
}

// Writable reports a write transaction: what is derived from the rows may be stored in it.
func (t *tx) Writable() bool { return t.write }

// batch is how many rows one insert statement carries: array inserts on PostgreSQL take a
// whole sync's rows at once.
func (t *tx) batch() int {
	if t.db.postgres {
		return 20 * batch
	}
	return batch
}

func now() time.Time { return time.Now().UTC() }

func notFound(err error, format string, args ...any) error {
	err = mapError(err)
	if model.IsNotFound(err) {
		return &model.Error{Code: model.CodeNotFound, Message: fmt.Sprintf(format, args...) + " not found"}
	}
	return err
}
