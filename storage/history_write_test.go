package storage_test

import (
	"fmt"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// Every row WriteTranslations inserts or updates gets one history entry with the row's
// value, status, flags, version, actor and time, labelled by HistoryChange or else by the
// change: whether the inserts' labels are all the same (PostgreSQL writes rows and
// history in one statement then) or not, and with updates in the same call.
func TestWriteTranslationsHistory(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ns := writesNamespace(t, db, f, "history", 6)
		keys := readKeys(t, db, ns, f.Project.SourceLanguage, "de")
		v1, v2 := int64(1), int64(2)
		type want struct {
			change, value, status string
			dnt, locked           bool
			version               *int64
		}
		wants := map[int64][]want{} // newest first, as RowHistory lists them
		write := func(writes []model.TranslationWrite) {
			t.Helper()
			if err := db.Update(sys(t), f.Project.ID, func(tx model.Tx) error { return tx.WriteTranslations(sys(t), writes) }); err != nil {
				t.Fatal(err)
			}
			for _, w := range writes {
				label := string(w.Change)
				if w.HistoryChange != "" {
					label = w.HistoryChange
				}
				wants[w.KeyID] = append([]want{{label, w.Value, w.Status, w.DoNotTranslate, w.LanguageLocked, w.SourceVersion}}, wants[w.KeyID]...)
			}
		}
		// The same label for every insert.
		var same []model.TranslationWrite
		for i, k := range keys[:3] {
			same = append(same, model.TranslationWrite{KeyID: k.ID, Key: k.Key, Language: "de", Value: fmt.Sprintf("Wert %d", i),
				Status: model.StatusNeedsReview, DoNotTranslate: i == 1, LanguageLocked: i == 2, SourceVersion: &v1, Change: model.ChangeValueCreated})
		}
		write(same)
		// Mixed labels, and an update of a row the first write made.
		rows := readKeys(t, db, ns, f.Project.SourceLanguage, "de")
		mixed := []model.TranslationWrite{
			{KeyID: rows[0].ID, Key: rows[0].Key, Language: "de", Value: "Neu", ID: rows[0].Value.ID, Status: model.StatusApproved,
				SourceVersion: &v2, Change: model.ChangeValueUpdated},
			{KeyID: keys[3].ID, Key: keys[3].Key, Language: "de", Value: "Vier", Status: model.StatusApproved, Change: model.ChangeValueCreated},
			{KeyID: keys[4].ID, Key: keys[4].Key, Language: "de", Value: "Fünf", Status: model.StatusApproved, SourceVersion: &v1,
				Change: model.ChangeValueCreated, HistoryChange: model.HistoryReverted},
		}
		write(mixed)
		// Updates and inserts of one label together.
		rows = readKeys(t, db, ns, f.Project.SourceLanguage, "de")
		write([]model.TranslationWrite{
			{KeyID: rows[1].ID, Key: rows[1].Key, Language: "de", Value: "Zwei", ID: rows[1].Value.ID, Status: model.StatusApproved,
				SourceVersion: &v2, Change: model.ChangeValueUpdated},
			{KeyID: keys[5].ID, Key: keys[5].Key, Language: "de", Value: "Sechs", Status: model.StatusApproved, SourceVersion: &v2,
				Change: model.ChangeValueCreated},
		})
		wantActor := model.PrincipalFrom(sys(t)).Actor()
		err := db.View(t.Context(), func(tx model.Tx) error {
			for _, k := range keys {
				got, err := tx.RowHistory(t.Context(), k.ID, "de", 0)
				if err != nil {
					return err
				}
				row, err := tx.KeyTranslations(t.Context(), k.ID)
				if err != nil {
					return err
				}
				w := wants[k.ID]
				if len(got) != len(w) {
					t.Errorf("%s: %d history entries, want %d", k.Key, len(got), len(w))
					continue
				}
				for i, e := range got {
					if e.Change != w[i].change || e.Value != w[i].value || e.Status != w[i].status || e.DoNotTranslate != w[i].dnt ||
						e.LanguageLocked != w[i].locked || !sameVersion(e.SourceVersion, w[i].version) || e.Actor != wantActor {
						t.Errorf("%s entry %d: %+v, want %+v by %s", k.Key, i, e, w[i], wantActor)
					}
					if i > 0 && e.ID >= got[i-1].ID {
						t.Errorf("%s: history ids %d then %d, want newest first", k.Key, got[i-1].ID, e.ID)
					}
				}
				for _, r := range row {
					if r.Language == "de" && !got[0].At.Equal(r.UpdatedAt) {
						t.Errorf("%s: newest entry at %s, the row updated at %s", k.Key, got[0].At, r.UpdatedAt)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func sameVersion(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// readKeys is tx.Keys of every key of ns in the source language and language, by name.
func readKeys(t *testing.T, db *storage.DB, ns model.Namespace, source, language string) []model.KeyState {
	t.Helper()
	var keys []model.KeyState
	if err := db.View(t.Context(), func(tx model.Tx) error {
		var err error
		keys, err = tx.Keys(t.Context(), ns, source, language)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return keys
}
