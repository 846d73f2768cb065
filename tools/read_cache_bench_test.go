package tools_test

// Benchmarks of endpoint 1 after a write, the issue-19 targets: the first read on the
// writing server after a 1-key write to a 50,000-key namespace, and the time another
// server takes, once its poll has run, to serve the write (the poll interval adds to it).
//
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench ReadAfterWrite -benchtime 20x ./tools/

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

const benchReadKeys = 50000

var benchWrites int

// benchReadSetup fills namespace "big" with benchReadKeys keys, and the project with fill
// more, and reads "big" on both servers, so that both caches hold it.
func benchReadSetup(b *testing.B, dialect string, fill int) (a, other *tools.Catalog, poll func() error, ctx context.Context, en tools.NamespaceRef) {
	a, other, dbB, project, ctx, _ := readCacheServers(b, dialect)
	en = tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "big"}
	entries := benchEntries(benchReadKeys)
	if _, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: entries}); err != nil {
		b.Fatal(err)
	}
	for n := 0; n*benchReadKeys < fill; n++ {
		ref := en
		ref.Namespace = fmt.Sprintf("fill_%d", n)
		if _, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: entries}); err != nil {
			b.Fatal(err)
		}
	}
	// B learns of the seeding sync now, not in the first timed round.
	if err := dbB.Poll(context.Background()); err != nil {
		b.Fatal(err)
	}
	for _, cat := range []*tools.Catalog{a, other} {
		if _, err := cat.ReadNamespace(ctx, en); err != nil {
			b.Fatal(err)
		}
	}
	return a, other, func() error { return dbB.Poll(context.Background()) }, ctx, en
}

// benchWriteOne changes one key of ref to a value no round wrote before.
func benchWriteOne(b *testing.B, cat *tools.Catalog, ctx context.Context, ref tools.NamespaceRef, i int) {
	benchWrites++
	key := fmt.Sprintf("section_%d.element_%d.label", (i*7919)%benchReadKeys/100, i%100)
	if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ref, Translations: map[string]string{key: fmt.Sprintf("changed %d", benchWrites)}}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReadAfterWrite50k times, after a 1-key write (not timed) to a 50,000-key
// namespace: same_server, the first read on the server that wrote (target < 50 ms);
// other_server, another server's poll and first read, to which the poll interval (250 ms
// by default) adds the time a write takes to reach every server (target < 1 s).
// LOKAL_BENCH_READ_FILL=950000 fills the project with that many more keys first, in
// 50,000-key namespaces (1,000,000 in all).
func BenchmarkReadAfterWrite50k(b *testing.B) {
	fill, _ := strconv.Atoi(os.Getenv("LOKAL_BENCH_READ_FILL"))
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		a, other, poll, ctx, en := benchReadSetup(b, dialect, fill)
		b.Run("same_server", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				benchWriteOne(b, a, ctx, en, i)
				b.StartTimer()
				f, err := a.ReadNamespace(ctx, en)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(f.Body)))
			}
		})
		b.Run("other_server", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				benchWriteOne(b, a, ctx, en, i)
				b.StartTimer()
				if err := poll(); err != nil {
					b.Fatal(err)
				}
				if _, err := other.ReadNamespace(ctx, en); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
