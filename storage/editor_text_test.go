package storage_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// reviewAll pages through ReviewRows two keys at a time and returns the keys found, in
// key id order, failing on a page out of order.
func reviewAll(t *testing.T, db *storage.DB, f model.ReviewFilter) []string {
	t.Helper()
	ctx := sys(t)
	var got []string
	f.Limit = 2
	for range 1000 {
		var rows []model.ReviewRow
		if err := db.View(ctx, func(tx model.Tx) error {
			var err error
			rows, err = tx.ReviewRows(ctx, f)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.KeyID <= f.AfterKeyID {
				t.Fatalf("%+v: key %s (%d) is not after the cursor", f, r.Key, r.KeyID)
			}
			got = append(got, r.Key)
			f.AfterKeyID = r.KeyID
		}
		if len(rows) < f.Limit {
			return got
		}
	}
	t.Fatalf("%+v: pages do not end", f)
	return nil
}

// TestReviewTextFilter: the editor's text filter finds the text in the key, the source or
// the language's value, case folded, alone and with the other filters, the same whether
// the trigram indexes narrow the keys, name too many (a walk) or cannot help (two
// letters); the other language's values, hidden keys and other projects never match; and
// the indexes follow a rewritten value.
func TestReviewTextFilter(t *testing.T) {
	type row struct{ key, en, nb, sv, status string }
	rows := []row{
		{"greeting.title", "Welcome aboard", "Velkommen om bord", "", model.StatusApproved},
		{"greeting.body", "Glad to SEE you", "", "Kul att se dig", ""},
		{"billing.quokka", "Pay now", "Betal nå", "", model.StatusNeedsReview},
		{"billing.total", "Total: 100% due", "Totalt: 100% forfalt", "", model.StatusNeedsReview},
		{"shipping.label", "Ship to Straße", "Send til STRASSE", "", model.StatusApproved},
		{"profile.name", "Your name", "Ditt quokkanavn", "", model.StatusApproved},
		{"profile.bio", "About you", "", "", ""},
		{"hidden.quokka", "quokka hidden", "skjult quokka", "", model.StatusApproved},
	}
	for i := range 20 {
		rows = append(rows, row{fmt.Sprintf("common.k%02d", i), fmt.Sprintf("common word %02d", i), fmt.Sprintf("vanlig ord %02d", i), "", model.StatusApproved})
	}
	queries := []string{"quokka", "QUOKKA", "welcome", "om bord", "se", "kul att", "100%", "straße", "strasse", "common", "word 1",
		"vanlig", "zzz", "ab", "ship", "you", "greeting"}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rows := slices.Clone(rows) // each dialect rewrites a value of its own
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := sys(t)
		seed := func(projectID string) {
			if err := db.Update(ctx, projectID, func(tx model.Tx) error {
				n, err := tx.CreateNamespace(ctx, projectID, "text")
				if err != nil {
					return err
				}
				var nk []model.NewKey
				for _, r := range rows {
					nk = append(nk, model.NewKey{NamespaceID: n.ID, Key: r.key, SourceVersion: 1})
				}
				ids, err := tx.InsertKeys(ctx, nk)
				if err != nil {
					return err
				}
				var ws []model.TranslationWrite
				var hide []int64
				for i, r := range rows {
					for lang, v := range map[string]string{"en": r.en, "nb": r.nb, "sv": r.sv} {
						if v == "" {
							continue
						}
						st := r.status
						if lang != "nb" {
							st = model.StatusApproved
						}
						ws = append(ws, model.TranslationWrite{KeyID: ids[i], Key: r.key, Language: lang, Value: v, Status: st, Change: model.ChangeValueCreated})
					}
					if strings.HasPrefix(r.key, "hidden.") {
						hide = append(hide, ids[i])
					}
				}
				if err := tx.WriteTranslations(ctx, ws); err != nil {
					return err
				}
				return tx.SetHidden(ctx, hide, true)
			}); err != nil {
				t.Fatal(err)
			}
		}
		seed(f.Project.ID)
		seed(f.Other.ID) // the same text elsewhere: never found
		filters := []struct {
			name string
			f    model.ReviewFilter
			pass func(row) bool
		}{
			{"all", model.ReviewFilter{}, func(row) bool { return true }},
			{"missing", model.ReviewFilter{Missing: true}, func(r row) bool { return r.nb == "" }},
			{"needs review", model.ReviewFilter{Status: model.StatusNeedsReview}, func(r row) bool { return r.nb != "" && r.status == model.StatusNeedsReview }},
			{"approved", model.ReviewFilter{Status: model.StatusApproved}, func(r row) bool { return r.nb != "" && r.status == model.StatusApproved }},
		}
		check := func(t *testing.T) {
			for _, q := range queries {
				for _, fl := range filters {
					var want []string
					lq := strings.ToLower(q)
					for _, r := range rows {
						if strings.HasPrefix(r.key, "hidden.") || !fl.pass(r) {
							continue
						}
						if strings.Contains(strings.ToLower(r.key), lq) || strings.Contains(strings.ToLower(r.en), lq) || strings.Contains(strings.ToLower(r.nb), lq) {
							want = append(want, r.key)
						}
					}
					flt := fl.f
					flt.ProjectID, flt.SourceLanguage, flt.Language, flt.Text = f.Project.ID, "en", "nb", q
					if got := reviewAll(t, db, flt); !sameSet(got, want) {
						t.Errorf("%s, %q: found %q, want %q", fl.name, q, got, want)
					}
				}
			}
		}
		t.Run("indexed", check)
		t.Run("walking", func(t *testing.T) {
			t.Cleanup(storage.SetSearchCandidates(1))
			check(t)
		})
		// A value rewritten: the old text is gone, the new found.
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			trs, err := tx.ProjectTranslations(ctx, f.Project.ID, "nb")
			if err != nil {
				return err
			}
			for _, tr := range trs {
				if tr.Key == "profile.name" {
					return tx.WriteTranslations(ctx, []model.TranslationWrite{{ID: tr.Row.ID, KeyID: tr.KeyID, Key: tr.Key, Language: "nb",
						Value: "Ditt navn", Status: model.StatusApproved, Change: model.ChangeValueUpdated}})
				}
			}
			return fmt.Errorf("profile.name has no nb row")
		}); err != nil {
			t.Fatal(err)
		}
		rows[5].nb = "Ditt navn"
		t.Run("after a write", check)
	})
}
