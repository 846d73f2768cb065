package storage

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCachedPatchReadsAfterWrites hammers one grouped file with writers that change a key
// and then record the change (as Update does after the commit) and readers that check the
// answer holds every write that completed before they began, whether patched or rebuilt.
func TestCachedPatchReadsAfterWrites(t *testing.T) {
	const keys, writers, readers, rounds = 20, 4, 4, 1000
	db := &DB{cache: newCache()}
	var mu sync.Mutex
	rows := make([]int, keys)   // the "database"
	var done [keys]atomic.Int64 // per key, the newest value whose write returned
	snapshot := func(only []string) map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		if only == nil {
			for k, v := range rows {
				out[fmt.Sprint(k)] = v
			}
			return out
		}
		for _, k := range only {
			var i int
			fmt.Sscan(k, &i)
			out[k] = rows[i]
		}
		return out
	}
	render := func(m map[string]int) []byte { return fmt.Append(nil, m) }
	build := func(context.Context) (any, []byte, error) {
		m := snapshot(nil)
		return m, render(m), nil
	}
	patch := func(_ context.Context, state any, changed []string) (any, []byte, error) {
		m := map[string]int{}
		for k, v := range state.(map[string]int) {
			m[k] = v
		}
		for k, v := range snapshot(changed) {
			m[k] = v
		}
		return m, render(m), nil
	}
	read := func() (map[string]int, error) {
		f, err := db.CachedPatch(context.Background(), "p", "ns", "ns/en", build, patch)
		if err != nil {
			return nil, err
		}
		var m map[string]int
		// The state is not served; parse the body back.
		m = map[string]int{}
		body := string(f.Body)
		body = body[len("map[") : len(body)-1]
		for _, kv := range splitFields(body) {
			var k, v int
			fmt.Sscanf(kv, "%d:%d", &k, &v)
			m[fmt.Sprint(k)] = v
		}
		return m, nil
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				var want [keys]int64
				for k := range want {
					want[k] = done[k].Load()
				}
				m, err := read()
				if err != nil {
					t.Error(err)
					return
				}
				for k := range want {
					if int64(m[fmt.Sprint(k)]) < want[k] {
						t.Errorf("key %d: read %d after write %d returned", k, m[fmt.Sprint(k)], want[k])
						return
					}
				}
			}
		}()
	}
	var ww sync.WaitGroup
	for w := 0; w < writers; w++ {
		ww.Add(1)
		go func() {
			defer ww.Done()
			for i := 0; i < rounds; i++ {
				k := (w*7 + i) % keys
				mu.Lock()
				rows[k]++
				v := rows[k]
				mu.Unlock()
				cs := changeSet{}
				switch i % 50 {
				case 0:
					cs.project = true
				case 1:
					cs.addKeys("ns", nil)
				case 2:
					cs.addKeys("other", []string{"x"})
					cs.addKeys("ns", []string{fmt.Sprint(k)})
				default:
					cs.addKeys("ns", []string{fmt.Sprint(k)})
				}
				db.cache.apply("p", cs)
				for {
					old := done[k].Load()
					if int64(v) <= old || done[k].CompareAndSwap(old, int64(v)) {
						break
					}
				}
				m, err := read()
				if err != nil {
					t.Error(err)
					return
				}
				if m[fmt.Sprint(k)] < v {
					t.Errorf("key %d: the writer read %d after writing %d", k, m[fmt.Sprint(k)], v)
					return
				}
			}
		}()
	}
	ww.Wait()
	close(stop)
	wg.Wait()
	m, err := read()
	if err != nil {
		t.Fatal(err)
	}
	for k := range rows {
		if m[fmt.Sprint(k)] != rows[k] {
			t.Errorf("key %d: read %d at rest, want %d", k, m[fmt.Sprint(k)], rows[k])
		}
	}
}

func splitFields(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// TestCurrentPatch: the hit without a name built answers what CachedPatch keeps under
// kind\x00group\x00sub while it is current, and nothing once a change is pending, so that
// the caller's CachedPatch re-reads the keys.
func TestCurrentPatch(t *testing.T) {
	db := &DB{cache: newCache()}
	value := "1"
	build := func(context.Context) (any, []byte, error) { return nil, []byte(value), nil }
	patch := func(context.Context, any, []string) (any, []byte, error) { return nil, []byte(value), nil }
	if f := db.CurrentPatch("p", "ns", "ns", "en"); f != nil {
		t.Fatalf("before any read: %q", f.Body)
	}
	f, err := db.CachedPatch(context.Background(), "p", "ns", "ns\x00ns\x00en", build, patch)
	if err != nil {
		t.Fatal(err)
	}
	if got := db.CurrentPatch("p", "ns", "ns", "en"); got != f {
		t.Fatalf("after a read: %v, want the file read", got)
	}
	for _, other := range [][3]string{{"q", "ns", "en"}, {"p", "ns2", "en"}, {"p", "ns", "de"}} {
		if got := db.CurrentPatch(other[0], other[1], "ns", other[2]); got != nil {
			t.Errorf("%v: %q", other, got.Body)
		}
	}
	if got := db.CurrentPatch("p", "ns", "dict", "en"); got != nil {
		t.Errorf("another kind: %q", got.Body)
	}

	value = "2"
	cs := changeSet{}
	cs.addKeys("ns", []string{"k"})
	db.cache.apply("p", cs)
	if got := db.CurrentPatch("p", "ns", "ns", "en"); got != nil {
		t.Fatalf("a change pending: %q", got.Body)
	}
	f, err = db.CachedPatch(context.Background(), "p", "ns", "ns\x00ns\x00en", build, patch)
	if err != nil || string(f.Body) != "2" {
		t.Fatalf("patched: %v %v", f, err)
	}
	if got := db.CurrentPatch("p", "ns", "ns", "en"); got != f {
		t.Fatalf("after the patch: %v", got)
	}
	if n := testing.AllocsPerRun(100, func() { db.CurrentPatch("p", "ns", "ns", "en") }); n != 0 {
		t.Errorf("%v allocations per hit", n)
	}
}
