package storage_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestWriteTranslationsGate: the store is the last line of the value gate, so that a door
// that forgets to call it still stores nothing it refuses; before, PostgreSQL dropped a
// NUL that SQLite kept. A refused value rolls the whole batch back.
func TestWriteTranslationsGate(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := tools.NewCatalog(db, nil)
		ref := tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(sys(t), tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"a": "one", "b": "two"}}); err != nil {
			t.Fatal(err)
		}
		read := func() []tools.KeyState {
			var keys []tools.KeyState
			err := db.View(sys(t), func(tx tools.Tx) error {
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
			{"NUL", "a\x00b", tools.CodeUnprocessable},
			{"invalid UTF-8", "a\xffb", tools.CodeUnprocessable},
			{"surrogate bytes", "\xed\xa0\x80", tools.CodeUnprocessable},
			{"over-long", strings.Repeat("x", tools.MaxValueBytes+1), tools.CodeUnprocessable},
			{"script URL", "javascript:alert(1)", tools.CodeInvalidTranslation},
		} {
			err := db.Update(sys(t), f.Project.ID, func(tx tools.Tx) error {
				var writes []tools.TranslationWrite
				for _, k := range before {
					writes = append(writes, tools.TranslationWrite{ID: k.Source.ID, KeyID: k.ID, Key: k.Key, Language: "en", Value: "fine",
						Status: tools.StatusApproved, Change: tools.ChangeValueUpdated})
				}
				writes[len(writes)-1].Value = c.value
				return tx.WriteTranslations(sys(t), writes)
			})
			if tools.ErrorCode(err) != c.code {
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
