package storage_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestYieldToWritersLetsAWaitingWriteIn: with no write waiting YieldToWriters returns at
// once; with one waiting for SQLite's writer it keeps waiting, and returns once that write
// has taken the writer, so that a chunked write asking again queues behind it.
func TestYieldToWritersLetsAWaitingWriteIn(t *testing.T) {
	t.Parallel()
	dsn, f := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	ctx := sys(t)
	db.YieldToWriters(time.Hour) // nothing waits: returns now, or the test times out

	queued := make(chan struct{}, 2)
	looking := make(chan struct{}, 1)
	storage.SetWriterHooks(db, func() { queued <- struct{}{} }, func() {
		select {
		case looking <- struct{}{}:
		default:
		}
		runtime.Gosched()
	})
	release := make(chan struct{})
	holding := make(chan struct{})
	go func() {
		_ = db.Update(ctx, f.Project.ID, func(model.Tx) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-queued
	<-holding
	var started atomic.Bool
	done := make(chan error, 1)
	go func() {
		done <- db.Update(ctx, f.Other.ID, func(model.Tx) error {
			started.Store(true)
			return nil
		})
	}()
	<-queued // the second write waits for the writer the first holds
	yielded := make(chan struct{})
	go func() {
		db.YieldToWriters(time.Hour)
		close(yielded)
	}()
	select {
	case <-yielded:
		t.Fatal("YieldToWriters returned while a write still waited")
	case <-looking: // it is waiting
	}
	close(release)
	<-yielded // returns only once the waiting write has taken the writer
	if err := <-done; err != nil || !started.Load() {
		t.Fatalf("the waiting write: ran %v, %v", started.Load(), err)
	}
}
