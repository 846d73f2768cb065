package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// readCacheServers opens two catalogues on one database, as two servers behind one load
// balancer, that learn of each other's writes only when the test calls Poll.
func readCacheServers(t testing.TB, dialect string) (a, b *tools.Catalog, dbB *storage.DB, project string, ctx context.Context, dsn string) {
	t.Helper()
	dsn, f := storagetest.FixtureDSN(t, dialect)
	quiet := &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	dbA := storagetest.MustOpen(t, dsn, &storage.Options{PollInterval: time.Hour})
	dbB = storagetest.MustOpen(t, dsn, &storage.Options{PollInterval: time.Hour})
	a, b = storagetest.Catalog(dbA, quiet), storagetest.Catalog(dbB, quiet)
	principal, err := a.Authenticate(context.Background(), f.RW)
	if err != nil {
		t.Fatal(err)
	}
	return a, b, dbB, f.Project.ID, model.WithPrincipal(context.Background(), principal), dsn
}

func readMap(t *testing.T, ctx context.Context, cat *tools.Catalog, ref tools.NamespaceRef) (map[string]string, *model.File) {
	t.Helper()
	f, err := cat.ReadNamespace(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(f.Body, &m); err != nil {
		t.Fatalf("body %.200q: %v", f.Body, err)
	}
	return m, f
}

// TestReadNamespacePatchedAsBuilt: after each kind of write a namespace file patched from
// the cache is byte for byte the file a cold server builds, its ETag moves exactly when
// its bytes do, and the other server serves the same after one poll.
func TestReadNamespacePatchedAsBuilt(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		a, b, dbB, project, ctx, dsn := readCacheServers(t, dialect)
		en := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "app"}
		nb := en
		nb.Language = "nb"
		other := en
		other.Namespace = "other"
		seed := map[string]string{"a": "A", "b": "<b>B</b> & {{n}}", "c": "C\u2028\x01", "z": "Z"}
		fatalIf(t, errOf(a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: seed})))
		fatalIf(t, errOf(a.Sync(ctx, tools.SyncIn{NamespaceRef: other, Translations: map[string]string{"o": "O"}})))
		fatalIf(t, errOf(a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: nb, Translations: map[string]string{"a": "nb A", "b": "nb B"}})))
		for _, ref := range []tools.NamespaceRef{en, nb, other} {
			readMap(t, ctx, a, ref)
			readMap(t, ctx, b, ref)
		}

		steps := []struct {
			name    string
			write   func() error
			changes bool // whether en or nb changes
		}{
			{"a value updated", func() error {
				_, err := a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: nb, Translations: map[string]string{"a": "nb A2"}})
				return err
			}, true},
			{"keys added in the middle and at the ends", func() error {
				_, err := a.ReportMissing(ctx, tools.ReportMissingIn{NamespaceRef: en, Translations: map[string]string{"0": "zero", "m": "M", "zz": "ZZ"}})
				return err
			}, true},
			{"keys hidden by a sync", func() error {
				_, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: map[string]string{"b": "<b>B</b> & {{n}}", "c": "C\u2028\x01", "m": "M"}})
				return err
			}, true},
			{"keys shown again", func() error {
				_, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: map[string]string{"a": "A", "b": "<b>B</b> & {{n}}", "c": "C\u2028\x01", "m": "M"}})
				return err
			}, true},
			{"another namespace written", func() error {
				_, err := a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: "nb", Namespace: "other"}, Translations: map[string]string{"o": "nb O"}})
				return err
			}, false},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				before := map[string]string{}
				for _, ref := range []tools.NamespaceRef{en, nb} {
					_, f := readMap(t, ctx, a, ref)
					before[ref.Language] = f.ETag
				}
				if err := st.write(); err != nil {
					t.Fatal(err)
				}
				if err := dbB.Poll(context.Background()); err != nil {
					t.Fatal(err)
				}
				cold := storagetest.Catalog(storagetest.MustOpen(t, dsn, &storage.Options{PollInterval: time.Hour}), nil)
				moved := false
				for _, ref := range []tools.NamespaceRef{en, nb, other} {
					_, fa := readMap(t, ctx, a, ref)
					_, fb := readMap(t, ctx, b, ref)
					_, fc := readMap(t, ctx, cold, ref)
					if string(fa.Body) != string(fc.Body) || fa.ETag != fc.ETag {
						t.Errorf("%s/%s on the writing server:\n%s %s\nbuilt cold:\n%s %s", ref.Namespace, ref.Language, fa.Body, fa.ETag, fc.Body, fc.ETag)
					}
					if string(fb.Body) != string(fc.Body) || fb.ETag != fc.ETag {
						t.Errorf("%s/%s on the other server after a poll:\n%s %s\nbuilt cold:\n%s %s", ref.Namespace, ref.Language, fb.Body, fb.ETag, fc.Body, fc.ETag)
					}
					if old, ok := before[ref.Language]; ok && ref.Namespace == en.Namespace && old != fa.ETag {
						moved = true
					}
				}
				if moved != st.changes {
					t.Errorf("an ETag of namespace app moved: %v, want %v", moved, st.changes)
				}
			})
		}
	})
}

