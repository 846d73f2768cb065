package workflows_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/workflows"
)

// BenchmarkAutoTranslate syncs 1,000 new keys into a project with three auto-translate
// languages and runs the real worker (real clock) against a model double that takes 200 ms
// a call, until get_project_status shows nothing missing. It reports the wall time beside
// the theoretical minimum for the provider's concurrency (300 calls of 10 strings, 4 at a
// time: 15 s), the calls made, and the heap before, at its peak and after.
//
//	go test -run '^$' -bench AutoTranslate -benchtime 1x ./workflows/
func BenchmarkAutoTranslate(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		for range b.N {
			benchAutoTranslate(b, dialect)
		}
	})
}

const (
	benchKeys        = 1000
	benchLatency     = 200 * time.Millisecond
	benchConcurrency = 4
)

func benchAutoTranslate(b *testing.B, dialect string) {
	db, f := storagetest.MustOpenFixture(b, dialect)
	llm := aitest.New(b, func(c aitest.Call) aitest.Reply {
		out := map[string]string{}
		for id, s := range c.Strings {
			out[id] = c.TargetLanguage + ": " + s
		}
		return aitest.Reply{Content: aitest.Content(out), Delay: benchLatency, PromptTokens: 200, CompletionTokens: 100}
	})
	cat := storagetest.Catalog(db, &tools.Options{AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "bench"}, AIConcurrency: benchConcurrency})
	ctx := model.WithPrincipal(context.Background(), tools.System)
	langs := []string{"nb", "sv", "de"}
	if _, err := cat.SetProject(ctx, f.Project.ID, tools.SetProjectIn{Languages: &langs, AutoTranslate: &langs}); err != nil {
		b.Fatal(err)
	}
	strs := map[string]string{}
	for i := range benchKeys {
		strs[fmt.Sprintf("section_%d.label_%d", i/100, i)] = fmt.Sprintf("Open the %d settings for %%{name} <b>now</b>", i)
	}

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapInuse
	var peak atomic.Uint64
	stopSampling := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stopSampling:
				return
			case <-t.C:
			}
		}
	})

	b.ResetTimer()
	start := time.Now()
	runCtx, stop := context.WithCancel(context.Background())
	worker := workflows.New(cat, &workflows.Options{Poll: 100 * time.Millisecond})
	var running sync.WaitGroup
	running.Go(func() { worker.Run(runCtx) })
	ref := tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"}
	if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: strs}); err != nil {
		b.Fatal(err)
	}
	for {
		st, err := cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}})
		if err != nil {
			b.Fatal(err)
		}
		done := true
		for _, l := range st.Languages {
			if l.Language != "en" && (l.Missing != 0 || l.AIFailed != 0) {
				done = false
			}
			if l.AIFailed != 0 {
				b.Fatalf("%s: %d strings failed", l.Language, l.AIFailed)
			}
		}
		if done {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	wall := time.Since(start)
	b.StopTimer()
	stop()
	running.Wait()
	close(stopSampling)
	sampler.Wait()
	runtime.GC()
	runtime.ReadMemStats(&ms)

	calls := len(llm.Calls())
	minimum := time.Duration((len(langs)*benchKeys+9)/10/benchConcurrency) * benchLatency
	b.ReportMetric(wall.Seconds(), "wall_s")
	b.ReportMetric(minimum.Seconds(), "min_s")
	b.ReportMetric(wall.Seconds()/minimum.Seconds(), "x_min")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(float64(heapBefore)/(1<<20), "heap_before_MiB")
	b.ReportMetric(float64(peak.Load())/(1<<20), "heap_peak_MiB")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap_after_MiB")
}

// BenchmarkRegisterAtCap times one register_source_strings of 5,000 new strings (the
// per-call cap) into a project with two target languages, with an AI provider configured
// so that the call queues their automatic translation, and reports the job rows that one
// call left waiting.
//
//	go test -run '^$' -bench RegisterAtCap -benchtime 3x ./workflows/
func BenchmarkRegisterAtCap(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		db, f := storagetest.MustOpenFixture(b, dialect)
		llm := aitest.New(b, aitest.Echo(func(_, masked string) string { return masked }))
		cat := storagetest.Catalog(db, &tools.Options{AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "bench"},
			Budgets: map[string]int{tools.WriteBudget.Name: 1 << 30}})
		ctx := model.WithPrincipal(context.Background(), tools.System)
		const n = 5000
		var rows int
		b.ResetTimer()
		for i := range b.N {
			b.StopTimer()
			strs := make(map[string]string, n)
			for k := range n {
				strs[fmt.Sprintf("screen_%d.label_%d", k/100, k)] = fmt.Sprintf("Open the %d settings for %%{name}", k)
			}
			before, err := db.PendingJobs(ctx)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := cat.RegisterSourceStrings(ctx, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
				NamespaceKey: fmt.Sprintf("bench%d", i), Strings: strs}); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			after, err := db.PendingJobs(ctx)
			if err != nil {
				b.Fatal(err)
			}
			rows = after - before
			b.StartTimer()
		}
		b.ReportMetric(float64(rows), "job_rows/call")
	})
}
