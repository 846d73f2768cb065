package tools_test

// Benchmarks of issue 19's write targets: a write costs what it touches, not what the
// namespace holds.
//
//	go test -run '^$' -bench 'SyncScale' -benchtime 1x ./tools/
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench 'SyncScale' -benchtime 1x ./tools/
//
// LOKAL_BENCH_KEYS sets the size of the namespace they fill (50,000 by default);
// LOKAL_BENCH_PROFILE=dir writes a CPU profile of the timed writes alone (not the seeding)
// to dir/<benchmark>.pprof.
// Identifiers here start with "scale".

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

const scaleChunk = 5000 // keys of one partial chunk, as clients seed with

func scaleKeys(b *testing.B) int {
	if s := os.Getenv("LOKAL_BENCH_KEYS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < scaleChunk {
			b.Fatalf("LOKAL_BENCH_KEYS=%q: want a number of at least %d", s, scaleChunk)
		}
		return n
	}
	return 50000
}

// scaleProfile starts a CPU profile of what follows when LOKAL_BENCH_PROFILE names a
// directory, and returns its stop.
func scaleProfile(b *testing.B) func() {
	dir := os.Getenv("LOKAL_BENCH_PROFILE")
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(b.Name(), "/", "_")+".pprof"))
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// scaleSeed fills namespace ns with entries in partial chunks of scaleChunk keys and
// returns each chunk's duration.
func scaleSeed(b *testing.B, cat *tools.Catalog, ctx context.Context, project, ns string, entries map[string]string) []time.Duration {
	return scaleSeedLang(b, cat, ctx, project, ns, "en", entries)
}

// scaleSeedLang is scaleSeed in language: in a target language the chunks fill the keys'
// empty rows.
func scaleSeedLang(b *testing.B, cat *tools.Catalog, ctx context.Context, project, ns, language string, entries map[string]string) []time.Duration {
	var chunks []time.Duration
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	for start := 0; start < len(keys); start += scaleChunk {
		part := map[string]string{}
		for _, k := range keys[start:min(start+scaleChunk, len(keys))] {
			part[k] = entries[k]
		}
		t0 := time.Now()
		out, err := cat.Sync(ctx, tools.SyncIn{Translations: part, Partial: true,
			NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: language, Namespace: ns}})
		if err != nil {
			b.Fatal(err)
		}
		if got := out.Summary.Created + out.Summary.Filled; got != len(part) {
			b.Fatalf("chunk created or filled %d keys, want %d", got, len(part))
		}
		chunks = append(chunks, time.Since(t0))
	}
	return chunks
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// scaleCPU is the CPU time this process used so far. On SQLite the database runs in the
// process, so the CPU a benchmark used says what it costs on a machine shared with other
// work, where the elapsed time says mostly how busy the machine was.
func scaleCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSyncScaleSeed seeds one namespace of LOKAL_BENCH_KEYS keys in partial chunks of
// 5,000 new keys (the way clients and the scale benchmark seed) and reports the rate and
// the first and last chunk: a chunk touches only its keys, so the last costs the first.
func BenchmarkSyncScaleSeed(b *testing.B) {
	n := scaleKeys(b)
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		cat, project, ctx := benchCatalog(b, dialect)
		entries := benchEntries(n)
		var total, first, last time.Duration
		cpu := scaleCPU(b)
		b.ResetTimer()
		stop := scaleProfile(b)
		for i := 0; i < b.N; i++ {
			chunks := scaleSeed(b, cat, ctx, project, fmt.Sprintf("seed_%d", i), entries)
			for _, c := range chunks {
				total += c
			}
			first, last = first+chunks[0], last+chunks[len(chunks)-1]
		}
		stop()
		b.ReportMetric(float64(n*b.N)/total.Seconds(), "keys/s")
		b.ReportMetric(ms(scaleCPU(b)-cpu)/float64(b.N*len(entries)/scaleChunk), "cpu-ms/chunk")
		b.ReportMetric(ms(first)/float64(b.N), "first-chunk-ms")
		b.ReportMetric(ms(last)/float64(b.N), "last-chunk-ms")
	})
}

// BenchmarkSyncScaleChanged is the full sync of a LOKAL_BENCH_KEYS-key namespace
// with 1,000 changed source values (preserve_source_values false) and 100 new keys, as
// the scale benchmark's: each round sends what the previous one left, so it changes 1,000
// values and hides nothing. Its keys have nb translations and every second one sv, which
// the changes make stale.
func BenchmarkSyncScaleChanged(b *testing.B) {
	n := scaleKeys(b)
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		cat, project, ctx := benchCatalog(b, dialect)
		entries := benchEntries(n)
		scaleSeed(b, cat, ctx, project, "full", entries)
		nb, sv := map[string]string{}, map[string]string{}
		i := 0
		for k, v := range entries {
			nb[k] = "nb: " + v
			if i%2 == 0 {
				sv[k] = "sv: " + v
			}
			i++
		}
		scaleSeedLang(b, cat, ctx, project, "full", "nb", nb)
		scaleSeedLang(b, cat, ctx, project, "full", "sv", sv)
		keys := make([]string, 0, n)
		for k := range entries {
			keys = append(keys, k)
		}
		preserve := false
		var cpu time.Duration
		stored := maps.Clone(entries)
		defer scaleProfile(b)()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			for j := 0; j < 1000; j++ {
				k := keys[(i*1000+j)%n]
				stored[k] = fmt.Sprintf("%s (round %d)", entries[k], i)
			}
			for j := 0; j < 100; j++ {
				stored[fmt.Sprintf("new_%d.key_%d", i, j)] = "New text"
			}
			body := maps.Clone(stored)
			b.StartTimer()
			c0 := scaleCPU(b)
			out, err := cat.Sync(ctx, tools.SyncIn{Translations: body, PreserveSourceValues: &preserve,
				NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "full"}})
			if err != nil {
				b.Fatal(err)
			}
			cpu += scaleCPU(b) - c0
			if out.Summary.Created != 100 || out.Summary.SourceValueChanged != 1000 || out.Summary.Hidden != 0 {
				b.Fatalf("created %d, changed %d, hid %d; want 100, 1000 and 0", out.Summary.Created, out.Summary.SourceValueChanged, out.Summary.Hidden)
			}
		}
		b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/op")
	})
}

// BenchmarkSyncScaleOverwrite overwrites 1,000 target values of a LOKAL_BENCH_KEYS-key
// namespace: it reads the 1,000 keys it names, not the namespace.
func BenchmarkSyncScaleOverwrite(b *testing.B) {
	n := scaleKeys(b)
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		cat, project, ctx := benchCatalog(b, dialect)
		entries := benchEntries(n)
		scaleSeed(b, cat, ctx, project, "over", entries)
		keys := make([]string, 0, n)
		for k := range entries {
			keys = append(keys, k)
		}
		cpu := scaleCPU(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			body := make(map[string]string, 1000)
			for j := 0; j < 1000; j++ {
				body[keys[(i*1000+j)%n]] = fmt.Sprintf("Oversettelse %d", i)
			}
			out, err := cat.Overwrite(ctx, tools.OverwriteIn{Translations: body,
				NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: "nb", Namespace: "over"}})
			if err != nil {
				b.Fatal(err)
			}
			if out.Summary.Updated != 1000 {
				b.Fatalf("updated %d, want 1000", out.Summary.Updated)
			}
		}
		b.ReportMetric(ms(scaleCPU(b)-cpu)/float64(b.N), "cpu-ms/op")
	})
}
