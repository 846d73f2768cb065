package tools_test

// Benchmarks of search_translations and get_translations on a project of many keys
// (issue 19: p50 under 50 ms for every search filter; a whole project in pages):
//
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench 'Search|Export' -benchtime 20x ./tools/
//
// LOKAL_BENCH_SEARCH_KEYS sets the project's size (100,000 keys by default) in 20
// namespaces, each key with en (source), nb and, for 9 keys in 10, sv; one sv row in 20
// needs review. Four keys hold the rare word "zebrafinch". The keys are stored through
// the storage layer in one transaction per namespace, not through the API: seeding is
// not what is measured.

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun/driver/pgdriver"
)

func benchSearchKeys(tb testing.TB) int {
	if s := os.Getenv("LOKAL_BENCH_SEARCH_KEYS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 20 {
			tb.Fatalf("LOKAL_BENCH_SEARCH_KEYS=%q: want a number of keys of at least 20", s)
		}
		return n
	}
	return 100_000
}

// benchSearchProject fills the fixture project with n keys as described above.
func benchSearchProject(tb testing.TB, db *storage.DB, projectID string, n int) {
	tb.Helper()
	ctx := model.WithPrincipal(context.Background(), tools.System)
	entries := benchEntries(n)
	keys := make([]string, 0, n)
	for k := range entries {
		keys = append(keys, k)
	}
	per := (n + 19) / 20
	for ns := 0; ns*per < n; ns++ {
		chunk := keys[ns*per : min(n, (ns+1)*per)]
		err := db.Update(ctx, projectID, func(tx model.Tx) error {
			namespace, err := tx.CreateNamespace(ctx, projectID, fmt.Sprintf("ns_%02d", ns))
			if err != nil {
				return err
			}
			nk := make([]model.NewKey, len(chunk))
			for i, k := range chunk {
				nk[i] = model.NewKey{NamespaceID: namespace.ID, Key: k, SourceVersion: 1}
			}
			ids, err := tx.InsertKeys(ctx, nk)
			if err != nil {
				return err
			}
			one := int64(1)
			var ws []model.TranslationWrite
			for i, k := range chunk {
				j := ns*per + i
				v := entries[k]
				if j%(n/4+1) == 7 {
					v += " zebrafinch"
				}
				ws = append(ws,
					model.TranslationWrite{KeyID: ids[i], Key: k, Language: "en", Value: v, Status: model.StatusApproved, SourceVersion: &one, Change: model.ChangeValueCreated},
					model.TranslationWrite{KeyID: ids[i], Key: k, Language: "nb", Value: "nb " + v, Status: model.StatusApproved, SourceVersion: &one, Change: model.ChangeValueCreated})
				if j%10 != 3 {
					st := model.StatusApproved
					if j%20 == 5 {
						st = model.StatusNeedsReview
					}
					ws = append(ws, model.TranslationWrite{KeyID: ids[i], Key: k, Language: "sv", Value: "sv " + v, Status: st, SourceVersion: &one, Change: model.ChangeValueCreated})
				}
			}
			return tx.WriteTranslations(ctx, ws)
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// benchAnalyze gives PostgreSQL's planner the real sizes, as a server does after a large
// import; SQLite plans these queries from their shape.
func benchAnalyze(tb testing.TB, dialect, dsn string) {
	tb.Helper()
	if dialect != "postgres" {
		return
	}
	raw := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	defer raw.Close()
	if _, err := raw.Exec("ANALYZE"); err != nil {
		tb.Fatal(err)
	}
}

// benchSearchCatalog is benchCatalog on a fixture project of benchSearchKeys keys.
func benchSearchCatalog(b *testing.B, dialect string) (*tools.Catalog, string, context.Context) {
	dsn, f := storagetest.FixtureDSN(b, dialect)
	db := storagetest.MustOpen(b, dsn, nil)
	benchSearchProject(b, db, f.Project.ID, benchSearchKeys(b))
	benchAnalyze(b, dialect, dsn)
	cat := storagetest.Catalog(db, nil)
	principal, err := cat.Authenticate(context.Background(), f.RW)
	if err != nil {
		b.Fatal(err)
	}
	return cat, f.Project.ID, model.WithPrincipal(context.Background(), principal)
}

// BenchmarkSearchTranslations is the first page of search_translations for each kind of
// filter; rows/op says how many rows the page held.
func BenchmarkSearchTranslations(b *testing.B) {
	filters := []struct {
		name string
		in   tools.SearchIn
	}{
		{"none", tools.SearchIn{}},
		{"value_rare", tools.SearchIn{ValueContains: "zebrafinch"}},
		{"value_rare_upper", tools.SearchIn{ValueContains: "ZEBRAFINCH"}},
		{"value_common", tools.SearchIn{ValueContains: "the"}},
		{"value_one_in_eight", tools.SearchIn{ValueContains: "invoice"}},
		{"value_two_letters", tools.SearchIn{ValueContains: "th"}},
		{"value_two_letters_none", tools.SearchIn{ValueContains: "zq"}},
		{"key_rare", tools.SearchIn{KeyContains: "section_99.element_9."}},
		{"key_common", tools.SearchIn{KeyContains: "label"}},
		{"language", tools.SearchIn{Language: "sv"}},
		{"status", tools.SearchIn{Status: model.StatusNeedsReview}},
		{"status_language", tools.SearchIn{Status: model.StatusNeedsReview, Language: "sv"}},
		{"value_rare_language", tools.SearchIn{ValueContains: "zebrafinch", Language: "nb"}},
		{"status_approved_language", tools.SearchIn{Status: model.StatusApproved, Language: "nb"}},
	}
	storagetest.ForEachDialectInOrder(b, func(b *testing.B, dialect string) {
		cat, project, ctx := benchSearchCatalog(b, dialect)
		for _, f := range filters {
			b.Run(f.name, func(b *testing.B) {
				in := f.in
				in.ProjectID = project
				rows := 0
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					out, err := cat.SearchTranslations(ctx, in)
					if err != nil {
						b.Fatal(err)
					}
					rows = len(out.Rows)
				}
				b.ReportMetric(float64(rows), "rows/op")
			})
		}
	})
}

// BenchmarkExportProject is get_translations of one language of the whole project, every
// page of it; pages/op and MB/op say how it came.
func BenchmarkExportProject(b *testing.B) {
	storagetest.ForEachDialectInOrder(b, func(b *testing.B, dialect string) {
		cat, project, ctx := benchSearchCatalog(b, dialect)
		for _, format := range []string{"json", "po"} {
			b.Run(format, func(b *testing.B) {
				b.ReportAllocs()
				var pages, size, largest int
				for i := 0; i < b.N; i++ {
					pages, size, largest = 0, 0, 0
					offset := ""
					for {
						out, err := cat.GetTranslations(ctx, benchExportIn(project, format, offset))
						if err != nil {
							b.Fatal(err)
						}
						pages++
						size += len(out.Content)
						largest = max(largest, len(out.Content))
						var more bool
						if offset, more = benchExportNext(out); !more {
							break
						}
					}
				}
				b.ReportMetric(float64(pages), "pages/op")
				b.ReportMetric(float64(size)/1e6, "MB/op")
				b.ReportMetric(float64(largest)/1e6, "MB/page")
			})
		}
	})
}
