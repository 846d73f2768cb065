package storage_test

import (
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// TestUpgradeCountsProgress: after the upgrade of every release, each project's status
// counters, with the current rows split into approved, to review and AI drafts, equal a
// count of its rows, in all and per namespace.
func TestUpgradeCountsProgress(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, r := range releases(t) {
			t.Run(r, func(t *testing.T) {
				dsn, _ := loadRelease(t, dialect, r)
				box, err := secrets.New(make([]byte, secrets.KeySize))
				if err != nil {
					t.Fatal(err)
				}
				db, err := storage.Open(t.Context(), dsn, &storage.Options{Secrets: box, MustExist: true})
				if err != nil {
					t.Fatalf("upgrading: %v", err)
				}
				defer db.Close()
				rows, err := rawDB(t, dsn).QueryContext(t.Context(), `SELECT id FROM projects`)
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for rows.Next() {
					var id string
					if err := rows.Scan(&id); err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
				}
				rows.Close()
				if len(ids) == 0 {
					t.Fatal("the fixture has no project")
				}
				review := 0
				for _, id := range ids {
					var want, got []model.LanguageCounts
					if err := db.View(t.Context(), func(tx model.Tx) error {
						p, err := tx.Project(t.Context(), id)
						if err != nil {
							return err
						}
						if want, err = tx.LanguageCounts(t.Context(), p); err != nil {
							return err
						}
						got, err = tx.StatusCounts(t.Context(), p)
						return err
					}); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(want, got) {
						t.Errorf("project %s: the counters say %+v, a count of the rows %+v", id, got, want)
					}
					var diff string
					if err := db.View(t.Context(), func(tx model.Tx) (err error) {
						diff, err = storagetest.CheckNamespaceCounts(t.Context(), tx, id, nil)
						return err
					}); err != nil {
						t.Fatal(err)
					} else if diff != "" {
						t.Errorf("project %s: the namespace counters differ from a count of the rows: %s", id, diff)
					}
					for _, n := range got {
						review += n.ToReview
					}
				}
				if review == 0 {
					t.Error("no current row to review: the fixture does not test the split")
				}
			})
		}
	})
}
