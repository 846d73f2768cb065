package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestViewRefusesWrites: a statement that writes fails in a read transaction on both
// databases and stores nothing (a dry-run import runs the write path in one and relies on
// it for any write its dryTx does not drop).
func TestViewRefusesWrites(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := t.Context()
		if err := db.View(ctx, func(tx model.Tx) error {
			_, err := tx.CreateNamespace(ctx, f.Project.ID, "probe")
			return err
		}); err == nil {
			t.Fatal("a write in a read transaction succeeded")
		}
		err := db.View(ctx, func(tx model.Tx) error {
			_, err := tx.Namespace(ctx, f.Project.ID, "probe")
			return err
		})
		if !model.IsNotFound(err) {
			t.Fatalf("the refused write's namespace: %v, want not found", err)
		}
	})
}
