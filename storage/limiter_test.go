package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestSharedLimiter checks that two handles on one PostgreSQL database, as two servers
// behind a balancer would be, spend one budget: n events in any window between them, the
// next refused on either with the wait until the oldest leaves, and free again after it.
func TestSharedLimiter(t *testing.T) {
	dsn := storagetest.DSN(t, "postgres")
	ctx := context.Background()
	open := func() *storage.DB {
		db, err := storage.Open(ctx, dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	now := t0
	clock := func() time.Time { return now }
	a, b := open().Limiter(clock), open().Limiter(clock)
	take := func(l model.Limiter, bucket string) (bool, time.Duration) {
		t.Helper()
		ok, wait, err := l.Take(ctx, bucket, 5, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return ok, wait
	}
	for i := 0; i < 5; i++ {
		l := a
		if i%2 == 1 {
			l = b
		}
		if ok, _ := take(l, "writes:p1"); !ok {
			t.Fatalf("event %d of 5 refused", i+1)
		}
		now = now.Add(time.Second)
	}
	for _, l := range []model.Limiter{a, b} {
		ok, wait := take(l, "writes:p1")
		if ok || wait != 55*time.Second {
			t.Errorf("6th event: ok %v wait %s, want refused with 55s", ok, wait)
		}
	}
	if ok, _ := take(b, "writes:p2"); !ok {
		t.Errorf("another bucket was refused")
	}
	now = t0.Add(time.Minute)
	if ok, _ := take(a, "writes:p1"); !ok {
		t.Errorf("refused after the oldest event left the window")
	}
	if ok, _ := take(b, "writes:p1"); ok {
		t.Errorf("a second event was allowed when only one left the window")
	}
}

// TestMemoryLimiterOnSQLite checks that SQLite, which one server owns, leaves limiting to
// the catalogue's in-memory limiter (a nil Limiter).
func TestMemoryLimiterOnSQLite(t *testing.T) {
	db := storagetest.MustOpenDB(t, "sqlite")
	if l := db.Limiter(nil); l != nil {
		t.Errorf("SQLite limiter is %T, want nil (the catalogue's in-memory one)", l)
	}
}
