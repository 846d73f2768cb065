package tools_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestCheckupWaitsForChunkedWrite: a checkup stores no chunk while a big write is in
// flight and carries on once it ended, on either database (SQLite's one writer, or
// PostgreSQL's cores that the write needs).
func TestCheckupWaitsForChunkedWrite(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		var stored atomic.Int64
		tools.SetCheckupChunks(x.cat, 2, func(context.Context, int) { stored.Add(1) })
		waiting := make(chan struct{}, 1)
		tools.SetCheckupYielding(x.cat, func(context.Context) {
			select {
			case waiting <- struct{}{}:
			default:
			}
		})
		en := map[string]string{}
		for i := range 6 {
			en[fmt.Sprintf("k%d", i)] = fmt.Sprintf("Hello {name}, line %d", i)
		}
		x.sync(t, "en", "app", en, false)
		end := x.cat.Store().(model.ChunkedStore).BulkWrite()
		defer end()
		done := make(chan error, 1)
		go func() {
			_, err := x.cat.RunCheckup(x.ctx, x.proj, "test")
			done <- err
		}()
		<-waiting
		if n := stored.Load(); n != 0 {
			t.Errorf("the checkup stored %d chunks while a big write was in flight", n)
		}
		end()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if stored.Load() == 0 {
			t.Error("the checkup stored no chunk")
		}
		x.sameAsReference(t, "")
	})
}

// TestChunkedWriteIsInFlight: a write that creates more keys than the chunk threshold is
// marked in flight from its first chunk (SQLite; PostgreSQL makes none) through its
// transaction until it returned, so that background work waits for it; a small write is not.
func TestChunkedWriteIsInFlight(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		var cs model.ChunkedStore
		var inTx, idleInTx atomic.Int64 // the syncs' transactions, and those not marked
		x := newCheckupFixture(t, dialect, func(o *tools.Options) {
			o.Hooks = append(o.Hooks, func(_ context.Context, _ model.Tx, ev model.WriteEvent) error {
				if ev.Op == model.OpSync {
					inTx.Add(1)
					select {
					case <-cs.BulkIdle():
						idleInTx.Add(1)
					default:
					}
				}
				return nil
			})
		})
		cs = x.cat.Store().(model.ChunkedStore)
		var chunks, idle atomic.Int64
		tools.SetBulkChunks(x.cat, 10, 10, func(context.Context, int) {
			chunks.Add(1)
			select {
			case <-cs.BulkIdle():
				idle.Add(1)
			default:
			}
		})
		many := map[string]string{}
		for i := range 35 {
			many[fmt.Sprintf("k%03d", i)] = fmt.Sprintf("Line %d", i)
		}
		x.sync(t, "en", "few", map[string]string{"a": "A", "b": "B"}, true)
		if inTx.Load() != 1 || idleInTx.Load() != 1 {
			t.Errorf("a 2-key sync: %d transactions, %d of them not marked in flight; want 1 and 1", inTx.Load(), idleInTx.Load())
		}
		x.sync(t, "en", "many", many, true)
		if inTx.Load() != 2 || idleInTx.Load() != 1 {
			t.Errorf("a 35-key sync's transaction was not marked in flight (%d transactions, %d not marked)", inTx.Load(), idleInTx.Load())
		}
		want := int64(0)
		if dialect == "sqlite" {
			want = 4
		}
		if n := chunks.Load(); n != want {
			t.Errorf("%d chunks committed, want %d", n, want)
		}
		if n := idle.Load(); n != 0 {
			t.Errorf("%d chunks committed with no chunked write in flight", n)
		}
		select {
		case <-cs.BulkIdle():
		default:
			t.Error("a chunked write is still in flight after it returned")
		}
	})
}
