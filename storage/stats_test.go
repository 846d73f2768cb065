package storage_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// PendingJobs counts jobs waiting to run, not those claimed or finished.
func TestPendingJobs(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		p := f.Project
		ctx := sys(t)
		t0 := time.Now()
		want := func(n int) {
			t.Helper()
			got, err := db.PendingJobs(ctx)
			if err != nil || got != n {
				t.Fatalf("PendingJobs = %d, %v; want %d", got, err, n)
			}
		}
		want(0)
		for _, kind := range []string{"a", "b", "c"} {
			if err := db.Update(ctx, "", func(tx model.Tx) error {
				return tx.EnqueueJob(ctx, model.Job{Kind: kind, ProjectID: p.ID, RunAt: t0.Add(time.Hour)}, false)
			}); err != nil {
				t.Fatal(err)
			}
		}
		want(3) // not yet due still counts: it is waiting
		var j model.Job
		if err := db.Update(ctx, "", func(tx model.Tx) error {
			var err error
			j, err = tx.ClaimJob(ctx, t0.Add(2*time.Hour), time.Minute)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		want(2)
		if err := db.Update(ctx, "", func(tx model.Tx) error { return tx.FinishJob(ctx, j.ID, nil, time.Time{}) }); err != nil {
			t.Fatal(err)
		}
		want(2)
	})
}

// CacheStats counts a built answer as a miss and a served one as a hit.
func TestCacheStats(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db := storagetest.MustOpenDB(t, dialect)
		build := func(context.Context) ([]byte, error) { return []byte(`{"k":"v"}`), nil }
		for i := 0; i < 3; i++ {
			if _, err := db.Cached(t.Context(), "p1", "en/common", build); err != nil {
				t.Fatal(err)
			}
		}
		if hits, misses := db.CacheStats(); hits != 2 || misses != 1 {
			t.Fatalf("CacheStats = %d hits, %d misses; want 2, 1", hits, misses)
		}
	})
}

// NamespaceRowCounts reads one language's counters of every namespace of the project, kept
// by the writes: keys created, translated, hidden by a full sync, a source change that puts
// a row behind, an edit to review; a namespace of another project is not listed.
func TestNamespaceRowCounts(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		ctx := sys(t)
		pid := f.Project.ID
		sync := func(project, ns, lang string, values map[string]string, partial bool) {
			t.Helper()
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: lang, Namespace: ns},
				Translations: values, Partial: partial}); err != nil {
				t.Fatal(err)
			}
		}
		sync(pid, "app", "en", map[string]string{"a": "A", "b": "B", "c": "C", "d": "D"}, false)
		sync(pid, "web", "en", map[string]string{"x": "X", "y": "Y"}, false)
		sync(f.Other.ID, "app", "en", map[string]string{"o": "O"}, false)
		sync(pid, "app", "nb", map[string]string{"a": "nb A", "b": "nb B", "c": ""}, true)
		sync(pid, "web", "nb", map[string]string{"x": "nb X"}, true)
		sync(pid, "app", "en", map[string]string{"a": "A", "b": "B", "c": "C"}, false) // d hidden
		update := func(ns, key, lang, value string) {
			t.Helper()
			if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{
				ProjectArg: tools.ProjectArg{ProjectID: pid}, NamespaceKey: ns, TranslationKey: key}, Language: lang}, Value: value}); err != nil {
				t.Fatal(err)
			}
		}
		update("app", "a", "en", "A2")    // nb's a falls behind
		update("web", "x", "nb", "nb X2") // to review
		if err := db.View(ctx, func(tx model.Tx) error {
			diff, err := storagetest.CheckNamespaceCounts(ctx, tx, pid, nil)
			if diff != "" {
				t.Error(diff)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var nb, sv map[string]model.LanguageCounts
		if err := db.View(ctx, func(tx model.Tx) (err error) {
			if nb, err = tx.NamespaceRowCounts(ctx, pid, "nb"); err != nil {
				return err
			}
			sv, err = tx.NamespaceRowCounts(ctx, pid, "sv")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		want := map[string]model.LanguageCounts{
			// a behind its changed source, b current, c empty (missing), d hidden.
			"app": {Language: "nb", Total: 3, Current: 1, Behind: 1},
			// x edited, to review; y missing.
			"web": {Language: "nb", Total: 2, Current: 1, ToReview: 1},
		}
		if !maps.Equal(nb, want) {
			t.Errorf("nb: %+v, want %+v", nb, want)
		}
		want = map[string]model.LanguageCounts{"app": {Language: "sv", Total: 3}, "web": {Language: "sv", Total: 2}}
		if !maps.Equal(sv, want) {
			t.Errorf("sv: %+v, want %+v", sv, want)
		}
	})
}
