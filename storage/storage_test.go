package storage_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

func sys(t *testing.T) context.Context { return model.WithPrincipal(t.Context(), tools.System) }

// Another process on the same database (the admin CLI, a second server) changes a
// namespace; this one's cache must serve the change within a poll interval.
func TestCacheFollowsOtherProcesses(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		open := func() *tools.Catalog {
			return storagetest.Catalog(storagetest.MustOpen(t, dsn, &storage.Options{PollInterval: 100 * time.Millisecond}), nil)
		}
		server, other := open(), open()
		p := f.Project
		ref := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
		if _, err := other.Sync(sys(t), tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"a": "one"}}); err != nil {
			t.Fatal(err)
		}
		before, err := server.ReadNamespace(sys(t), ref)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := other.Sync(sys(t), tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"a": "one", "b": "two"}}); err != nil {
			t.Fatal(err)
		}
		want := `{"a":"one","b":"two"}`
		deadline := time.Now().Add(3 * time.Second)
		for {
			f, err := server.ReadNamespace(sys(t), ref)
			if err != nil {
				t.Fatal(err)
			}
			if string(f.Body) == want {
				if f.ETag == before.ETag {
					t.Fatal("ETag did not change with the body")
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("cache still serves %s, want %s", f.Body, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

func TestErrorsMapToCodes(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		p := f.Project
		tests := []struct {
			name string
			fn   func(tx model.Tx) error
			want string
		}{
			{"missing project", func(tx model.Tx) error { _, err := tx.Project(t.Context(), "nope"); return err }, model.CodeNotFound},
			{"missing namespace", func(tx model.Tx) error { _, err := tx.Namespace(t.Context(), p.ID, "nope"); return err }, model.CodeNotFound},
			{"duplicate namespace", func(tx model.Tx) error {
				if _, err := tx.CreateNamespace(t.Context(), p.ID, "dup"); err != nil {
					return err
				}
				_, err := tx.CreateNamespace(t.Context(), p.ID, "dup")
				return err
			}, model.CodeConflict},
			{"no due job", func(tx model.Tx) error {
				_, err := tx.ClaimJob(t.Context(), time.Now().Add(-time.Hour), time.Minute)
				return err
			}, model.CodeNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := db.Update(sys(t), "", tt.fn)
				if got := model.ErrorCode(err); got != tt.want {
					t.Fatalf("got %v (%s), want %s", err, got, tt.want)
				}
			})
		}
	})
}

// Jobs are durable: a job whose worker died is claimed again once its lease runs out.
func TestJobsLeaseAndRetry(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		p := f.Project
		ctx := sys(t)
		t0 := time.Now()
		update := func(fn func(model.Tx) error) error { return db.Update(ctx, "", fn) }
		claim := func(at time.Time) (model.Job, error) {
			var j model.Job
			err := update(func(tx model.Tx) error {
				var err error
				j, err = tx.ClaimJob(ctx, at, time.Minute)
				return err
			})
			return j, err
		}
		for i := 0; i < 2; i++ {
			if err := update(func(tx model.Tx) error {
				return tx.EnqueueJob(ctx, model.Job{Kind: "test", ProjectID: p.ID, RunAt: t0}, true)
			}); err != nil {
				t.Fatal(err)
			}
		}
		j, err := claim(t0)
		if err != nil {
			t.Fatal(err)
		}
		if j.Attempts != 1 || j.Kind != "test" {
			t.Fatalf("claimed %+v", j)
		}
		if _, err := claim(t0); !model.IsNotFound(err) {
			t.Fatalf("coalesced enqueue made a second job, or a leased job was claimed again: %v", err)
		}
		// The worker died: past the lease the job is due again.
		j2, err := claim(t0.Add(2 * time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if j2.ID != j.ID || j2.Attempts != 2 {
			t.Fatalf("reclaimed %+v, want job %d at attempt 2", j2, j.ID)
		}
		retryAt := t0.Add(5 * time.Minute)
		if err := update(func(tx model.Tx) error { return tx.FinishJob(ctx, j.ID, errors.New("boom"), retryAt) }); err != nil {
			t.Fatal(err)
		}
		if _, err := claim(t0.Add(4 * time.Minute)); !model.IsNotFound(err) {
			t.Fatalf("failed job ran before its retry time: %v", err)
		}
		if _, err := claim(retryAt.Add(time.Second)); err != nil {
			t.Fatalf("failed job not retried: %v", err)
		}
		if err := update(func(tx model.Tx) error { return tx.FinishJob(ctx, j.ID, nil, time.Time{}) }); err != nil {
			t.Fatal(err)
		}
		if _, err := claim(t0.Add(time.Hour)); !model.IsNotFound(err) {
			t.Fatalf("done job claimed again: %v", err)
		}
	})
}

// A sync of source values that changes one clears that key's language locks and records
// the flag change in the history.
func TestSourceChangeClearsLocks(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		cat := storagetest.Catalog(storagetest.MustOpen(t, dsn, nil), nil)
		p := f.Project
		ctx := sys(t)
		ref := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"k": "Hello"}}); err != nil {
			t.Fatal(err)
		}
		row := tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: p.ID}, NamespaceKey: "app", TranslationKey: "k"}, Language: "nb"}
		if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row, Value: "Hei"}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.FlagTranslation(ctx, tools.FlagIn{RowRef: row, Flag: model.FlagLanguageLocked, Value: true}); err != nil {
			t.Fatal(err)
		}
		no := false
		out, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"k": "Hello!"}, PreserveSourceValues: &no})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(out.SourceValueChanged) != "[k]" {
			t.Fatalf("source_value_changed = %v", out.SourceValueChanged)
		}
		got, err := cat.GetTranslation(ctx, row.KeyRef)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(got.Translations, func(tr tools.TranslationView) bool { return tr.Language == "nb" })
		if i < 0 {
			t.Fatalf("no nb row after the source change: %+v", got.Translations)
		}
		if nb := got.Translations[i]; nb.LanguageLocked || !nb.Stale || nb.Value != "Hei" {
			t.Fatalf("nb row after the source change: %q locked=%v stale=%v, want \"Hei\" unlocked and stale", nb.Value, nb.LanguageLocked, nb.Stale)
		}

		// The history of the nb row, oldest first: its creation, the lock, and the lock
		// cleared by the source change, each with the value it had.
		rows, err := storagetest.SQL(t, dsn).QueryContext(ctx,
			`SELECT change, value, language_locked FROM translation_history WHERE language = 'nb' ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var history []string
		for rows.Next() {
			var change, value string
			var locked bool
			if err := rows.Scan(&change, &value, &locked); err != nil {
				t.Fatal(err)
			}
			history = append(history, fmt.Sprintf("%s %s locked=%v", change, value, locked))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		want := []string{"value_created Hei locked=false", "flag_changed Hei locked=true", "flag_changed Hei locked=false"}
		if !slices.Equal(history, want) {
			t.Errorf("history of the nb row:\n got %q\nwant %q", history, want)
		}
	})
}
