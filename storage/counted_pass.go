package storage

import (
	"context"
	"sync/atomic"
	"time"
)

// countedPass is background maintenance that runs once writes have counted enough (rows
// written, marks taken) since the last pass began: the trigram merges (trigram_pending.go)
// and the checkup queue's vacuum (queue_vacuum.go). A count that reaches the minimum while
// a pass runs asks it to go once more, so a burst of writes ends with the work done.
type countedPass struct {
	pending atomic.Int64 // counted since the last pass began
	running atomic.Bool
	again   atomic.Bool // the minimum was reached while a pass ran
}

// count adds n and, once the count reaches least, runs pass in the store's background
// group (each run within timeout) when none runs, or asks the running one to go again.
// A failed pass is logged as what and ends the runs until the next count starts them.
func (db *DB) count(p *countedPass, n int, least int64, timeout time.Duration, what string, pass func(context.Context) error) {
	if n <= 0 || p.pending.Add(int64(n)) < least {
		return
	}
	p.pending.Store(0)
	p.again.Store(true)
	if !p.running.CompareAndSwap(false, true) {
		return
	}
	started := db.bg.start(func() {
		defer p.running.Store(false)
		for p.again.Swap(false) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			err := pass(ctx)
			cancel()
			if err != nil {
				db.log.Warn(what, "err", err)
				return
			}
		}
	})
	if !started {
		p.running.Store(false)
	}
}
