package tools_test

// Benchmarks of a cold export (endpoint 1 with ?format=) of a 50,000-key namespace, every
// format, translated into nb: the CPU a fresh server spends on its first export.
//
//	go test -run '^$' -bench ExportCold50k -benchtime 3x ./tools/

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

const benchExportKeys = 50000

// benchExportSetup seeds namespace "big" of a fixture database with benchExportKeys keys
// in en, translated into nb, and returns its DSN, the project and a principal's context.
func benchExportSetup(b *testing.B, dialect string) (dsn, project string, ctx context.Context) {
	dsn, f := storagetest.FixtureDSN(b, dialect)
	quiet := &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	cat := storagetest.Catalog(storagetest.MustOpen(b, dsn, &storage.Options{PollInterval: time.Hour}), quiet)
	principal, err := cat.Authenticate(context.Background(), f.RW)
	if err != nil {
		b.Fatal(err)
	}
	ctx = model.WithPrincipal(context.Background(), principal)
	en := tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "big"}
	entries := benchEntries(benchExportKeys)
	if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: entries}); err != nil {
		b.Fatal(err)
	}
	nb := en
	nb.Language = "nb"
	for k, v := range entries {
		entries[k] = strings.ToUpper(v)
	}
	if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: nb, Translations: entries}); err != nil {
		b.Fatal(err)
	}
	return dsn, f.Project.ID, ctx
}

// BenchmarkExportCold50k exports the namespace in nb from a server whose cache is empty,
// once per format; cpu-ms/op is the process's CPU (SQLite's included).
func BenchmarkExportCold50k(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		dsn, project, ctx := benchExportSetup(b, dialect)
		quiet := &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		for _, format := range formats.Names() {
			b.Run(format, func(b *testing.B) {
				var cpu time.Duration
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					cat := storagetest.Catalog(storagetest.MustOpen(b, dsn, &storage.Options{PollInterval: time.Hour}), quiet)
					start := scaleCPU(b)
					b.StartTimer()
					f, err := cat.ExportNamespace(ctx, tools.ExportIn{NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: "nb", Namespace: "big"}, Format: format})
					if err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					cpu += scaleCPU(b) - start
					b.SetBytes(int64(len(f.Body)))
				}
				b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/op")
			})
		}
	})
}
