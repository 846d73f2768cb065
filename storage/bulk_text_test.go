package storage_test

import (
	"fmt"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// Keys and values come back byte for byte, whatever they hold: quotes, backslashes,
// control characters, line separators, astral characters, and bytes that are not UTF-8
// (SQLite binds them to multi-row statements), in a batch
// big enough for the bulk path; each row's history entry holds its value.
func TestBulkInsertKeepsText(t *testing.T) {
	t.Parallel()
	texts := []string{`say "hi"`, `back\slash \n \u0041`, "line\nbreak\ttab\r", "bell\x07 esc\x1b del\x7f", "sep\u2028par\u2029",
		"emoji 😀 𝄞", "ünïcödé 日本語", "</script>", "{count, plural, one {# item} other {# items}}", "bad \xff\xfe utf8"}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		var ns model.Namespace
		want := map[string]string{}
		err := db.Update(sys(t), f.Project.ID, func(tx model.Tx) error {
			var err error
			if ns, err = tx.CreateNamespace(sys(t), f.Project.ID, "text"); err != nil {
				return err
			}
			var keys []model.NewKey
			for i := 0; i < 300; i++ {
				keys = append(keys, model.NewKey{NamespaceID: ns.ID, Key: fmt.Sprintf("%s %d", texts[i%(len(texts)-1)], i), SourceVersion: 1})
			}
			ids, err := tx.InsertKeys(sys(t), keys)
			if err != nil {
				return err
			}
			v := int64(1)
			var writes []model.TranslationWrite
			for i, id := range ids {
				value := fmt.Sprintf("%d %s", i, texts[i%len(texts)])
				if model.GateValue(keys[i].Key, value) != nil {
					continue
				}
				want[keys[i].Key] = value
				writes = append(writes, model.TranslationWrite{KeyID: id, Key: keys[i].Key, Language: "en", Value: value,
					Status: model.StatusApproved, SourceVersion: &v, Change: model.ChangeValueCreated})
			}
			return tx.WriteTranslations(sys(t), writes)
		})
		if err != nil {
			t.Fatal(err)
		}
		keys := readKeys(t, db, ns, f.Project.SourceLanguage, f.Project.SourceLanguage)
		if len(keys) != 300 {
			t.Fatalf("%d keys read back, want 300", len(keys))
		}
		err = db.View(t.Context(), func(tx model.Tx) error {
			for _, k := range keys {
				w, ok := want[k.Key]
				switch {
				case !ok && k.Value != nil:
					t.Errorf("key %q: unexpected row %q", k.Key, k.Value.Value)
				case !ok:
				case k.Value == nil || k.Value.Value != w:
					t.Errorf("key %q: value %+v, want %q", k.Key, k.Value, w)
				default:
					h, err := tx.RowHistory(t.Context(), k.ID, f.Project.SourceLanguage, 0)
					if err != nil {
						return err
					}
					if len(h) != 1 || h[0].Value != w {
						t.Errorf("key %q: history %+v, want one entry of %q", k.Key, h, w)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(want) < 200 {
			t.Fatalf("only %d values passed the gate", len(want))
		}
	})
}
