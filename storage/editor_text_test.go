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
		var through int64
		if err := db.View(ctx, func(tx model.Tx) error {
			var err error
			rows, through, err = tx.ReviewRows(ctx, f)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.KeyID <= f.AfterKeyID || (through > 0 && r.KeyID > through) {
				t.Fatalf("%+v: key %s (%d) is not after the cursor or past the window's end %d", f, r.Key, r.KeyID, through)
			}
			got = append(got, r.Key)
			f.AfterKeyID = r.KeyID
		}
		switch {
		case through > 0 && f.Window == 0:
			t.Fatalf("%+v: an unbounded walk stopped at %d", f, through)
		case through > 0:
			f.AfterKeyID = through
		case len(rows) < f.Limit:
			return got
		}
	}
	t.Fatalf("%+v: pages do not end", f)
	return nil
}

// TestReviewTextFilter: the editor's text filter finds the text in the key, the source or
// the language's value, case folded, alone and with the other filters, the same whether
// the trigram indexes narrow the keys, name too many (a walk) or cannot help (two
// letters), and whether a walk reads the keys in windows; the other language's values, hidden keys and other projects never match; and
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
					// A walk in windows of 3 key ids finds the same rows.
					for _, window := range []int64{0, 3} {
						flt.Window = window
						if got := reviewAll(t, db, flt); !sameSet(got, want) {
							t.Errorf("%s, %q, window %d: found %q, want %q", fl.name, q, window, got, want)
						}
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

// TestReviewWindow: a walk asked for a window reads at most that many key ids a call and
// says where it stopped, so that a filter no row passes (missing in a finished language)
// costs a window per page, not the project; a page that fills within the window, the last
// window and the filters an index drives report no stop.
func TestReviewWindow(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := sys(t)
		var ids []int64
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			n, err := tx.CreateNamespace(ctx, f.Project.ID, "window")
			if err != nil {
				return err
			}
			var nk []model.NewKey
			for i := range 30 {
				nk = append(nk, model.NewKey{NamespaceID: n.ID, Key: fmt.Sprintf("k%02d", i), SourceVersion: 1})
			}
			if ids, err = tx.InsertKeys(ctx, nk); err != nil {
				return err
			}
			var ws []model.TranslationWrite
			for i, id := range ids {
				ws = append(ws, model.TranslationWrite{KeyID: id, Key: nk[i].Key, Language: "en", Value: "source", Status: model.StatusApproved, Change: model.ChangeValueCreated},
					model.TranslationWrite{KeyID: id, Key: nk[i].Key, Language: "nb", Value: "kilde", Status: model.StatusApproved, Change: model.ChangeValueCreated})
			}
			return tx.WriteTranslations(ctx, ws)
		}); err != nil {
			t.Fatal(err)
		}
		page := func(flt model.ReviewFilter) ([]model.ReviewRow, int64) {
			t.Helper()
			flt.ProjectID, flt.SourceLanguage, flt.Language, flt.Namespace = f.Project.ID, "en", "nb", "window"
			var rows []model.ReviewRow
			var through int64
			if err := db.View(ctx, func(tx model.Tx) error {
				var err error
				rows, through, err = tx.ReviewRows(ctx, flt)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return rows, through
		}
		// Nothing is missing: each call reads 10 ids and says so; the last reaches the end.
		after, calls := int64(0), 0
		for {
			rows, through := page(model.ReviewFilter{Missing: true, Limit: 5, Window: 10, AfterKeyID: after})
			calls++
			if len(rows) != 0 {
				t.Fatalf("missing found %d rows in a finished language", len(rows))
			}
			if through == 0 {
				break
			}
			if want := max(after+1, slices.Min(ids)) + 9; through != want {
				t.Fatalf("a window after %d stopped at %d, want %d", after, through, want)
			}
			after = through
		}
		if calls != 3 {
			t.Errorf("30 keys in windows of 10 took %d calls, want 3", calls)
		}
		// Every row passes: the page fills within the window and does not stop.
		if rows, through := page(model.ReviewFilter{Limit: 5, Window: 10}); len(rows) != 5 || through != 0 {
			t.Errorf("all: %d rows, stopped at %d; want 5 rows and no stop", len(rows), through)
		}
		// Without a window the walk reads the namespace.
		if rows, through := page(model.ReviewFilter{Missing: true, Limit: 5}); len(rows) != 0 || through != 0 {
			t.Errorf("missing without a window: %d rows, stopped at %d", len(rows), through)
		}
		// A filter an index drives is not windowed.
		if _, through := page(model.ReviewFilter{Status: model.StatusNeedsReview, Limit: 5, Window: 10}); through != 0 {
			t.Errorf("needs review stopped at %d: an index drives it", through)
		}
	})
}
