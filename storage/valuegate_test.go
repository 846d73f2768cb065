package storage_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestWriteTranslationsGate: the store is the last line of the value gate, so that a door
// that forgets to call it still stores nothing it refuses; before, PostgreSQL dropped a
// NUL that SQLite kept. A refused value rolls the whole batch back.
func TestWriteTranslationsGate(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		ref := tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(sys(t), tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"a": "one", "b": "two"}}); err != nil {
			t.Fatal(err)
		}
		read := func() []model.KeyState {
			var keys []model.KeyState
			err := db.View(sys(t), func(tx model.Tx) error {
				ns, err := tx.Namespace(sys(t), f.Project.ID, "app")
				if err != nil {
					return err
				}
				keys, err = tx.Keys(sys(t), ns, "en", "nb")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return keys
		}
		before := read()
		for _, c := range []struct{ name, value, code string }{
			{"NUL", "a\x00b", model.CodeUnprocessable},
			{"invalid UTF-8", "a\xffb", model.CodeUnprocessable},
			{"surrogate bytes", "\xed\xa0\x80", model.CodeUnprocessable},
			{"over-long", strings.Repeat("x", model.MaxValueBytes+1), model.CodeUnprocessable},
			{"script URL", "javascript:alert(1)", model.CodeInvalidTranslation},
		} {
			err := db.Update(sys(t), f.Project.ID, func(tx model.Tx) error {
				var writes []model.TranslationWrite
				for _, k := range before {
					writes = append(writes, model.TranslationWrite{ID: k.Source.ID, KeyID: k.ID, Key: k.Key, Language: "en", Value: "fine",
						Status: model.StatusApproved, Change: model.ChangeValueUpdated})
				}
				writes[len(writes)-1].Value = c.value
				return tx.WriteTranslations(sys(t), writes)
			})
			if model.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
			after := read()
			for i := range before {
				if after[i].Source.Value != before[i].Source.Value {
					t.Errorf("%s: %s is %q, was %q", c.name, before[i].Key, after[i].Source.Value, before[i].Source.Value)
				}
			}
		}
	})
}
