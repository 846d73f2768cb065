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

// A write's trigram entries do not wait in the GIN indexes' pending lists for a later
// write to merge them in its own request: once the store closes (it waits for its
// background work) both lists are empty. PostgreSQL only: SQLite's FTS5 tables have no
// such list.
func TestTrigramPendingListsMergedAfterWrite(t *testing.T) {
	t.Parallel()
	if !slices.Contains(storagetest.Dialects, "postgres") {
		t.Skip("PostgreSQL only, and not among the dialects of this run")
	}
	dsn, f := storagetest.FixtureDSN(t, "postgres")
	db := storagetest.MustOpen(t, dsn, nil)
	cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
	entries := map[string]string{}
	for i := range 500 {
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
	sqlDB := storagetest.SQL(t, dsn)
	for _, index := range []string{"translations_value_trgm", "keys_key_trgm"} {
		// gin_clean_pending_list answers how many pending pages it merged: none if the
		// store merged them already.
		var pages int
		if err := sqlDB.QueryRow(`SELECT gin_clean_pending_list(to_regclass($1))`, index).Scan(&pages); err != nil {
			t.Fatal(err)
		}
		if pages != 0 {
			t.Errorf("%s still had %d pending pages after the write and the store's background work", index, pages)
		}
	}
}
