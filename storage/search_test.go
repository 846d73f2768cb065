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

// searchSeed stores values (key → value, all in language "en") as visible keys of a new
// namespace of project; hidden names keys stored but hidden.
func searchSeed(t *testing.T, db *storage.DB, projectID, ns string, values map[string]string, hidden ...string) {
	t.Helper()
	ctx := sys(t)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range values {
			if !yield(k) {
				return
			}
		}
	})
	err := db.Update(ctx, projectID, func(tx model.Tx) error {
		n, err := tx.CreateNamespace(ctx, projectID, ns)
		if err != nil {
			return err
		}
		var nk []model.NewKey
		for _, k := range keys {
			nk = append(nk, model.NewKey{NamespaceID: n.ID, Key: k, SourceVersion: 1})
		}
		ids, err := tx.InsertKeys(ctx, nk)
		if err != nil {
			return err
		}
		var ws []model.TranslationWrite
		var hide []int64
		for i, k := range keys {
			ws = append(ws, model.TranslationWrite{KeyID: ids[i], Key: k, Language: "en", Value: values[k], Status: model.StatusApproved, Change: model.ChangeValueCreated})
			if slices.Contains(hidden, k) {
				hide = append(hide, ids[i])
			}
		}
		if err := tx.WriteTranslations(ctx, ws); err != nil {
			return err
		}
		return tx.SetHidden(ctx, hide, true)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// searchAll pages through Search three rows at a time with the keyset cursor and returns
// "key=value" of every row, failing on a repeat or a page out of order.
func searchAll(t *testing.T, db *storage.DB, f model.SearchFilter) []string {
	t.Helper()
	ctx := sys(t)
	var got []string
	seen := map[string]bool{}
	f.Limit = 3
	for range 1000 {
		var rows []model.ProjectTranslation
		var through int64
		if err := db.View(ctx, func(tx model.Tx) error {
			var err error
			rows, through, err = tx.Search(ctx, f)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if through > 0 && len(rows) >= f.Limit {
			t.Fatalf("%+v: a full page with a window's end %d", f, through)
		}
		for _, r := range rows {
			id := r.Key + "=" + r.Row.Value
			if seen[id] {
				t.Fatalf("%+v: %s given twice", f, id)
			}
			if r.KeyID < f.AfterKeyID || (r.KeyID == f.AfterKeyID && r.Row.Language <= f.AfterLanguage) {
				t.Fatalf("%+v: %s (%d %s) is not after the cursor", f, id, r.KeyID, r.Row.Language)
			}
			seen[id] = true
			got = append(got, id)
			f.AfterKeyID, f.AfterLanguage = r.KeyID, r.Row.Language
		}
		if through > 0 {
			// A short substring's window ended: on after it.
			f.AfterKeyID, f.AfterLanguage = through, "~"
			continue
		}
		if len(rows) < f.Limit {
			return got
		}
	}
	t.Fatalf("%+v: pages do not end", f)
	return nil
}

// TestSearchSubstrings: value_contains and key_contains find a substring anywhere, case
// folded in every script, with LIKE's wildcards and escape taken literally, whether the
// trigram index narrows the rows (three or more characters, few rows), the search walks
// the project because the index names too many, or the term is too short for trigrams
// (read a window of keys per call, the pages following the windows).
// Hidden keys and other projects' rows are never found.
func TestSearchSubstrings(t *testing.T) {
	values := map[string]string{
		"greeting.ÆØÅ":   "Ærlig talt ÆØÅ",
		"street":         "Straße",
		"city.athens":    "ΑΘΗΝΑ",
		"hello":          "Привет мир",
		"sure":           "100% sure",
		"snake_case":     "snake_case value",
		"path":           `back\slash`,
		"quote":          `say "hi" now`,
		"two":            "ab",
		"world":          "Hello World",
		"caps.HELLO":     "hello world",
		"plain":          "nothing here",
		"percent%key":    "fifty-fifty",
		"under_score.x":  "x",
		"mixed.Ünïcödé":  "ÜNÏCÖDÉ Text",
		"repeat.1":       "aaaa",
		"repeat.2":       "aaab",
		"emoji":          "smile 😀 please",
		"hidden.hello":   "hello hidden",
		"hidden.pattern": "100% hidden",
	}
	hidden := []string{"hidden.hello", "hidden.pattern"}
	queries := []string{"æøå", "ÆøÅ", "straße", "STRASSE", "αθηνα", "мир", "ПРИВЕТ", "%", "0% s", "_", "e_c", `\`, `k\s`, `"hi"`,
		"ä", "ri", "x", "o w", "HELLO WORLD", "ünïcödé", "aaa", "aa", "😀", "ile 😀", "zzz", "ello", "%key", "_sc"}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		searchSeed(t, db, f.Project.ID, "search", values, hidden...)
		searchSeed(t, db, f.Other.ID, "search", values) // same text elsewhere: never found
		for _, name := range []string{"indexed", "walking", "windowed"} {
			t.Run(name, func(t *testing.T) {
				switch name {
				case "walking":
					t.Cleanup(storage.SetSearchCandidates(1))
				case "windowed":
					// Short substrings read two key ids a call: pages, maybe empty, follow
					// the windows to the end.
					t.Cleanup(storage.SetSearchScan(2))
				}
				for _, q := range queries {
					for _, byKey := range []bool{false, true} {
						var want []string
						for k, v := range values {
							in := v
							if byKey {
								in = k
							}
							if !slices.Contains(hidden, k) && strings.Contains(strings.ToLower(in), strings.ToLower(q)) {
								want = append(want, k+"="+v)
							}
						}
						flt := model.SearchFilter{ProjectID: f.Project.ID, ValueContains: q}
						if byKey {
							flt = model.SearchFilter{ProjectID: f.Project.ID, KeyContains: q}
						}
						got := searchAll(t, db, flt)
						if !sameSet(got, want) {
							t.Errorf("key %v, %q: found %q, want %q", byKey, q, got, want)
						}
					}
				}
			})
		}
	})
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestSearchFilters: language and status filters with a substring, on both ways.
func TestSearchFilters(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := sys(t)
		values := map[string]string{}
		for i := range 30 {
			values[fmt.Sprintf("k%02d", i)] = fmt.Sprintf("common word %02d", i)
		}
		searchSeed(t, db, f.Project.ID, "filters", values)
		// A second language, needs_review on odd keys.
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			rows, err := tx.ProjectTranslations(ctx, f.Project.ID, "en")
			if err != nil {
				return err
			}
			var ws []model.TranslationWrite
			for i, r := range rows {
				st := model.StatusApproved
				if i%2 == 1 {
					st = model.StatusNeedsReview
				}
				ws = append(ws, model.TranslationWrite{KeyID: r.KeyID, Key: r.Key, Language: "nb", Value: "vanlig ord " + r.Key, Status: st, Change: model.ChangeValueCreated})
			}
			return tx.WriteTranslations(ctx, ws)
		}); err != nil {
			t.Fatal(err)
		}
		for _, walk := range []bool{false, true} {
			if walk {
				t.Cleanup(storage.SetSearchCandidates(1))
			}
			for _, tc := range []struct {
				f    model.SearchFilter
				want int
			}{
				{model.SearchFilter{Language: "nb"}, 30},
				{model.SearchFilter{Status: model.StatusNeedsReview}, 15},
				{model.SearchFilter{Status: model.StatusApproved}, 45},
				{model.SearchFilter{Language: "en", ValueContains: "WORD"}, 30},
				{model.SearchFilter{Language: "nb", ValueContains: "WORD"}, 0},
				{model.SearchFilter{Status: model.StatusNeedsReview, ValueContains: "ord k"}, 15},
				{model.SearchFilter{Language: "nb", KeyContains: "k1"}, 10},
				{model.SearchFilter{KeyContains: "k0", ValueContains: "vanlig"}, 10},
			} {
				tc.f.ProjectID = f.Project.ID
				if got := searchAll(t, db, tc.f); len(got) != tc.want {
					t.Errorf("walk %v %+v: %d rows, want %d", walk, tc.f, len(got), tc.want)
				}
			}
		}
	})
}

// TestSearchFollowsWrites: the trigram index follows a value rewritten, a key's rows
// removed (a rolled-back chunk) and a key hidden, at once, whether the rows were still
// pending or already indexed (PostgreSQL's side tables, SQLite's merged segments).
func TestSearchFollowsWrites(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, indexed := range []bool{false, true} {
			t.Run(fmt.Sprintf("indexed=%v", indexed), func(t *testing.T) { searchFollowsWrites(t, dialect, indexed) })
		}
	})
}

func searchFollowsWrites(t *testing.T, dialect string, indexed bool) {
	db, f := storagetest.MustOpenFixture(t, dialect)
	ctx := sys(t)
	searchSeed(t, db, f.Project.ID, "writes", map[string]string{"a": "old albatross", "b": "brave badger", "c": "cheeky cormorant"})
	if indexed {
		if err := storage.MergeTrigrams(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	find := func(q string) []string {
		return searchAll(t, db, model.SearchFilter{ProjectID: f.Project.ID, ValueContains: q})
	}
	if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
		rows, err := tx.ProjectTranslations(ctx, f.Project.ID, "en")
		if err != nil {
			return err
		}
		ns, err := tx.Namespace(ctx, f.Project.ID, "writes")
		if err != nil {
			return err
		}
		for _, r := range rows {
			switch r.Key {
			case "a":
				err = tx.WriteTranslations(ctx, []model.TranslationWrite{{ID: r.Row.ID, KeyID: r.KeyID, Key: r.Key, Language: "en",
					Value: "new nightingale", Status: model.StatusApproved, Change: model.ChangeValueUpdated}})
			case "b":
				err = tx.(model.StagingTx).RemoveStagedKeys(ctx, ns.ID, []int64{r.KeyID})
			case "c":
				err = tx.SetHidden(ctx, []int64{r.KeyID}, true)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string][]string{"albatross": nil, "nightingale": {"a=new nightingale"}, "badger": nil, "cormorant": nil} {
		if got := find(q); !sameSet(got, want) {
			t.Errorf("%q: found %q, want %q", q, got, want)
		}
	}
}

// TestSearchRareWordsOfCommonText: a substring made mostly of words every key or value
// holds (a whole key name) is looked up in the trigram index by its rare words alone, and
// finds exactly the texts that hold it whole: not those holding its words in another order.
func TestSearchRareWordsOfCommonText(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		values := map[string]string{
			"page.walrus.title":    "the walrus number",
			"page.walrus.titles":   "the walrus numbers",
			"my_page.walrus.title": "all of the walrus number",
			"title.walrus.page":    "number walrus the",
			"page.walrus":          "the walrus",
		}
		for i := range 300 {
			values[fmt.Sprintf("page.word%03d.title", i)] = fmt.Sprintf("the page title number %d", i)
		}
		searchSeed(t, db, f.Project.ID, "common", values)
		for _, flt := range []model.SearchFilter{{KeyContains: "Page.Walrus.Title"}, {ValueContains: "the walrus NUMBER"}} {
			want := []string{"page.walrus.title=the walrus number", "page.walrus.titles=the walrus numbers", "my_page.walrus.title=all of the walrus number"}
			flt.ProjectID = f.Project.ID
			if got := searchAll(t, db, flt); !sameSet(got, want) {
				t.Errorf("%+v: found %q, want %q", flt, got, want)
			}
		}
	})
}

// TestSearchLanguageStatuses: a language without a status walks each of the language's
// statuses and merges them: the rows come in key order as one walk gives them, through
// the cursor and through a count of rows to skip, whatever statuses the rows hold; a
// language without rows, alone or with a status, finds nothing.
func TestSearchLanguageStatuses(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := sys(t)
		values := map[string]string{}
		for i := range 40 {
			values[fmt.Sprintf("k%02d", i)] = fmt.Sprintf("text %02d", i)
		}
		searchSeed(t, db, f.Project.ID, "statuses", values)
		// nb on three keys in four, in three statuses, runs of each in key order.
		statuses := []string{model.StatusApproved, model.StatusNeedsReview, "fuzzy"}
		var want, wantReview []string
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			rows, err := tx.ProjectTranslations(ctx, f.Project.ID, "en")
			if err != nil {
				return err
			}
			// Search's order: by key id.
			slices.SortFunc(rows, func(a, b model.ProjectTranslation) int { return int(a.KeyID - b.KeyID) })
			var ws []model.TranslationWrite
			for i, r := range rows {
				if i%4 == 3 {
					continue
				}
				st := statuses[(i/5)%3]
				v := "nb " + r.Key
				ws = append(ws, model.TranslationWrite{KeyID: r.KeyID, Key: r.Key, Language: "nb", Value: v, Status: st, Change: model.ChangeValueCreated})
				want = append(want, r.Key+"="+v)
				if st == model.StatusNeedsReview {
					wantReview = append(wantReview, r.Key+"="+v)
				}
			}
			return tx.WriteTranslations(ctx, ws)
		}); err != nil {
			t.Fatal(err)
		}
		search := func(flt model.SearchFilter) []string {
			flt.ProjectID = f.Project.ID
			return searchAll(t, db, flt)
		}
		if got := search(model.SearchFilter{Language: "nb"}); !slices.Equal(got, want) {
			t.Errorf("nb: found %q, want %q", got, want)
		}
		if got := search(model.SearchFilter{Language: "nb", Status: model.StatusNeedsReview}); !slices.Equal(got, wantReview) {
			t.Errorf("nb needs_review: found %q, want %q", got, wantReview)
		}
		for _, flt := range []model.SearchFilter{{Language: "sv"}, {Language: "sv", Status: model.StatusApproved}, {Language: "nb", Status: "rejected"},
			{Language: "sv", ValueContains: "text"}, {Language: "sv", ValueContains: "te"}, {Status: "rejected", KeyContains: "k0"}} {
			if got := search(flt); len(got) != 0 {
				t.Errorf("%+v: found %q, want nothing", flt, got)
			}
		}
		// A count of rows to skip (offsets before cursors) skips them in the merged order.
		for _, off := range []int{0, 4, 12, 29, 40} {
			var rows []model.ProjectTranslation
			if err := db.View(ctx, func(tx model.Tx) error {
				var err error
				rows, _, err = tx.Search(ctx, model.SearchFilter{ProjectID: f.Project.ID, Language: "nb", Offset: off, Limit: 5})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, r.Key+"="+r.Row.Value)
			}
			if w := want[min(off, len(want)):min(off+5, len(want))]; !slices.Equal(got, w) {
				t.Errorf("offset %d: found %q, want %q", off, got, w)
			}
		}
	})
}

// TestSearchCommonNameWindows (in order: the bounds it lowers are global): a key name of three or more characters in too many keys for
// the index to narrow, with a text in too many rows to narrow but few of that name's, is
// looked for a window of keys per call (through > 0 on a page short of rows), and the
// windows find exactly the rows a search of the whole project would.
func TestSearchCommonNameWindows(t *testing.T) {
	storagetest.ForEachDialectInOrder(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		values := map[string]string{}
		for i := range 60 {
			values[fmt.Sprintf("item.%02d", i)] = fmt.Sprintf("word %02d", i)
			values[fmt.Sprintf("other.%02d", i)] = fmt.Sprintf("text %02d", i)
		}
		values["item.07"], values["item.51"] = "text 07", "text 51"
		searchSeed(t, db, f.Project.ID, "names", values)
		t.Cleanup(storage.SetSearchScan(10))
		t.Cleanup(storage.SetSearchCandidates(5))
		flt := model.SearchFilter{ProjectID: f.Project.ID, KeyContains: "ITEM.", ValueContains: "TEXT"}
		if got, want := searchAll(t, db, flt), []string{"item.07=text 07", "item.51=text 51"}; !slices.Equal(got, want) {
			t.Errorf("%+v: found %q, want %q", flt, got, want)
		}
		// The first call stops after its window.
		flt.Limit = 3
		ctx := sys(t)
		if err := db.View(ctx, func(tx model.Tx) error {
			rows, through, err := tx.Search(ctx, flt)
			if err == nil && (through == 0 || len(rows) >= flt.Limit) {
				t.Errorf("first call: %d rows through %d, want a window's rows and its end", len(rows), through)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		// A name the index narrows is found in one call: no window.
		flt = model.SearchFilter{ProjectID: f.Project.ID, KeyContains: "item.51", Limit: 3}
		if err := db.View(ctx, func(tx model.Tx) error {
			rows, through, err := tx.Search(ctx, flt)
			if err == nil && (through != 0 || len(rows) != 1) {
				t.Errorf("item.51: %d rows through %d, want its row in one call", len(rows), through)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSearchTextOfOtherLanguages (in order, as above): a text common in the project but rare in the language
// searched is looked for a window of keys per call, and the windows find exactly its rows.
func TestSearchTextOfOtherLanguages(t *testing.T) {
	storagetest.ForEachDialectInOrder(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := sys(t)
		values := map[string]string{}
		for i := range 60 {
			values[fmt.Sprintf("item.%02d", i)] = fmt.Sprintf("text %02d", i)
		}
		searchSeed(t, db, f.Project.ID, "texts", values)
		if err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			rows, err := tx.ProjectTranslations(ctx, f.Project.ID, "en")
			if err != nil {
				return err
			}
			var ws []model.TranslationWrite
			for _, r := range rows {
				v := "nb " + r.Key
				if r.Key == "item.51" {
					v = "nb text 51"
				}
				ws = append(ws, model.TranslationWrite{KeyID: r.KeyID, Key: r.Key, Language: "nb", Value: v, Status: model.StatusApproved, Change: model.ChangeValueCreated})
			}
			return tx.WriteTranslations(ctx, ws)
		}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(storage.SetSearchScan(10))
		t.Cleanup(storage.SetSearchCandidates(5)) // nb has too many rows to read them whole
		flt := model.SearchFilter{ProjectID: f.Project.ID, ValueContains: "TEXT", Language: "nb"}
		if got, want := searchAll(t, db, flt), []string{"item.51=nb text 51"}; !slices.Equal(got, want) {
			t.Errorf("%+v: found %q, want %q", flt, got, want)
		}
		flt.Limit = 3
		if err := db.View(ctx, func(tx model.Tx) error {
			rows, through, err := tx.Search(ctx, flt)
			if err == nil && (through == 0 || len(rows) >= flt.Limit) {
				t.Errorf("first call: %d rows through %d, want a window's rows and its end", len(rows), through)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	})
}
