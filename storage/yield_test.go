package storage_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestYieldToWritersLetsAWaitingWriteIn: with no write waiting YieldToWriters returns at
// once; with one waiting for SQLite's writer it returns only once that write holds the
// writer, so that a chunked write asking again queues behind it.
func TestYieldToWritersLetsAWaitingWriteIn(t *testing.T) {
	t.Parallel()
	dsn, f := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	ctx := sys(t)
	db.YieldToWriters(time.Hour) // nothing waits: returns now, or the test times out

	release := make(chan struct{})
	holding := make(chan struct{})
	go func() {
		_ = db.Update(ctx, f.Project.ID, func(model.Tx) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	var started atomic.Bool
	done := make(chan error, 1)
	go func() {
		done <- db.Update(ctx, f.Other.ID, func(model.Tx) error {
			started.Store(true)
			return nil
		})
	}()
	for !db.WritersWaiting() {
		time.Sleep(time.Millisecond) // until the second write queues for the writer
	}
	var released atomic.Bool
	yielded := make(chan bool)
	go func() {
		db.YieldToWriters(time.Hour)
		yielded <- released.Load()
	}()
	select {
	case <-yielded:
		t.Fatal("YieldToWriters returned while a write still waited")
	case <-time.After(20 * time.Millisecond): // long enough to see a return that does not wait
	}
	released.Store(true)
	close(release)
	if !<-yielded {
		t.Error("YieldToWriters returned before the waiting write could take the writer")
	}
	if err := <-done; err != nil || !started.Load() {
		t.Fatalf("the waiting write: ran %v, %v", started.Load(), err)
	}
}
