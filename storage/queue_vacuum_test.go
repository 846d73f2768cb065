package storage_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Once checkups have taken enough marks off the queue, PostgreSQL's queue is vacuumed, so
// that walks of it in key order stop stepping over the marks taken; SQLite frees a mark as
// it deletes it. Either way the checkup leaves the queue empty.
func TestCheckupQueueVacuumedAfterCheckups(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		const keys = 30
		storage.SetQueueVacuumMin(db, keys)
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(context.Background(), tools.System)
		entries := map[string]string{}
		for i := range keys {
			entries[fmt.Sprintf("k%02d", i)] = "Value {count}"
		}
		if _, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, Partial: true,
			NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "vacuum"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.RunCheckup(ctx, f.Project.ID, "job"); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil { // waits for the vacuum
			t.Fatal(err)
		}
		raw := storagetest.SQL(t, dsn)
		var marks int
		if err := raw.QueryRow(`SELECT COUNT(*) FROM checkup_queue`).Scan(&marks); err != nil {
			t.Fatal(err)
		}
		if marks != 0 {
			t.Errorf("the queue holds %d marks after the checkup, want none", marks)
		}
		if dialect != "postgres" {
			return
		}
		var vacuums int
		if err := raw.QueryRow(`SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'checkup_queue'`).Scan(&vacuums); err != nil {
			t.Fatal(err)
		}
		if vacuums == 0 {
			t.Errorf("the checkup took %d or more marks and the queue was not vacuumed", keys)
		}
	})
}
