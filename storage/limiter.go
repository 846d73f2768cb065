package storage

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// rateEventRow is one event spent from a shared budget.
type rateEventRow struct {
	bun.BaseModel `bun:"table:rate_events"`

	ID     int64     `bun:"id,pk,autoincrement"`
	Bucket string    `bun:"bucket,notnull"`
	At     time.Time `bun:"at,notnull"`
}

// Limiter returns the rate limiter that fits the database: on PostgreSQL budgets live in
// the database, so every server on it spends from the same ones (two instances behind a
// balancer give a project 300 writes a minute, not 600); on SQLite, which one server
// owns, nil: the catalogue then limits in memory. now is the clock (time.Now when nil).
func (db *DB) Limiter(now func() time.Time) model.Limiter {
	if now == nil {
		now = time.Now
	}
	if !db.postgres {
		return nil
	}
	return &sharedLimiter{db: db, now: now}
}

// sharedLimiter is a sliding-window log in the rate_events table: a bucket holds at most n
// events younger than its window, so the (n+1)th is refused and told when the oldest
// leaves. Takes of one bucket are serialized by an advisory lock.
type sharedLimiter struct {
	db        *DB
	now       func() time.Time
	lastSweep atomic.Int64
}

// sweepEvery is how often events older than any window (an hour) are removed, so buckets
// that are never used again (client IPs) do not accumulate.
const sweepEvery = 10 * time.Minute

func (l *sharedLimiter) Take(ctx context.Context, bucket string, n int, window time.Duration) (ok bool, wait time.Duration, err error) {
	now := l.now().UTC()
	err = l.db.w.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", rateLockKey(bucket)); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*rateEventRow)(nil)).Where("bucket = ?", bucket).
			Where("at <= ?", now.Add(-window)).Exec(ctx); err != nil {
			return err
		}
		var held []time.Time
		if err := tx.NewSelect().Model((*rateEventRow)(nil)).Column("at").Where("bucket = ?", bucket).
			Order("at").Limit(int64(n)).Scan(ctx, &held); err != nil {
			return err
		}
		if len(held) >= n {
			wait = held[0].Add(window).Sub(now)
			return nil
		}
		ok = true
		_, err := tx.NewInsert().Model(&rateEventRow{Bucket: bucket, At: now}).Exec(ctx)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("taking from rate budget %s: %w", bucket, err)
	}
	if last := l.lastSweep.Load(); now.Sub(time.Unix(0, last)) > sweepEvery && l.lastSweep.CompareAndSwap(last, now.UnixNano()) {
		if _, err := l.db.w.NewDelete().Model((*rateEventRow)(nil)).Where("at < ?", now.Add(-time.Hour)).Exec(ctx); err != nil {
			l.db.log.Warn("sweeping rate events", "err", err)
		}
	}
	return ok, wait, nil
}

// Count implements model.Limiter.
func (l *sharedLimiter) Count(ctx context.Context, bucket string, window time.Duration) (int, time.Time, error) {
	var got struct {
		N      int        `bun:"n"`
		Newest *time.Time `bun:"newest"`
	}
	err := l.db.r.NewSelect().Model((*rateEventRow)(nil)).ColumnExpr("COUNT(*) AS n, MAX(at) AS newest").
		Where("bucket = ?", bucket).Where("at > ?", l.now().UTC().Add(-window)).Scan(ctx, &got)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("counting rate budget %s: %w", bucket, err)
	}
	if got.Newest == nil {
		return got.N, time.Time{}, nil
	}
	return got.N, *got.Newest, nil
}

// Clear implements model.Limiter.
func (l *sharedLimiter) Clear(ctx context.Context, bucket string) error {
	if _, err := l.db.w.NewDelete().Model((*rateEventRow)(nil)).Where("bucket = ?", bucket).Exec(ctx); err != nil {
		return fmt.Errorf("clearing rate budget %s: %w", bucket, err)
	}
	return nil
}

func rateLockKey(bucket string) int64 {
	h := fnv.New64a()
	h.Write([]byte("lokal.rate:" + bucket))
	return int64(h.Sum64())
}
