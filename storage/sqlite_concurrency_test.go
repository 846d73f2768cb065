package storage_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestSQLiteWritesReadsAndClose runs what is SQLite's own at once: writers queued for the
// one writer, each commit starting a background WAL checkpoint, readers beside them, and
// Close while writes are still in flight. It always runs on SQLite, whatever
// LOKAL_TEST_DIALECTS says: the race run takes the other tests on PostgreSQL only, and
// this is where the detector watches the SQLite side.
func TestSQLiteWritesReadsAndClose(t *testing.T) {
	t.Parallel()
	dsn, f := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	ctx := t.Context()
	var wrote atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	halfway := make(chan struct{})
	var once sync.Once
	for range 4 {
		wg.Go(func() {
			for i := range 50 {
				select {
				case <-stop:
					return
				default:
				}
				if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error { return tx.Touch(ctx, f.Project.ID) }); err != nil {
					return // the store closed under it
				}
				if wrote.Add(1) == 40 || i == 49 {
					once.Do(func() { close(halfway) })
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if db.View(ctx, func(tx model.Tx) error { _, err := tx.Project(ctx, f.Project.ID); return err }) != nil {
					return
				}
			}
		})
	}
	<-halfway
	if err := db.Close(); err != nil {
		t.Errorf("closing with writes in flight: %v", err)
	}
	close(stop)
	wg.Wait()
	if wrote.Load() < 40 {
		t.Fatalf("%d writes committed before Close, want at least 40", wrote.Load())
	}
}
