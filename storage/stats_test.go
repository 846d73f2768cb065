package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// PendingJobs counts jobs waiting to run, not those claimed or finished.
func TestPendingJobs(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		p := f.Project
		ctx := sys(t)
		t0 := time.Now()
		want := func(n int) {
			t.Helper()
			got, err := db.PendingJobs(ctx)
			if err != nil || got != n {
				t.Fatalf("PendingJobs = %d, %v; want %d", got, err, n)
			}
		}
		want(0)
		for _, kind := range []string{"a", "b", "c"} {
			if err := db.Update(ctx, "", func(tx model.Tx) error {
				return tx.EnqueueJob(ctx, model.Job{Kind: kind, ProjectID: p.ID, RunAt: t0.Add(time.Hour)}, false)
			}); err != nil {
				t.Fatal(err)
			}
		}
		want(3) // not yet due still counts: it is waiting
		var j model.Job
		if err := db.Update(ctx, "", func(tx model.Tx) error {
			var err error
			j, err = tx.ClaimJob(ctx, t0.Add(2*time.Hour), time.Minute)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		want(2)
		if err := db.Update(ctx, "", func(tx model.Tx) error { return tx.FinishJob(ctx, j.ID, nil, time.Time{}) }); err != nil {
			t.Fatal(err)
		}
		want(2)
	})
}

// CacheStats counts a built answer as a miss and a served one as a hit.
func TestCacheStats(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db := storagetest.MustOpenDB(t, dialect)
		build := func(context.Context) ([]byte, error) { return []byte(`{"k":"v"}`), nil }
		for i := 0; i < 3; i++ {
			if _, err := db.Cached(t.Context(), "p1", "en/common", build); err != nil {
				t.Fatal(err)
			}
		}
		if hits, misses := db.CacheStats(); hits != 2 || misses != 1 {
			t.Fatalf("CacheStats = %d hits, %d misses; want 2, 1", hits, misses)
		}
	})
}
