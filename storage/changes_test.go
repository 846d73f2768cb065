package storage_test

import (
	"fmt"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestChangeJournalTrimmed: the journal keeps the newest revisions only, however many
// writes come, so that it stays small without a job to empty it.
func TestChangeJournalTrimmed(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		// The journal as 2,300 and more writes would leave it, one row per revision, up to
		// two revisions before a trim: 2,600 real ones took 77 s on PostgreSQL (three
		// statements each, one at a time), and the trim is what a write does at a multiple
		// of 256. The writes below cross it.
		raw := storagetest.SQL(t, dsn)
		var rev int64
		if err := raw.QueryRow(`SELECT value FROM lokal_revision WHERE id = 1`).Scan(&rev); err != nil {
			t.Fatal(err)
		}
		trim := ((rev+2300)/256 + 1) * 256
		seed := fmt.Sprintf(`INSERT INTO cache_changes (revision, project_id, scope, namespace, key)
			WITH RECURSIVE g(r) AS (SELECT %d UNION ALL SELECT r + 1 FROM g WHERE r < %d)
			SELECT r, '%s', 'project', '', '' FROM g`, rev+1, trim-2, f.Project.ID)
		for _, q := range []string{seed, fmt.Sprintf(`UPDATE lokal_revision SET value = %d WHERE id = 1`, trim-2)} {
			if _, err := raw.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		db := storagetest.MustOpen(t, dsn, nil)
		err := db.Update(t.Context(), f.Project.ID, func(tx model.Tx) error {
			for range 5 {
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
		if newest != trim+3 || newest-oldest >= 2048+256 || rows > 2048+256 || newest-oldest < 2048 {
			t.Errorf("the journal holds %d rows, revisions %d to %d: want the newest 2,048 to 2,304", rows, oldest, newest)
		}
	})
}
