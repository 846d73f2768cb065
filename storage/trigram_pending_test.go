package storage_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// A big write's rows are indexed after its commit, and their trigram entries do not wait in
// the GIN indexes' pending lists for a later write to merge them in its own request: once
// the store closes (it waits for its background work) neither rows nor lists are pending.
// A few rows are not worth a pass: they stay in trigram_pending, where searches read them,
// until the rows written add up. PostgreSQL only: SQLite's FTS5 tables have no such list.
func TestTrigramPendingListsMergedAfterWrite(t *testing.T) {
	t.Parallel()
	if !slices.Contains(storagetest.Dialects, "postgres") {
		t.Skip("PostgreSQL only, and not among the dialects of this run")
	}
	// pending says how many runs of rows wait to be indexed, then merges what the lists
	// hold and says how many pages that was.
	pending := func(t *testing.T, dsn string) []int {
		t.Helper()
		sqlDB := storagetest.SQL(t, dsn)
		var runs int
		if err := sqlDB.QueryRow(`SELECT COUNT(*) FROM trigram_pending`).Scan(&runs); err != nil {
			t.Fatal(err)
		}
		out := []int{runs}
		for _, index := range []string{"translations_value_trgm", "keys_key_trgm"} {
			var pages int
			if err := sqlDB.QueryRow(`SELECT gin_clean_pending_list(to_regclass($1))`, index).Scan(&pages); err != nil {
				t.Fatal(err)
			}
			out = append(out, pages)
		}
		return out
	}
	write := func(t *testing.T, keys int) []int {
		dsn, f := storagetest.FixtureDSN(t, "postgres")
		if _, err := storagetest.SQL(t, dsn).Exec(`DELETE FROM trigram_pending`); err != nil { // the fixture's own rows
			t.Fatal(err)
		}
		pending(t, dsn)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
		entries := map[string]string{}
		for i := range keys {
			entries[fmt.Sprintf("pending.key_%d.label", i)] = fmt.Sprintf("A value of key %d with trigrams to index.", i)
		}
		ctx := model.WithPrincipal(context.Background(), tools.System)
		if _, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, Partial: true,
			NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "pending"}}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return pending(t, dsn)
	}
	if left := write(t, 1000); !slices.Equal(left, []int{0, 0, 0}) {
		t.Errorf("after a write of 1,000 keys and the store's background work, runs pending and the value and key indexes' pending pages were %v", left)
	}
	if left := write(t, 10); left[0] == 0 {
		t.Errorf("a write of 10 keys was indexed at once (pending runs, pages: %v): a pass for a few rows is work for nothing", left)
	}
}

// Rows a store left pending when it stopped (a write too small for a pass) are indexed by
// the next store to open the database, not left until a thousand more rows are written.
func TestTrigramPendingIndexedAtOpen(t *testing.T) {
	t.Parallel()
	if !slices.Contains(storagetest.Dialects, "postgres") {
		t.Skip("PostgreSQL only, and not among the dialects of this run")
	}
	dsn, f := storagetest.FixtureDSN(t, "postgres")
	sqlDB := storagetest.SQL(t, dsn)
	count := func(q string) int {
		t.Helper()
		var n int
		if err := sqlDB.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT COUNT(*) FROM trigram_pending`); n != 0 {
		t.Fatalf("the fixture's database holds %d pending runs: every test's store would start with a pass", n)
	}
	db := storagetest.MustOpen(t, dsn, nil)
	cat := storagetest.Catalog(db, nil)
	ctx := model.WithPrincipal(context.Background(), tools.System)
	if _, err := cat.Sync(ctx, tools.SyncIn{Translations: map[string]string{"left.behind": "Zebra crossing"}, Partial: true,
		NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "left"}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := count(`SELECT COUNT(*) FROM trigram_pending`); n == 0 {
		t.Fatal("a one-key write was indexed at once: the test needs rows left pending")
	}
	if err := storagetest.MustOpen(t, dsn, nil).Close(); err != nil { // Close waits for the pass
		t.Fatal(err)
	}
	if n := count(`SELECT COUNT(*) FROM trigram_pending`); n != 0 {
		t.Errorf("%d runs still pending after a store opened and closed", n)
	}
	if n := count(`SELECT COUNT(*) FROM translations_trgm WHERE value = 'zebra crossing'`); n != 1 {
		t.Errorf("the value's side row: %d, want 1", n)
	}
	if n := count(`SELECT COUNT(*) FROM translation_keys_trgm WHERE key = 'left.behind'`); n != 1 {
		t.Errorf("the key's side row: %d, want 1", n)
	}
}

// On SQLite, writes add FTS5 segments without merging them (automerge 0): a burst of
// writes leaves them to the store's background work, which merges them once the store has
// closed, and search still finds every written row meanwhile and after. SQLite only:
// PostgreSQL's counterpart is TestTrigramPendingListsMergedAfterWrite.
func TestTrigramSegmentsMergedAfterWrites(t *testing.T) {
	t.Parallel()
	if !slices.Contains(storagetest.Dialects, "sqlite") {
		t.Skip("SQLite only, and not among the dialects of this run")
	}
	dsn, f := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
	ctx := model.WithPrincipal(context.Background(), tools.System)
	const writes, keys = 12, 50
	for w := range writes {
		entries := map[string]string{}
		for i := range keys {
			entries[fmt.Sprintf("seg.w%d_k%d", w, i)] = fmt.Sprintf("Segment write %d value %d quokka", w, i)
		}
		if _, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, Partial: true,
			NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "seg"}}); err != nil {
			t.Fatal(err)
		}
	}
	found := func(t *testing.T) int {
		t.Helper()
		return len(searchAll(t, db, model.SearchFilter{ProjectID: f.Project.ID, ValueContains: "quokka"}))
	}
	if n := found(t); n != writes*keys {
		t.Fatalf("search found %d values before the merge, want %d", n, writes*keys)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	sqlDB := storagetest.SQL(t, dsn)
	for _, fts := range []string{"translations_trgm", "translation_keys_trgm"} {
		var segments int
		if err := sqlDB.QueryRow(`SELECT COUNT(DISTINCT segid) FROM ` + fts + `_idx`).Scan(&segments); err != nil {
			t.Fatal(err)
		}
		// usermerge 8: a merged index holds fewer than 8 segments on each level, and these
		// few rows make one or two levels.
		if segments >= 8 {
			t.Errorf("%s holds %d segments after %d writes and the store's background work: they were not merged", fts, segments, writes)
		}
	}
	db = storagetest.MustOpen(t, dsn, nil)
	if n := found(t); n != writes*keys {
		t.Errorf("search found %d values after the merge, want %d", n, writes*keys)
	}
}
