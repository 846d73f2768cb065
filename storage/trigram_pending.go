package storage

import (
	"context"
	"sync/atomic"
	"time"
)

// The trigram indexes' pending lists on PostgreSQL. A GIN index takes new entries into a
// pending list and merges the list into its tree when it passes gin_pending_list_limit,
// inside the insert that pushed it past: with autovacuum off (as on a self-hoster's
// database it may be) nothing else merges it. A 5,000-key chunk adds about 1.8 MB to
// translations_value_trgm, so every second or third chunk merged the list of the chunks
// before it in its own request (at 1,000,000 keys: 350 ms against 135 ms for the same
// insert without the merge). Once writes have committed trigramMergeRows rows since the
// last merge, the store merges both lists in the background instead; a write that commits
// while a merge runs asks for one more, so a burst of writes ends with the lists merged and
// searches, which read the pending list row by row, stay fast too. Smaller writes leave
// their few entries in the lists until the rows add up: merging after each cost the
// database a merge pass per 1-key write for nothing.

const (
	trigramMergeTimeout = 5 * time.Minute
	trigramMergeRows    = 1000
)

type trigramMerger struct {
	pending atomic.Int64 // rows written since the last merge began
	running atomic.Bool
	again   atomic.Bool // enough rows committed while a merge ran
}

// trigramIndexes are the GIN indexes whose pending lists are merged; missing ones (no
// pg_trgm) are skipped by the statement itself.
var trigramIndexes = []string{"translations_value_trgm", "keys_key_trgm"}

// mergeTrigramsAfterWrite counts the rows a committed write wrote and, once they reach
// trigramMergeRows, starts a merge when none runs, or asks the running one to go again.
func (db *DB) mergeTrigramsAfterWrite(rows int) {
	m := &db.trigrams
	if !db.postgres || rows <= 0 || m.pending.Add(int64(rows)) < trigramMergeRows {
		return
	}
	m.pending.Store(0)
	m.again.Store(true)
	if !m.running.CompareAndSwap(false, true) {
		return
	}
	started := db.bg.start(func() {
		defer m.running.Store(false)
		for m.again.Swap(false) {
			ctx, cancel := context.WithTimeout(context.Background(), trigramMergeTimeout)
			err := db.mergeTrigrams(ctx)
			cancel()
			if err != nil {
				db.log.Warn("merging the trigram indexes' pending lists", "err", err)
				return
			}
		}
	})
	if !started {
		m.running.Store(false)
	}
}

// mergeTrigrams merges the pending lists of the trigram indexes into their trees. It takes
// no lock that writes or searches wait for: inserts keep appending to the list meanwhile.
func (db *DB) mergeTrigrams(ctx context.Context) error {
	for _, name := range trigramIndexes {
		if _, err := db.w.ExecContext(ctx, `SELECT gin_clean_pending_list(c.oid) FROM pg_class AS c
WHERE c.oid = to_regclass(?) AND c.relkind = 'i'`, name); err != nil {
			return err
		}
	}
	return nil
}
