package storage_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestTrigramIndexAfterBulkWrites: after a big write, values rewritten longer and shorter
// than three characters, and rows removed, search by value and by key name finds exactly
// the rows that hold the text; on SQLite the trigram tables, which the write path fills
// per batch and which leave out text under three characters, stay consistent.
func TestTrigramIndexAfterBulkWrites(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		ctx := sys(t)
		values := map[string]string{}
		for i := range 600 {
			k, v := fmt.Sprintf("k%d", i), "v"
			switch {
			case i%3 == 1:
				v = fmt.Sprintf("value %d of the zebra", i)
			case i%7 == 2:
				v = "ab"
			}
			values[k] = v
		}
		searchSeed(t, db, f.Project.ID, "bulk", values)
		var nsID int64
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			rows, err := tx.ProjectTranslations(ctx, f.Project.ID, "en")
			if err != nil {
				return err
			}
			var ws []model.TranslationWrite
			var remove []int64
			for _, r := range rows {
				var i int
				fmt.Sscanf(r.Key, "k%d", &i)
				v := ""
				switch i % 10 {
				case 0:
					v = "zebra crossing " + r.Key // short to long
				case 1:
					v = "z" // long to short
				case 4:
					v = "zebra " + r.Key // long to long
				case 5:
					remove = append(remove, r.KeyID)
					delete(values, r.Key)
					continue
				default:
					continue
				}
				values[r.Key] = v
				ws = append(ws, model.TranslationWrite{ID: r.Row.ID, KeyID: r.KeyID, Key: r.Key, Language: "en", Value: v, Status: model.StatusApproved, Change: model.ChangeValueUpdated})
			}
			if err := tx.WriteTranslations(ctx, ws); err != nil {
				return err
			}
			ns, err := tx.Namespace(ctx, f.Project.ID, "bulk")
			if err != nil {
				return err
			}
			nsID = ns.ID
			return tx.(model.StagingTx).RemoveStagedKeys(ctx, ns.ID, remove)
		}); err != nil {
			t.Fatal(err)
		}
		check := func(t *testing.T) {
			for _, q := range []string{"zebra", "ZEBRA CROSS", "k12", "k59", "ab", "value 1", "v", "z", "k1"} {
				for _, byKey := range []bool{false, true} {
					var want []string
					for k, v := range values {
						in := v
						if byKey {
							in = k
						}
						if strings.Contains(strings.ToLower(in), strings.ToLower(q)) {
							want = append(want, k+"="+v)
						}
					}
					flt := model.SearchFilter{ProjectID: f.Project.ID, ValueContains: q}
					if byKey {
						flt = model.SearchFilter{ProjectID: f.Project.ID, KeyContains: q}
					}
					if got := searchAll(t, db, flt); !sameSet(got, want) {
						t.Errorf("key %v, %q: found %d rows, want %d", byKey, q, len(got), len(want))
					}
				}
			}
		}
		check(t)
		if dialect != "sqlite" {
			return
		}
		raw := storagetest.SQL(t, dsn)
		// The bulk update indexed its values itself and left the trigger on for others.
		var deferred int
		if err := raw.QueryRow(`SELECT COUNT(*) FROM trigram_deferred`).Scan(&deferred); err != nil || deferred != 0 {
			t.Errorf("trigram_deferred holds %d rows (%v), want none after the write", deferred, err)
		}
		for _, fts := range []string{"translations_trgm", "translation_keys_trgm"} {
			if _, err := raw.Exec(`INSERT INTO ` + fts + ` (` + fts + `) VALUES ('integrity-check')`); err != nil {
				t.Errorf("%s: %v", fts, err)
			}
		}
		// Ids that do not follow each other are indexed as a list: keys stored by hand, every
		// other one indexed, are found by name exactly then.
		var ids []int64
		for i := range 6 {
			res, err := raw.Exec(`INSERT INTO translation_keys (namespace_id, key, key_hash, hidden, source_version, created_at, updated_at)
VALUES (?, ?, ?, 0, 1, '2026-11-24 00:00:00+00:00', '2026-11-24 00:00:00+00:00')`, nsID, fmt.Sprintf("byhand_%d", i), fmt.Sprintf("hash-byhand-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			id, _ := res.LastInsertId()
			if i%2 == 0 {
				ids = append(ids, id)
			}
		}
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error { return storage.IndexTrigrams(ctx, tx, true, ids) }); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := raw.QueryRow(`SELECT COUNT(*) FROM translation_keys_trgm WHERE translation_keys_trgm MATCH '"byhand_"'`).Scan(&n); err != nil || n != 3 {
			t.Errorf("keys indexed by list: %d, %v; want 3", n, err)
		}
	})
}
