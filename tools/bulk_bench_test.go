package tools_test

// The benchmark of issue 7's goal: while the worst-case 5 MB sync runs, another project's
// 1-key writes keep moving.
//
//	go test -run '^$' -bench BulkSyncNeighbour -benchtime 1x ./tools/
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench BulkSyncNeighbour -benchtime 1x ./tools/
//
// Identifiers here start with "bulk".

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// BenchmarkBulkSyncNeighbour runs the worst-case sync into one project and, for as long as
// it runs, 1-key writes (add_key) into another project one after the other. It reports the
// big sync's duration and the p50, p99 and maximum latency of the small writes, and how
// many of them ran out of their own write budget waiting.
func BenchmarkBulkSyncNeighbour(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		db := storagetest.MustOpenDB(b, dialect)
		cat := storagetest.Catalog(db, &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		sys := model.WithPrincipal(context.Background(), tools.System)
		ws, err := cat.CreateWorkspace(sys, tools.CreateWorkspaceIn{Name: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		big, err := cat.CreateProject(sys, tools.CreateProjectIn{WorkspaceID: ws.ID, Title: "Big", SourceLanguage: "en"})
		if err != nil {
			b.Fatal(err)
		}
		small, err := cat.CreateProject(sys, tools.CreateProjectIn{WorkspaceID: ws.ID, Title: "Small", SourceLanguage: "en"})
		if err != nil {
			b.Fatal(err)
		}
		k, err := cat.CreateAPIKey(sys, tools.CreateAPIKeyIn{ProjectID: big.ID})
		if err != nil {
			b.Fatal(err)
		}
		principal, err := cat.Authenticate(context.Background(), k.Key)
		if err != nil {
			b.Fatal(err)
		}
		ctx := model.WithPrincipal(context.Background(), principal)
		entries := worstCaseEntries()
		var lat []time.Duration
		var bigTotal time.Duration
		failed, bigFailed := 0, 0
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				out, err := cat.Sync(ctx, tools.SyncIn{Translations: entries, NamespaceRef: tools.NamespaceRef{
					ProjectID: big.ID, Language: "en", Namespace: fmt.Sprintf("worst_%d", i)}})
				if err == nil && out.Summary.Created != len(entries) {
					err = fmt.Errorf("created %d keys, want %d", out.Summary.Created, len(entries))
				}
				bigTotal += time.Since(start)
				done <- err
			}()
			// The system principal spends no write budget: the loop writes far more
			// than a project's 300 a minute.
			for n := 0; ; n++ {
				select {
				case err := <-done:
					if model.ErrorCode(err) == model.CodeTimeout {
						bigFailed++ // a loaded machine; reported, not fatal
					} else if err != nil {
						b.Fatal(err)
					}
				default:
					t0 := time.Now()
					if _, err := cat.AddKey(sys, tools.AddKeyIn{SourceValue: "v", KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: small.ID},
						NamespaceKey: "small", TranslationKey: fmt.Sprintf("run%d.k%d", i, n)}}); model.ErrorCode(err) == model.CodeTimeout {
						failed++ // counted, and its wait is in the latencies
					} else if err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
					continue
				}
				break
			}
		}
		b.StopTimer()
		slices.Sort(lat)
		pct := func(p float64) float64 {
			if len(lat) == 0 {
				return 0
			}
			return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Milliseconds())
		}
		b.ReportMetric(bigTotal.Seconds()/float64(b.N), "big-s/op")
		b.ReportMetric(float64(bigFailed)/float64(b.N), "big-timeouts/op")
		b.ReportMetric(float64(len(lat))/float64(b.N), "small-writes/op")
		b.ReportMetric(float64(failed)/float64(b.N), "small-timeouts/op")
		b.ReportMetric(pct(0.50), "small-p50-ms")
		b.ReportMetric(pct(0.99), "small-p99-ms")
		b.ReportMetric(pct(1), "small-max-ms")
	})
}
