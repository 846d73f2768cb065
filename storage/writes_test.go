package storage_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// writesNamespace makes namespace name in the fixture project with n keys k00000... and
// their English rows, the keys at the indexes in hidden hidden.
func writesNamespace(t *testing.T, db *storage.DB, f storagetest.Fixture, name string, n int, hidden ...int) model.Namespace {
	t.Helper()
	var ns model.Namespace
	err := db.Update(sys(t), f.Project.ID, func(tx model.Tx) error {
		var err error
		if ns, err = tx.CreateNamespace(sys(t), f.Project.ID, name); err != nil {
			return err
		}
		keys := make([]model.NewKey, n)
		for i := range keys {
			keys[i] = model.NewKey{NamespaceID: ns.ID, Key: fmt.Sprintf("k%05d", i), SourceVersion: 1}
		}
		ids, err := tx.InsertKeys(sys(t), keys)
		if err != nil {
			return err
		}
		writes := make([]model.TranslationWrite, n)
		v := int64(1)
		for i, id := range ids {
			writes[i] = model.TranslationWrite{KeyID: id, Key: keys[i].Key, Language: "en", Value: "v" + keys[i].Key,
				Status: model.StatusApproved, SourceVersion: &v, Change: model.ChangeValueCreated}
		}
		if err := tx.WriteTranslations(sys(t), writes); err != nil {
			return err
		}
		var hide []int64
		for _, i := range hidden {
			hide = append(hide, ids[i])
		}
		return tx.SetHidden(sys(t), hide, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

func keyNames(keys []model.KeyState) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Key
	}
	return out
}

// Keys with only returns exactly the named keys that exist, ordered, whichever way it
// reads them: by hash in batches when they are few of the namespace, the whole namespace
// when they are most of it.
func TestKeysOnlyNamed(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: 30,000 keys read three ways run in the plain run; the race run keeps the tests that run at once")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		const n = 30000
		ns := writesNamespace(t, db, f, "many", n)
		writesNamespace(t, db, f, "other", 10) // the same names in another namespace
		for _, named := range []int{5, 12000, 25000} {
			var only, want []string
			for i := 0; i < named; i++ {
				k := fmt.Sprintf("k%05d", (i*7)%n)
				only = append(only, k)
				want = append(want, k)
			}
			only = append(only, "absent.a", "absent.b")
			slices.Sort(want)
			want = slices.Compact(want)
			err := db.View(sys(t), func(tx model.Tx) error {
				keys, err := tx.Keys(sys(t), ns, "en", "en", only...)
				if err != nil {
					return err
				}
				if got := keyNames(keys); !slices.Equal(got, want) {
					return fmt.Errorf("%d named: got %d keys (%.3v...), want %d (%.3v...)", named, len(got), got, len(want), want)
				}
				k := keys[0]
				if k.Source == nil || k.Value == nil || k.Source.Value != "v"+k.Key || k.Value == k.Source || *k.Value != *k.Source {
					return fmt.Errorf("%d named: source %+v and value %+v, want two equal copies of the English row", named, k.Source, k.Value)
				}
				keys, err = tx.Keys(sys(t), ns, "en", "nb", only[:3]...)
				if err != nil {
					return err
				}
				if len(keys) != 3 || keys[0].Source == nil || keys[0].Value != nil {
					return fmt.Errorf("in nb: got %+v, want three keys with a source and no nb row", keys)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	})
}

// VisibleKeysExcept is what a full sync hides: visible keys not kept, ordered.
func TestVisibleKeysExcept(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ns := writesNamespace(t, db, f, "app", 6, 1, 4)
		err := db.View(sys(t), func(tx model.Tx) error {
			keys, err := tx.Keys(sys(t), ns, "en", "en")
			if err != nil {
				return err
			}
			var keep []int64
			for _, i := range []int{0, 3} {
				keep = append(keep, keys[i].ID)
			}
			got, err := tx.VisibleKeysExcept(sys(t), ns, keep)
			if err != nil {
				return err
			}
			if names := []string{}; len(got) != 2 || got[0].Key != "k00002" || got[1].Key != "k00005" || got[0].ID != keys[2].ID {
				for _, k := range got {
					names = append(names, k.Key)
				}
				return fmt.Errorf("got %v, want k00002 and k00005", names)
			}
			var visible []int64
			for _, i := range []int{0, 2, 3, 5} {
				visible = append(visible, keys[i].ID)
			}
			if got, err = tx.VisibleKeysExcept(sys(t), ns, visible); err != nil || len(got) != 0 {
				return fmt.Errorf("keeping every visible key: got %v, %v; want none", got, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// Updates go in batches; a row written twice in one call keeps the last value.
func TestWriteTranslationsSameRowTwice(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ns := writesNamespace(t, db, f, "app", 3)
		err := db.Update(sys(t), f.Project.ID, func(tx model.Tx) error {
			keys, err := tx.Keys(sys(t), ns, "en", "en")
			if err != nil {
				return err
			}
			w := func(k model.KeyState, v string) model.TranslationWrite {
				return model.TranslationWrite{ID: k.Source.ID, KeyID: k.ID, Key: k.Key, Language: "en", Value: v, Status: model.StatusApproved,
					SourceVersion: k.Source.SourceVersion, Change: model.ChangeValueUpdated}
			}
			if err := tx.WriteTranslations(sys(t), []model.TranslationWrite{w(keys[0], "first"), w(keys[1], "other"), w(keys[0], "last")}); err != nil {
				return err
			}
			keys, err = tx.Keys(sys(t), ns, "en", "en")
			if err != nil {
				return err
			}
			if keys[0].Source.Value != "last" || keys[1].Source.Value != "other" || keys[2].Source.Value != "vk00002" {
				return fmt.Errorf("values %q %q %q, want last, other, vk00002", keys[0].Source.Value, keys[1].Source.Value, keys[2].Source.Value)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// An import of many keys leaves the planner statistics of the key tables refreshed once
// the store closes (the pass runs in the background after the write).
func TestStatisticsAfterImport(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: an import of thousands of keys runs in the plain run; the race run keeps the tests that run at once")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		storage.SetAnalyzeMin(db, testAnalyzeMin)
		// Not about the write budget: an hour keeps a loaded machine from tripping it.
		cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
		importKeys(t, cat, f, testAnalyzeMin)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		// The checkup's queue too, which the import filled with a mark per key.
		for _, table := range []string{"translation_keys", "checkup_queue"} {
			if analyzed(t, dialect, dsn, table) == 0 {
				t.Errorf("the statistics of %s were not refreshed after importing %d keys", table, testAnalyzeMin)
			}
		}
	})
}

// testAnalyzeMin is the rows that start a statistics pass in these tests (20,000 in use):
// the rule is the same, the imports a tenth as long.
const testAnalyzeMin = 2000

// A language filled after its keys (an overwrite per language, as a team's existing files
// arrive) refreshes the statistics too: the planner must see the translation table grown,
// or it prices a search of that language for a table that never grew.
func TestStatisticsAfterALanguageFills(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: an import of thousands of keys runs in the plain run; the race run keeps the tests that run at once")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		ctx := model.WithPrincipal(context.Background(), tools.System)
		ref := func(lang string) tools.NamespaceRef {
			return tools.NamespaceRef{ProjectID: f.Project.ID, Language: lang, Namespace: "import"}
		}
		const n = testAnalyzeMin
		entries := map[string]string{}
		for i := range n {
			entries[fmt.Sprintf("k%05d", i)] = "v"
		}
		// Each step on a store of its own: closing one waits for its pass, and the next
		// counts from the rows that pass saw, so only the nb rows can make the second pass.
		step := func(write func(cat *tools.Catalog) error) {
			db := storagetest.MustOpen(t, dsn, nil)
			storage.SetAnalyzeMin(db, testAnalyzeMin)
			if err := write(storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		}
		step(func(cat *tools.Catalog) error {
			_, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, Partial: true, NamespaceRef: ref("en")})
			return err
		})
		for k := range entries {
			entries[k] = "nb " + k
		}
		step(func(cat *tools.Catalog) error {
			_, err := cat.Overwrite(ctx, tools.OverwriteIn{Translations: entries, NamespaceRef: ref("nb")})
			return err
		})
		// What the planner believes the translation table holds: the fixture's rows and
		// the 2 x 20,000 written, once the nb rows were counted. A partial index
		// (translations_held) counts only its own rows: the table's is its largest index's.
		q := `SELECT MAX(CAST(substr(stat, 1, instr(stat, ' ') - 1) AS INTEGER)) FROM sqlite_stat1 WHERE tbl = 'translations' AND idx IS NOT NULL`
		if dialect == "postgres" {
			q = `SELECT CAST(reltuples AS BIGINT) FROM pg_class WHERE relname = 'translations' AND relkind = 'r'`
		}
		var rows int64
		if err := storagetest.SQL(t, dsn).QueryRow(q).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows < 2*n {
			t.Fatalf("the statistics say the translation table holds %d rows after %d were written: the nb rows were not counted", rows, 2*n)
		}
	})
}

// A reopened store counts the rows the last statistics pass saw as its base: the first
// analyze-minimum rows it takes in start no pass over tables already five times their
// size (a restarted server's first big write set off a pass over a million keys, which
// holds SQLite's one writer for seconds).
func TestStatisticsBaseSurvivesReopen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: an import of thousands of keys runs in the plain run; the race run keeps the tests that run at once")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		ctx := model.WithPrincipal(context.Background(), tools.System)
		const least = 500
		passes := func() int {
			q := `SELECT COALESCE(MAX(CAST(stat AS INTEGER)), 0) FROM sqlite_stat1 WHERE tbl = 'translation_keys'`
			if dialect == "postgres" {
				q = `SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'translation_keys'`
			}
			var n int
			if err := storagetest.SQL(t, dsn).QueryRow(q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n // SQLite: the keys the last pass counted
		}
		step := func(ns string, keys int) {
			db := storagetest.MustOpen(t, dsn, nil)
			storage.SetAnalyzeMin(db, least)
			entries := map[string]string{}
			for i := range keys {
				entries[fmt.Sprintf("k%05d", i)] = "v"
			}
			cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
			if _, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, Partial: true,
				NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: ns}}); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		}
		step("first", 10*least) // a pass: the base was nothing
		after := passes()
		step("second", 3*least/5) // 600 rows of keys and 600 of translations: a tenth of the base
		if got := passes(); got != after {
			t.Fatalf("a reopened store refreshed the statistics after %d new keys beside %d (%d, was %d)", 3*least/5, 10*least, got, after)
		}
	})
}

// A statistics pass that falls due while a chunked write is in flight waits for the write
// to end (on SQLite it would hold the one writer between two of its chunks), then runs.
func TestStatisticsWaitForChunkedWrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: an import of thousands of keys runs in the plain run; the race run keeps the tests that run at once")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		if dialect == "postgres" {
			// A pool database keeps the row estimates of the test before (pg_class.reltuples),
			// which the pass is due beside: counted again, and the counters read below zeroed.
			if _, err := storagetest.SQL(t, dsn).Exec(`ANALYZE translation_keys, translations; SELECT pg_stat_reset()`); err != nil {
				t.Fatal(err)
			}
		}
		db := storagetest.MustOpen(t, dsn, nil)
		storage.SetAnalyzeMin(db, testAnalyzeMin)
		waiting := make(chan struct{})
		storage.SetAnalyzeWaiting(db, func() { close(waiting) })
		cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
		end := db.BulkWrite()
		importKeys(t, cat, f, testAnalyzeMin)
		<-waiting // the pass is due and waits
		end()
		if err := db.Close(); err != nil { // waits for the pass
			t.Fatal(err)
		}
		if analyzed(t, dialect, dsn, "translation_keys") == 0 {
			t.Error("the statistics were not refreshed once the chunked write ended")
		}
	})
}

// importKeys syncs n new keys into the fixture project's namespace "import", as the
// system.
func importKeys(t *testing.T, cat *tools.Catalog, f storagetest.Fixture, n int) {
	t.Helper()
	entries := map[string]string{}
	for i := 0; i < n; i++ {
		entries[fmt.Sprintf("k%05d", i)] = "v"
	}
	ctx := model.WithPrincipal(context.Background(), tools.System)
	if _, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, Partial: true,
		NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "import"}}); err != nil {
		t.Fatal(err)
	}
}

// analyzed is how many statistics a pass left on table: SQLite's rows in sqlite_stat1,
// PostgreSQL's count of ANALYZE runs.
func analyzed(t *testing.T, dialect, dsn, table string) int {
	t.Helper()
	q := `SELECT COUNT(*) FROM sqlite_stat1 WHERE tbl = ?`
	if dialect == "postgres" {
		q = `SELECT analyze_count FROM pg_stat_user_tables WHERE relname = $1`
	}
	var n int
	if err := storagetest.SQL(t, dsn).QueryRow(q, table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
