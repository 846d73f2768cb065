package rest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestImportRequestAllocation: a whole import request through the endpoint (body read,
// plan, write or dry run, answer) holds at most bound times its file's size at its peak:
// the highest live heap the runtime marked at the end of any collection during the
// request, above the one before, with collections every 25% of growth (heapPeak). The
// total allocated is logged. Not parallel: the heap is the process's (and the least of
// up to three measures counts, since others' allocations only add to one).
//
// The bounds are today's with a margin for a loaded machine, not yet issue 34's goal of
// 10x: one measure reads 10-12.5x for a dry run and 10-11x for an import of 20,000 keys
// on both databases (load 20-38). A dry run's peak is the planning: the body (1x), the
// JSON reader's set of the keys read (2.8x) and the plan's map of the source texts
// (4.5x), which goes for sorted pairs (2.2x) once planned. Before the sync reported new
// keys in batches (model.KeyBatch) and wrote them a piece at a time, 37-46x and 45-62x;
// before the sorted names were shared and the counters' tally kept a byte a key, 10-12x
// and 14-16x; before the source texts went as sorted pairs and the rows 512 at a time,
// 10-14.5x and 11-13.6x.
func TestImportRequestAllocation(t *testing.T) {
	const n = 20000
	var body bytes.Buffer
	body.WriteString("{")
	for i := range n {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `"k%d":"v%d"`, i, i%100)
	}
	body.WriteString("}")
	storagetest.ForEachDialectInOrder(t, func(t *testing.T, dialect string) {
		for _, c := range []struct {
			name, query string
			bound       float64 // times the file's size
		}{
			{"dry run", "&dry_run=true", 13},
			{"import", "", 13},
		} {
			// The heap is the process's: what the test binary's other goroutines allocate
			// meanwhile only adds to a measure, so the least of up to three, each on a
			// project of its own, is the request's own.
			size := float64(body.Len())
			least := uint64(0)
			for attempt := range 3 {
				s := benchNewServer(t, dialect)
				var rec *httptest.ResponseRecorder
				peak, total := heapPeak(func() {
					req := httptest.NewRequest(http.MethodPut, "/api/import/"+s.project+"/latest/en/file?format=json"+c.query, bytes.NewReader(body.Bytes()))
					req.Header.Set("Authorization", s.auth)
					rec = httptest.NewRecorder()
					s.handler.ServeHTTP(rec, req)
				})
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), fmt.Sprintf(`"created":%d,`, n)) {
					t.Fatalf("%s: %d %s", c.name, rec.Code, benchTruncate(rec.Body.String()))
				}
				t.Logf("%s of %d bytes: peak %.1f MB (%.1fx), %.1f MB allocated (%.1fx)", c.name, body.Len(), float64(peak)/1e6, float64(peak)/size, float64(total)/1e6, float64(total)/size)
				if attempt == 0 || peak < least {
					least = peak
				}
				if float64(least) <= c.bound*size {
					break
				}
			}
			if float64(least) > c.bound*size {
				t.Errorf("%s of a %d-byte file held %d bytes at its peak, %.1fx its size; the bound is %.0fx", c.name, body.Len(), least, float64(least)/size, c.bound)
			}
		}
	})
}

// heapPeak runs fn and returns the highest live heap any collection marked while it ran,
// above the live heap before it, and the bytes fn allocated in all. Collections run every
// 25% of growth meanwhile, so that the heap between two is never far above what they mark.
func heapPeak(fn func()) (peak, total uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	runtime.GC()
	metrics.Read(live)
	base := live[0].Value.Uint64()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc

	var mu sync.Mutex
	high, stop := base, false
	done := make(chan struct{})
	type tick struct{ _ *int } // with a pointer: never batched by the tiny allocator
	var onGC func(*tick)
	onGC = func(*tick) {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		mu.Lock()
		defer mu.Unlock()
		high = max(high, s[0].Value.Uint64())
		if stop {
			close(done)
			return
		}
		runtime.SetFinalizer(&tick{}, onGC)
	}
	runtime.SetFinalizer(&tick{}, onGC)
	fn()
	runtime.ReadMemStats(&ms)
	mu.Lock()
	stop = true
	mu.Unlock()
	runtime.GC()
	<-done
	return high - min(high, base), ms.TotalAlloc - before
}