// TestReadNamespaceOtherServerAfterPoll: a write on server A reaches server B's cached file
// at B's next poll, and not before (the poll interval bounds the delay), also when the
// journal no longer holds the write.
func TestReadNamespaceOtherServerAfterPoll(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		a, b, dbB, project, ctx, dsn := readCacheServers(t, dialect)
		ref := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "app"}
		fatalIf(t, errOf(a.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"k": "v1"}})))
		if m, _ := readMap(t, ctx, b, ref); m["k"] != "v1" {
			t.Fatalf("B reads %v", m)
		}
		fatalIf(t, errOf(a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ref, Translations: map[string]string{"k": "v2"}})))
		if m, _ := readMap(t, ctx, b, ref); m["k"] != "v1" {
			t.Fatalf("B changed before its poll: %v (the test cannot tell the poll's work)", m)
		}
		if err := dbB.Poll(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m, _ := readMap(t, ctx, b, ref); m["k"] != "v2" {
			t.Fatalf("B after its poll reads %v, want k=v2", m)
		}

		// A journal trimmed past B's last poll: B drops the project whole.
		fatalIf(t, errOf(a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ref, Translations: map[string]string{"k": "v3"}})))
		if _, err := storagetest.SQL(t, dsn).Exec(`DELETE FROM cache_changes`); err != nil {
			t.Fatal(err)
		}
		if err := dbB.Poll(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m, _ := readMap(t, ctx, b, ref); m["k"] != "v3" {
			t.Fatalf("B after a poll over a trimmed journal reads %v, want k=v3", m)
		}
	})
}

// TestReadNamespaceReadsOwnWrites: with readers running all along, a read that starts
// after a write returned on the same server always sees it.
func TestReadNamespaceReadsOwnWrites(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		a, _, _, project, ctx, _ := readCacheServers(t, dialect)
		ref := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "app"}
		seed := map[string]string{}
		for i := 0; i < 200; i++ {
			seed[fmt.Sprintf("k%03d", i)] = "0"
		}
		fatalIf(t, errOf(a.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: seed})))
		// A reader spins while each write runs (rebuilding or patching the cached file
		// under it), and stops before the read that checks it: spinning all along cost a
		// core of PostgreSQL for the whole test. A second reader only starved the writes
		// on two cores, and cost tools' tests seconds of CPU.
		during := func(write func() error) {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := a.ReadNamespace(ctx, ref); err != nil {
						t.Error(err)
						return
					}
				}
			})
			err := write()
			close(stop)
			wg.Wait()
			fatalIf(t, err)
		}
		for i := 1; i <= 20; i++ {
			key := fmt.Sprintf("k%03d", (i*37)%200)
			want := fmt.Sprint(i)
			during(func() error {
				return errOf(a.ReportMissing(ctx, tools.ReportMissingIn{NamespaceRef: ref, Translations: map[string]string{fmt.Sprintf("new%03d", i): want}}))
			})
			during(func() error {
				return errOf(a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ref, Translations: map[string]string{key: want}}))
			})
			m, _ := readMap(t, ctx, a, ref)
			if m[key] != want || m[fmt.Sprintf("new%03d", i)] != want {
				t.Errorf("write %d: read %s=%q new%03d=%q, want %q", i, key, m[key], i, m[fmt.Sprintf("new%03d", i)], want)
			}
		}
	})
}

func errOf[T any](_ T, err error) error { return err }

func fatalIf(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
