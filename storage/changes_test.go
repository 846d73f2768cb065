package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestChangeJournalTrimmed: the journal keeps the newest revisions only, however many
// writes come, so that it stays small without a job to empty it.
func TestChangeJournalTrimmed(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 2,600 revisions in one transaction, one at a time; the plain run keeps it")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		err := db.Update(t.Context(), f.Project.ID, func(tx model.Tx) error {
			for i := 0; i < 2600; i++ {
				if err := tx.Touch(t.Context(), f.Project.ID); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var rows, oldest, newest int64
		if err := storagetest.SQL(t, dsn).QueryRow(`SELECT COUNT(*), MIN(revision), MAX(revision) FROM cache_changes`).Scan(&rows, &oldest, &newest); err != nil {
			t.Fatal(err)
		}
		if newest-oldest >= 2048+256 || rows > 2048+256 || newest-oldest < 2048 {
			t.Errorf("the journal holds %d rows, revisions %d to %d: want the newest 2,048 to 2,304", rows, oldest, newest)
		}
	})
}
