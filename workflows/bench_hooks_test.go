package workflows_test

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/workflows"
)

// TestBenchWebhooks is `make bench`'s webhook part (BENCH_ONLY=hooks), run only with
// LOKAL_BENCH_HOOKS=1: a sync of 10,000 new keys, timed on a project without webhooks and on
// one with a webhook (the outbox write is the difference), and the 10,000 deliveries it
// makes, posted to a receiver on 127.0.0.1 by the deliverer: wall time and deliveries a
// second. It prints one line per dialect; nothing here is an assertion on time.
func TestBenchWebhooks(t *testing.T) {
	if os.Getenv("LOKAL_BENCH_HOOKS") == "" {
		t.Skip("a benchmark: set LOKAL_BENCH_HOOKS=1 (make bench BENCH_ONLY=hooks)")
	}
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("BENCH_SYNC_RUNS")); err == nil && n > 0 {
		runs = n
	}
	const keys = 10000
	storagetest.ForEachDialectInOrder(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, "127.0.0.1/32")
		var got atomic.Int64
		rc := newReceiver(t, func(_ int, _ *http.Request, w http.ResponseWriter) { got.Add(1); w.WriteHeader(http.StatusNoContent) })
		sibling := e.sibling
		wh, err := e.cat.AddWebhook(e.ctx, e.p.ID, rc.srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		syncOnce := func(projectID, ns string) time.Duration {
			tr := make(map[string]string, keys)
			for i := 0; i < keys; i++ {
				tr[fmt.Sprintf("section_%d.element_%d.label", i/100, i%100)] = fmt.Sprintf("The label number %d.", i)
			}
			ref := tools.NamespaceRef{ProjectID: projectID, Language: "en", Namespace: ns}
			start := time.Now()
			if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: ref, Translations: tr}); err != nil {
				t.Fatal(err)
			}
			return time.Since(start)
		}
		var without, with []time.Duration
		for i := 0; i < runs; i++ {
			without = append(without, syncOnce(sibling, "plain"+strconv.Itoa(i)))
			with = append(with, syncOnce(e.p.ID, "hooked"+strconv.Itoa(i)))
		}
		d := e.deliverer(workflows.DeliveryOptions{})
		start := time.Now()
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		wall := time.Since(start)
		n := got.Load()
		if n != int64(keys*runs) {
			t.Fatalf("the receiver got %d deliveries, want %d", n, keys*runs)
		}
		if ds := e.deliveries(t, wh.ID); len(ds) == 0 || ds[0].State != "delivered" {
			t.Fatalf("deliveries not marked delivered: %+v", ds[:min(1, len(ds))])
		}
		mw, mh := median(without), median(with)
		fmt.Printf("BENCH hooks %s: sync of %d new keys %.2f s without webhooks, %.2f s with one (%+.1f%%, medians of %d); %d deliveries in %.1f s, %.0f deliveries/s\n",
			dialect, keys, mw.Seconds(), mh.Seconds(), 100*(mh.Seconds()/mw.Seconds()-1), runs, n, wall.Seconds(), float64(n)/wall.Seconds())
	})
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
