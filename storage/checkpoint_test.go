package storage_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestSQLiteWALStartsOverUnderSteadyWrites: when every PASSIVE checkpoint leaves frames
// behind (here a reader of an older snapshot holds them, as writes appended while it runs
// do under a stream of writes), the WAL still starts over once it is past its limit, so its
// file stops growing. It always runs on SQLite: the WAL is SQLite's.
func TestSQLiteWALStartsOverUnderSteadyWrites(t *testing.T) {
	t.Parallel()
	dsn, f := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	ctx := t.Context()
	write := func() {
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error { return tx.Touch(ctx, f.Project.ID) }); err != nil {
			t.Fatal(err)
		}
	}
	// No checkpoint starts by itself; the reader's snapshot ends between the test's
	// PASSIVE checkpoint and the restart.
	release, ended := make(chan struct{}), make(chan struct{})
	storage.SetCheckpoints(db, time.Hour, 16, func() {
		select {
		case <-release: // a second pass of the same checkpoint
		default:
			close(release)
		}
		<-ended
	})
	wal := strings.TrimPrefix(dsn, "sqlite:") + "-wal"
	size := func() int64 {
		fi, err := os.Stat(wal)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	round := func() {
		for range 10 {
			write()
		}
		release, ended = make(chan struct{}), make(chan struct{})
		reading := make(chan struct{})
		go func() {
			defer close(ended)
			db.View(ctx, func(tx model.Tx) error { //nolint:errcheck // the snapshot is what matters
				if _, err := tx.Project(ctx, f.Project.ID); err != nil {
					t.Error(err)
				}
				close(reading)
				<-release
				return nil
			})
		}()
		<-reading
		write() // past the reader's snapshot: the PASSIVE checkpoint leaves it in the WAL
		if err := storage.CheckpointWAL(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	// Each round appends about 250 KB of frames. Started over after each round, the file
	// stays near that; on a busy machine a restart can come a round late (seen once: 450
	// KB), while a WAL that never starts over grows to about 9 MB in these 40 rounds.
	const bound = 2 << 20
	for i := range 40 {
		round()
		if got := size(); got > bound {
			t.Fatalf("after %d rounds of writes and checkpoints the WAL holds %d bytes, more than %d: it does not start over", i+1, got, bound)
		}
	}
}

// TestSQLitePageCaches: the readers' page caches together are no bigger than the writer's,
// whatever the number of cores: they live outside the Go heap and its memory limit, and a
// reader's is dropped whenever another connection wrote. It always runs on SQLite: the
// page cache is SQLite's.
func TestSQLitePageCaches(t *testing.T) {
	t.Parallel()
	dsn, _ := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	writer, reader, err := storage.PageCaches(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	// Negative: KB.
	if writer >= 0 || reader >= 0 {
		t.Fatalf("cache_size writer %d, reader %d: want sizes in KB (negative)", writer, reader)
	}
	if writer != -64*1024 {
		t.Errorf("the writer's page cache is %d KB, want 64 MB", -writer)
	}
	if total := -reader * storage.SQLiteReaders(); total > -writer && -reader > 2*1024 {
		t.Errorf("the %d readers' page caches take %d KB together, more than the writer's %d KB", storage.SQLiteReaders(), total, -writer)
	}
}
