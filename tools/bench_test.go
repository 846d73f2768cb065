package tools_test

// Benchmarks of the catalogue operations behind endpoints 1 and 3, without HTTP: they split
// the figures of rest's benchmarks into the catalogue and storage part and the transport part.
//
//	go test -run '^$' -bench . ./tools/
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench CatalogSync ./tools/
//
// Every identifier here starts with "bench": other test files of this package are written
// alongside.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

var (
	benchVerbs = [...]string{"Choose", "Enter", "Review", "Confirm", "Update", "Select", "Check", "Share"}
	benchAdjs  = [...]string{"billing", "shipping", "primary", "default", "current", "preferred", "backup", "team"}
	benchNouns = [...]string{"address", "account", "settings", "password", "language", "invoice", "profile", "schedule"}
	benchEnds  = [...]string{"before you continue", "to finish this step", "for the whole team", "when you are ready"}
)

// benchEntries returns n keys like section_N.element_M.label with sentences of about 50 to
// 60 bytes, one in 16 with markup and one in 16 with a placeholder (the same entries as
// rest's benchmarks and .ci/bench).
func benchEntries(n int) map[string]string {
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		noun := benchNouns[(i/64)%8]
		switch i % 16 {
		case 0:
			noun = "<strong>" + noun + "</strong>"
		case 8:
			noun += " {{count}}"
		}
		m[fmt.Sprintf("section_%d.element_%d.label", i/100, i%100)] =
			fmt.Sprintf("%s the %s %s %d %s.", benchVerbs[i%8], benchAdjs[(i/8)%8], noun, i, benchEnds[(i/512)%4])
	}
	return m
}

// benchCatalog opens a fresh database of dialect holding storagetest's fixture and returns
// the catalogue, the fixture project's id (source en) and a context carrying its read/write
// API key's principal.
func benchCatalog(tb testing.TB, dialect string) (*tools.Catalog, string, context.Context) {
	tb.Helper()
	cat, project, ctx, _ := benchCatalogCPU(tb, dialect)
	return cat, project, ctx
}

// benchCatalogCPU is benchCatalog with a meter of the CPU the database's writes cost.
func benchCatalogCPU(tb testing.TB, dialect string) (*tools.Catalog, string, context.Context, *benchCPU) {
	tb.Helper()
	dsn, f := storagetest.FixtureDSN(tb, dialect)
	db := storagetest.MustOpen(tb, dsn, nil)
	cat := storagetest.Catalog(db, &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	principal, err := cat.Authenticate(context.Background(), f.RW)
	if err != nil {
		tb.Fatal(err)
	}
	return cat, f.Project.ID, model.WithPrincipal(context.Background(), principal), newBenchCPU(tb, dialect, dsn)
}

func benchCatalogSync(b *testing.B, n int) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		cat, project, ctx, cpu := benchCatalogCPU(b, dialect)
		entries := benchEntries(n)
		b.ReportAllocs()
		b.ResetTimer()
		cpu.start()
		for i := 0; i < b.N; i++ {
			out, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, NamespaceRef: tools.NamespaceRef{
				ProjectID: project, Language: "en", Namespace: fmt.Sprintf("sync_%d", i)}})
			if err != nil {
				b.Fatal(err)
			}
			if out.Summary.Created != n {
				b.Fatalf("created %d keys, want %d", out.Summary.Created, n)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
		cpu.report(b)
	})
}

// BenchmarkCatalogSync10k is Catalog.Sync of 10,000 new keys into a fresh namespace.
func BenchmarkCatalogSync10k(b *testing.B) { benchCatalogSync(b, 10000) }

// BenchmarkCatalogSync50k is Catalog.Sync of 50,000 new keys into a fresh namespace.
func BenchmarkCatalogSync50k(b *testing.B) { benchCatalogSync(b, 50000) }

// BenchmarkCatalogReadNamespace is Catalog.ReadNamespace of a 1,000-key namespace from the
// cache, in parallel.
func BenchmarkCatalogReadNamespace(b *testing.B) {
	cat, project, ctx := benchCatalog(b, "sqlite")
	ref := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "common"}
	if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: benchEntries(1000)}); err != nil {
		b.Fatal(err)
	}
	// The store's watcher drops the project's cache once more when its poll sees the
	// write's own revision (storagetest polls every 50ms); wait for that before warming.
	time.Sleep(300 * time.Millisecond)
	if _, err := cat.ReadNamespace(ctx, ref); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := cat.ReadNamespace(ctx, ref); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkAuthenticate is the token check every request makes (keyed hash, then the
// principal cache), in parallel.
func BenchmarkAuthenticate(b *testing.B) {
	db, f := storagetest.MustOpenFixture(b, "sqlite")
	cat := storagetest.Catalog(db, nil)
	header := "Token token=" + f.RW
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := cat.Authenticate(context.Background(), tools.ParseAuthorization(header)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// worstCaseEntries is the most keys a 5 MB body can carry: tiny keys with one-letter
// values (about 380,000).
func worstCaseEntries() map[string]string {
	m := map[string]string{}
	for size, i := 2, 0; size < 5_200_000; i++ {
		k := fmt.Sprintf("k%d", i)
		m[k] = "v"
		size += len(k) + 7
	}
	return m
}

// BenchmarkCatalogSyncWorstCase is Catalog.Sync of the worst-case 5 MB body into a fresh
// namespace: it must finish well inside the 25-second write budget.
func BenchmarkCatalogSyncWorstCase(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		cat, project, ctx, cpu := benchCatalogCPU(b, dialect)
		entries := worstCaseEntries()
		b.ReportAllocs()
		b.ResetTimer()
		cpu.start()
		for i := 0; i < b.N; i++ {
			out, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, NamespaceRef: tools.NamespaceRef{
				ProjectID: project, Language: "en", Namespace: fmt.Sprintf("worst_%d", i)}})
			if err != nil {
				b.Fatal(err)
			}
			if out.Summary.Created != len(entries) {
				b.Fatalf("created %d keys, want %d", out.Summary.Created, len(entries))
			}
		}
		b.ReportMetric(float64(len(entries))*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
		cpu.report(b)
	})
}
